"""Channels' database thread checks the connections after every call, and before one only after an idle spell."""

from __future__ import annotations

import pytest

from casino import database_thread
from casino.database_thread import database_sync_to_async


@pytest.fixture
def steps(monkeypatch):
    """What ran on the database thread, in order: each check of the connections and each call."""
    happened: list[str] = []
    monkeypatch.setattr(database_thread, "close_old_connections", lambda: happened.append("check"))
    return happened


def call(steps: list[str], name: str, fail: bool = False):
    def run() -> str:
        steps.append(name)
        if fail:
            raise RuntimeError(name)
        return name

    return database_sync_to_async(run)()


@pytest.mark.asyncio
async def test_it_checks_after_every_call_and_not_again_before_the_next_one_at_once(steps, monkeypatch):
    monkeypatch.setattr(database_thread, "IDLE_SECONDS", 3600)

    assert await call(steps, "first") == "first"
    assert await call(steps, "second") == "second"
    assert await call(steps, "third") == "third"

    # Before the first only if the thread had not made a call in this test's hour.
    assert steps[-6:] == ["first", "check", "second", "check", "third", "check"]


@pytest.mark.asyncio
async def test_a_call_after_an_idle_spell_is_checked_before_too(steps, monkeypatch):
    await call(steps, "first")
    monkeypatch.setattr(database_thread, "IDLE_SECONDS", 0)

    await call(steps, "after a pause")

    assert steps[-5:] == ["first", "check", "check", "after a pause", "check"]


@pytest.mark.asyncio
async def test_a_call_that_fails_is_checked_after_all(steps, monkeypatch):
    monkeypatch.setattr(database_thread, "IDLE_SECONDS", 3600)
    await call(steps, "first")

    with pytest.raises(RuntimeError, match="broken"):
        await call(steps, "broken", fail=True)
    await call(steps, "next")

    assert steps[-4:] == ["broken", "check", "next", "check"]
