"""The event loop's watchdog: a WARNING, with the loop thread's stack, when the loop stops turning.

Everything a daphne process serves runs on one asyncio loop (Twisted's
asyncio reactor): every page, every table socket, every timer. A callback
that never yields (a `while` around an `await` of a future that is already
done, a slow sync call made on the loop) freezes them all, and nothing else
in the process says so; issue 16's process spun like that for 55 minutes.

A daemon thread posts a heartbeat callback onto the loop every quarter of a
second (`call_soon_threadsafe`) and waits for it to run; one heartbeat is in
flight at a time. Healthy, that is all it costs: four callbacks a second and
a thread that sleeps, nothing per message. When a heartbeat has waited longer
than the threshold (LOOP_WATCHDOG_SECONDS, default 1 s), the thread logs, on
the `casino.watchdog` logger:

    WARNING Event loop blocked for 1.0 s ... and the loop thread's stack (innermost call last)
    WARNING Event loop still blocked after 60 s ...   (once a minute while it lasts, with the stack)
    WARNING Event loop unblocked after 3.4 s ...       (once, when the heartbeat finally runs)

Operators alert on that logger and the "Event loop blocked" prefix
(docs/deploy.md). The stack names the function that holds the loop.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
import traceback

log = logging.getLogger("casino.watchdog")

# The stable beginnings of its messages (monitoring matches them).
BLOCKED = "Event loop blocked"
STILL_BLOCKED = "Event loop still blocked"
UNBLOCKED = "Event loop unblocked"

# A heartbeat at most this often: quick enough to time a one-second block, cheap when all is well.
MAX_HEARTBEAT_SECONDS = 0.25
# While the loop stays blocked, the warning (with a fresh stack) once a minute.
REPEAT_SECONDS = 60.0


class LoopWatchdog:
    """Watches one loop from a daemon thread; `start()` it, `stop()` it when done."""

    def __init__(self, loop: asyncio.AbstractEventLoop, *, threshold: float, repeat_every: float = REPEAT_SECONDS) -> None:
        if not threshold > 0:
            raise ValueError(f"a watchdog needs a threshold above 0 seconds, not {threshold!r}")
        self.loop = loop
        self.threshold = threshold
        self.interval = min(MAX_HEARTBEAT_SECONDS, threshold / 4)
        self.repeat_every = repeat_every
        self._stopped = threading.Event()
        # Written by the loop's thread only: (when the heartbeat was posted, when it ran).
        self._answered: tuple[float, float] | None = None
        self._loop_thread: int | None = None
        self._thread = threading.Thread(target=self._watch, name="casino-loop-watchdog", daemon=True)

    def start(self) -> LoopWatchdog:
        try:
            if asyncio.get_running_loop() is self.loop:
                self._loop_thread = threading.get_ident()
        except RuntimeError:
            pass  # started from another thread: the first heartbeat says which thread runs the loop
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopped.set()

    @property
    def watching(self) -> bool:
        return self._thread.is_alive() and not self._stopped.is_set()

    def _heartbeat(self, posted: float) -> None:
        """On the loop: it turned."""
        self._loop_thread = threading.get_ident()
        self._answered = (posted, time.monotonic())

    def _watch(self) -> None:
        posted: float | None = None  # the heartbeat in flight
        blocked = False
        next_repeat = 0.0
        # When this thread last woke much later than it asked to: then the whole
        # process stood still (SIGSTOP, a paused VM, a starved machine), not just
        # the loop, and the loop gets a fresh chance to answer from then on.
        resumed = 0.0
        wake_at = time.monotonic() + self.interval
        while not self._stopped.wait(self.interval):
            now = time.monotonic()
            if now - wake_at > self.threshold / 2:
                resumed = now
            wake_at = now + self.interval
            if self.loop.is_closed():
                return
            if posted is not None:
                answered = self._answered
                if answered is not None and answered[0] == posted:
                    if blocked:
                        log.warning(
                            "%s after %.1f s: the loop runs again (watchdog threshold %g s).",
                            UNBLOCKED, answered[1] - posted, self.threshold,
                        )  # fmt: skip
                        blocked = False
                    posted = None
                elif not self.loop.is_running():
                    continue  # stopped (between runs, or shutting down): not blocked; the heartbeat waits
                else:
                    waited = now - max(posted, resumed)
                    if not blocked and waited > self.threshold:
                        blocked, next_repeat = True, now + self.repeat_every
                        self._warn(BLOCKED, f"for {now - posted:.1f} s (over the watchdog's {self.threshold:g} s)")
                    elif blocked and now >= next_repeat:
                        next_repeat = now + self.repeat_every
                        self._warn(STILL_BLOCKED, f"after {now - posted:.0f} s")
                    continue
            if self.loop.is_running():
                posted = time.monotonic()
                try:
                    self.loop.call_soon_threadsafe(self._heartbeat, posted)
                except RuntimeError:  # closed meanwhile
                    return

    def _warn(self, prefix: str, how_long: str) -> None:
        log.warning(
            "%s %s: nothing else in this process runs meanwhile. The loop thread's stack, innermost call last:\n%s",
            prefix, how_long, self._loop_stack(),
        )  # fmt: skip

    def _loop_stack(self) -> str:
        thread = self._loop_thread
        if thread is None:
            thread = getattr(self.loop, "_thread_id", None)  # asyncio's own record of the thread running it
        frame = sys._current_frames().get(thread) if thread is not None else None
        if frame is None:
            return "  (the loop's thread is not known yet)"
        return "".join(traceback.format_stack(frame)).rstrip()


# The process's watchdog: one, on the loop its server runs.
_watchdog: LoopWatchdog | None = None
_watchdog_lock = threading.Lock()


def watch(loop: asyncio.AbstractEventLoop, *, threshold: float) -> LoopWatchdog:
    """Have the process's watchdog watch `loop` (idempotent); a watchdog of an earlier loop stops.

    A server has one loop for its life; tests run one per test, and each is
    watched in turn.
    """
    global _watchdog
    with _watchdog_lock:
        if _watchdog is not None and _watchdog.loop is loop and _watchdog.watching:
            return _watchdog
        if _watchdog is not None:
            _watchdog.stop()
        _watchdog = LoopWatchdog(loop, threshold=threshold).start()
        log.info("Event loop watchdog on: a WARNING when the loop is blocked over %g s.", threshold)
        return _watchdog


def current() -> LoopWatchdog | None:
    return _watchdog
