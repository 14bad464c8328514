"""The event loop's watchdog (casino/watchdog.py): a WARNING with the loop thread's stack when the loop is blocked.

Each test runs a loop of its own with a watchdog of 1 s, the default, and
reads what it logged on `casino.watchdog`.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time

import pytest
from django.core.exceptions import ImproperlyConfigured

from casino import asgi, watchdog
from casino.env import env_float

THRESHOLD = 1.0


@pytest.fixture
def warnings(caplog):
    """`warnings()`: the messages the watchdog has logged at WARNING so far in the test."""
    caplog.set_level(logging.INFO, logger="casino.watchdog")

    def said() -> list[str]:
        return [r.getMessage() for r in caplog.records if r.name == "casino.watchdog" and r.levelno == logging.WARNING]

    return said


def run_watched(main) -> None:
    """Run `main()` on a fresh loop watched by a 1 s watchdog, then stop both."""
    loop = asyncio.new_event_loop()
    dog = watchdog.LoopWatchdog(loop, threshold=THRESHOLD).start()
    try:
        loop.run_until_complete(main(loop))
    finally:
        dog.stop()
        loop.close()


def hold_the_loop_for(seconds: float) -> None:
    time.sleep(seconds)  # a sync call on the loop: nothing else runs meanwhile


def test_it_warns_with_the_loop_threads_stack_when_a_callback_blocks_the_loop_then_says_when_it_runs_again(warnings):
    async def main(loop: asyncio.AbstractEventLoop) -> None:
        await asyncio.sleep(0.3)
        loop.call_soon(hold_the_loop_for, 2.0)
        await asyncio.sleep(0.05)
        await asyncio.sleep(0.6)  # time for the watchdog to see it run again

    run_watched(main)

    said = warnings()
    assert len(said) == 2, said
    blocked, unblocked = said
    assert re.match(r"Event loop blocked for [12]\.\d s", blocked), blocked
    # The stack is the loop thread's, down to the call that holds it.
    assert "in hold_the_loop_for" in blocked
    assert "time.sleep(seconds)" in blocked
    assert blocked.index("run_until_complete") < blocked.index("hold_the_loop_for")
    assert unblocked.startswith("Event loop unblocked after ")
    held = float(re.match(r"Event loop unblocked after ([\d.]+) s", unblocked).group(1))
    assert 1.8 <= held <= 3.0


def test_it_says_nothing_while_the_loop_keeps_turning(warnings):
    async def main(loop: asyncio.AbstractEventLoop) -> None:
        # Busy, with callbacks holding the loop for up to half the threshold, for 2.5 s.
        deadline = time.monotonic() + 2.5
        while time.monotonic() < deadline:
            loop.call_soon(hold_the_loop_for, 0.4)
            await asyncio.sleep(0.1)

    run_watched(main)

    assert warnings() == []


def test_a_loop_that_is_stopped_between_runs_is_not_blocked(warnings):
    loop = asyncio.new_event_loop()
    dog = watchdog.LoopWatchdog(loop, threshold=THRESHOLD).start()
    try:
        loop.run_until_complete(asyncio.sleep(0.3))
        time.sleep(1.6)  # nothing runs the loop: idle, not blocked (as between two tests)
        loop.run_until_complete(asyncio.sleep(0.5))
    finally:
        dog.stop()
        loop.close()

    assert warnings() == []


def test_it_says_again_once_in_a_while_when_the_loop_stays_blocked(warnings):
    loop = asyncio.new_event_loop()
    dog = watchdog.LoopWatchdog(loop, threshold=0.4, repeat_every=0.5).start()
    try:
        loop.run_until_complete(asyncio.sleep(0.2))
        loop.call_soon(hold_the_loop_for, 1.8)
        loop.run_until_complete(asyncio.sleep(0.5))
    finally:
        dog.stop()
        loop.close()

    said = warnings()
    assert said[0].startswith("Event loop blocked for ")
    assert 1 <= sum(1 for line in said if line.startswith("Event loop still blocked after ")) <= 4
    assert all("in hold_the_loop_for" in line for line in said[:-1])
    assert said[-1].startswith("Event loop unblocked after ")


def test_the_watchdog_thread_ends_with_its_loop():
    loop = asyncio.new_event_loop()
    dog = watchdog.LoopWatchdog(loop, threshold=THRESHOLD).start()
    loop.run_until_complete(asyncio.sleep(0.1))
    loop.close()
    dog._thread.join(timeout=2)
    assert not dog._thread.is_alive()


@pytest.mark.asyncio
async def test_the_application_starts_one_watchdog_on_the_loop_it_is_served_on():
    seen: list[dict] = []

    async def inner(scope, receive, send) -> None:
        seen.append(scope)

    application = asgi.OnTheServersLoop(inner, watchdog_seconds=0.5)
    await application({"type": "http"}, None, None)
    first = watchdog.current()
    await application({"type": "websocket"}, None, None)

    assert len(seen) == 2
    assert first is watchdog.current()
    assert first.loop is asyncio.get_running_loop() and first.watching
    assert first.threshold == 0.5


@pytest.mark.asyncio
async def test_a_threshold_of_0_turns_the_watchdog_off():
    before = watchdog.current()

    async def inner(scope, receive, send) -> None:
        pass

    await asgi.OnTheServersLoop(inner, watchdog_seconds=0)({"type": "http"}, None, None)

    assert watchdog.current() is before  # none started on this loop
    assert before is None or before.loop is not asyncio.get_running_loop()


def test_the_served_application_watches_with_the_setting(settings):
    assert settings.LOOP_WATCHDOG_SECONDS == 1.0  # the default
    assert asgi.application.watchdog_seconds == settings.LOOP_WATCHDOG_SECONDS


def test_the_setting_is_read_as_seconds_and_fails_loudly(monkeypatch):
    monkeypatch.setenv("LOOP_WATCHDOG_SECONDS", "0.5")
    assert env_float("LOOP_WATCHDOG_SECONDS", 1.0, minimum=0) == 0.5
    monkeypatch.setenv("LOOP_WATCHDOG_SECONDS", "0")
    assert env_float("LOOP_WATCHDOG_SECONDS", 1.0, minimum=0) == 0
    for bad, message in (("one", "is not a number"), ("nan", "not a finite number"), ("-1", "below its minimum")):
        monkeypatch.setenv("LOOP_WATCHDOG_SECONDS", bad)
        with pytest.raises(ImproperlyConfigured, match=f"LOOP_WATCHDOG_SECONDS.*{message}"):
            env_float("LOOP_WATCHDOG_SECONDS", 1.0, minimum=0)
