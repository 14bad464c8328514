"""`python -m casino.serve`: daphne on uvloop's event loop, as `make run` and the live test servers start it."""

from __future__ import annotations

import asyncio
import time
import urllib.request

import pytest
import uvloop

from casino import serve


@pytest.fixture
def default_policy():
    yield
    asyncio.set_event_loop_policy(None)  # asyncio's own again, for the tests after


def test_it_makes_the_next_event_loop_uvloops(default_policy):
    assert serve.use_uvloop() is True
    loop = asyncio.new_event_loop()
    try:
        assert isinstance(loop, uvloop.Loop)
    finally:
        loop.close()


def test_without_uvloop_it_leaves_asyncios_loop(default_policy, monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "uvloop", None)  # as where it is not installed
    assert serve.use_uvloop() is False
    loop = asyncio.new_event_loop()
    try:
        assert not isinstance(loop, uvloop.Loop)
    finally:
        loop.close()


def test_a_live_server_serves_on_uvloops_loop(start_daphne):
    server = start_daphne("serve")
    with urllib.request.urlopen(server.url + "/accounts/login/", timeout=10) as response:
        assert response.status == 200
    deadline = time.monotonic() + 10
    while "Serving on uvloop.Loop" not in server.log.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "Serving on uvloop.Loop" in server.log.read_text()
