"""After a commit: the viewers are told through the event loop, and the committing thread goes on."""

from __future__ import annotations

import asyncio

import pytest

from tables.live import broadcast
from tables.play import timers


@pytest.fixture
def no_loop(monkeypatch):
    monkeypatch.setattr(timers, "_loop", None)


@pytest.mark.asyncio
async def test_it_hands_work_to_the_loop_without_waiting_for_it(monkeypatch):
    monkeypatch.setattr(timers, "_loop", None)
    timers.remember_loop()
    started = asyncio.Event()
    release = asyncio.Event()

    async def slow() -> None:
        started.set()
        await release.wait()

    # From another thread, as after a commit in Channels' database thread: were
    # run_soon to wait for `slow`, this would never return.
    assert await asyncio.wait_for(asyncio.to_thread(timers.run_soon, slow), timeout=5) is True
    await asyncio.wait_for(started.wait(), timeout=5)
    release.set()


@pytest.mark.asyncio
async def test_it_tells_the_tables_group_from_a_thread_without_blocking_it(monkeypatch, private_channel_layer):
    from channels.layers import get_channel_layer

    monkeypatch.setattr(timers, "_loop", None)
    timers.remember_loop()
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(broadcast.group_name(7), channel)

    await asyncio.to_thread(broadcast.table_changed, 7, 12)

    assert await asyncio.wait_for(layer.receive(channel), timeout=5) == {
        "type": "table.changed",
        "table": 7,
        "version": 12,
    }
    await layer.group_discard(broadcast.group_name(7), channel)


def test_without_a_loop_it_sends_there_and_then(no_loop):
    sent = []

    async def send() -> None:
        sent.append(True)

    assert timers.run_soon(send) is False  # a management command or a test: the caller sends itself
    assert sent == []
