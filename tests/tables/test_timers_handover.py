"""A consumer's call hands its change to the loop as it returns; a timer never goes back to an older version."""

from __future__ import annotations

import asyncio
import datetime as dt
import threading

import pytest
import pytest_asyncio
from django.utils import timezone

from tables.play import timers

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def this_loop(monkeypatch):
    monkeypatch.setattr(timers, "_loop", None)
    timers.remember_loop()
    return asyncio.get_running_loop()


def counting_wakeups(monkeypatch, loop) -> list[object]:
    """Every call_soon_threadsafe on the loop: each wakes it from another thread."""
    calls: list[object] = []
    original = loop.call_soon_threadsafe

    def counted(callback, *args, **kwargs):
        calls.append(callback)
        return original(callback, *args, **kwargs)

    monkeypatch.setattr(loop, "call_soon_threadsafe", counted)
    return calls


async def test_what_a_consumers_call_hands_over_runs_on_the_loop_as_it_returns(this_loop, monkeypatch):
    ran: list[tuple[str, bool]] = []
    database_thread: list[threading.Thread] = []

    def note(name: str) -> None:
        ran.append((name, threading.current_thread() is threading.main_thread()))

    def play() -> str:
        database_thread.append(threading.current_thread())
        assert timers._call_on_loop(note, "the viewers' event") is True
        assert timers._call_on_loop(note, "the timer") is True
        assert ran == []  # not yet: nothing woke the loop
        return "done"

    wakeups = counting_wakeups(monkeypatch, this_loop)
    assert await timers.collected(1, play) == "done"

    assert database_thread[0] is not threading.main_thread()
    assert ran == [("the viewers' event", True), ("the timer", True)]  # in order, on the loop
    assert [call for call in wakeups if getattr(call, "__name__", "") == "note"] == []  # no wake-up of their own


async def test_a_call_that_raises_still_hands_over_what_it_committed(this_loop):
    ran: list[str] = []

    def late_play() -> None:
        timers._call_on_loop(ran.append, "the expired deadline's change")
        raise RuntimeError("Time ran out before your click arrived")

    with pytest.raises(RuntimeError):
        await timers.collected(1, late_play)
    assert ran == ["the expired deadline's change"]


async def test_a_call_whose_consumer_went_away_hands_over_the_rest_one_by_one(this_loop):
    ran: list[str] = []
    entered, release = threading.Event(), threading.Event()

    def slow_play() -> None:
        timers._call_on_loop(ran.append, "before")
        entered.set()
        release.wait(5)
        timers._call_on_loop(ran.append, "after")  # the waiter is gone: straight to the loop

    call = asyncio.ensure_future(timers.collected(1, slow_play))
    await asyncio.to_thread(entered.wait, 5)
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    assert ran == ["before"]  # handed over when the waiter stopped waiting
    release.set()
    for _ in range(200):
        if ran == ["before", "after"]:
            break
        await asyncio.sleep(0.01)
    assert ran == ["before", "after"]


async def test_an_older_versions_deadline_does_not_replace_a_newer_ones_timer(this_loop, monkeypatch):
    fired: list[tuple[int, int]] = []

    async def expire(table_id, version, deadline):
        fired.append((table_id, version))

    monkeypatch.setattr(timers, "_expire", expire)
    soon = timezone.now() + dt.timedelta(milliseconds=50)
    timers.arm(9, 12, soon)
    # The version before's hand-over reaches the loop late (another consumer's call came first).
    timers.arm(9, 11, timezone.now() + dt.timedelta(seconds=60))
    timers.arm(9, 11, None)

    await asyncio.sleep(0.2)
    assert fired == [(9, 12)]
    timers.forget()


async def test_a_newer_version_replaces_the_timer_or_clears_it(this_loop, monkeypatch):
    fired: list[tuple[int, int]] = []

    async def expire(table_id, version, deadline):
        fired.append((table_id, version))

    monkeypatch.setattr(timers, "_expire", expire)
    timers.arm(9, 12, timezone.now() + dt.timedelta(milliseconds=30))
    timers.arm(9, 13, timezone.now() + dt.timedelta(milliseconds=60))
    timers.arm(4, 2, timezone.now() + dt.timedelta(milliseconds=30))
    timers.arm(4, 3, None)  # no deadline any more (nobody seated)

    await asyncio.sleep(0.25)
    assert fired == [(9, 13)]
