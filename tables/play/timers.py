"""Timers for table deadlines, in whichever process committed the change.

Deadlines live in the database (Table.deadline). After a commit, the process
that made it arms an asyncio `call_later` on its event loop (`on_table_changed`,
a listener of tables.play.changes); when it fires it
calls `services.do_expire(table, version)`, which re-checks everything under
the table lock, so a duplicate, late or stale timer changes nothing. A
process that dies loses its timers, not the deadlines: they are settled
lazily on the next connect or message, and by `manage.py table_clock`.

What a committed change hands to the loop (its timer, its viewers' event)
wakes the loop once per change, from the database thread. A consumer's own
call (`collected`) hands it over in one go instead, when the call returns to
the loop: no wake-up of its own, and no hand-over of the interpreter to the
loop in the middle of the call (docs/performance.md, issue 12).
"""

from __future__ import annotations

import asyncio
import contextvars
import datetime as dt
import logging
import threading
from collections.abc import Awaitable, Callable
from typing import TypeVar

from django.utils import timezone

from casino.database_thread import for_table
from tables.play import services
from tables.play.changes import TableChanged

log = logging.getLogger(__name__)

_loop: asyncio.AbstractEventLoop | None = None
# One timer per table in this process: the deadline of a newer version replaces the older one.
_timers: dict[int, tuple[int, asyncio.TimerHandle]] = {}
# asyncio may run a callback up to its clock resolution early; fire a little late.
MARGIN_SECONDS = 0.01


def remember_loop() -> None:
    """Called from async code (a consumer connecting): timers run on this loop."""
    global _loop
    _loop = asyncio.get_running_loop()


def arm(table_id: int, version: int, deadline: dt.datetime | None) -> None:
    _call_on_loop(_schedule, table_id, version, deadline)


def on_table_changed(change: TableChanged) -> None:
    """A committed change: time the table's next deadline (or none) in this process."""
    arm(change.table_id, change.version, change.deadline)


def run_soon(coroutine_function: Callable[..., Awaitable[object]], *args: object) -> bool:
    """Start `coroutine_function(*args)` on the loop without waiting for it; False if there is no loop.

    For work a sync thread hands to the loop (e.g. a group_send after a
    commit): waiting for it would hold Channels' one database thread, which
    every consumer of the process needs, until the busy loop got round to it.
    """

    def start() -> None:
        asyncio.ensure_future(coroutine_function(*args)).add_done_callback(_log_failure)

    return _call_on_loop(start)


T = TypeVar("T")


class _Batch:
    """What one consumer's call on the database thread hands to the loop, run when the call returns."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.calls: list[tuple[Callable[..., object], tuple]] = []
        self.open = True

    def add(self, callback: Callable[..., object], args: tuple) -> bool:
        with self.lock:
            if self.open:
                self.calls.append((callback, args))
            return self.open

    def close(self) -> list[tuple[Callable[..., object], tuple]]:
        """No more calls join: those later go straight to the loop. The calls so far, to run now."""
        with self.lock:
            self.open = False
            calls, self.calls = self.calls, []
        return calls


_batch = threading.local()


async def collected(table_id: int, function: Callable[..., T], *args: object) -> T:
    """`function(*args)` on the table's database thread; what it hands to the loop runs as it returns.

    Even when it raises (a play refused after its late deadline was settled
    and committed), and even when this task is cancelled meanwhile: from then
    on the call hands things over one by one, as any other thread does.
    """
    batch = _Batch()

    def run() -> T:
        _batch.current = batch
        try:
            return function(*args)
        finally:
            _batch.current = None

    try:
        return await for_table(table_id, run)()
    finally:
        for callback, callback_args in batch.close():
            try:
                callback(*callback_args)
            except Exception:
                log.exception("A table change's hand-over to the loop failed")


def _call_on_loop(callback: Callable[..., object], *args: object) -> bool:
    """Run `callback(*args)` on the remembered loop: now if this is it, else soon; False if there is none."""
    if _loop is None or _loop.is_closed():
        return False
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is _loop:
        callback(*args)
        return True
    batch = getattr(_batch, "current", None)
    if batch is None or not batch.add(callback, args):  # a consumer's call runs them as it returns (`collected`)
        # A fresh context: the caller may be a sync thread inside asgiref's
        # thread-sensitive executor, and a callback inheriting that would deadlock.
        _loop.call_soon_threadsafe(callback, *args, context=contextvars.Context())
    return True


def _schedule(table_id: int, version: int, deadline: dt.datetime | None) -> None:
    """On the loop: replace the table's timer with one for `deadline` (none if it is None).

    Unless the timer is already for a newer version: hand-overs from the
    database thread may reach the loop out of order (`collected`).
    """
    previous = _timers.get(table_id)
    if previous is not None:
        if previous[0] > version:
            return
        previous[1].cancel()
        del _timers[table_id]
    if deadline is None:
        return
    delay = max(0.0, (deadline - timezone.now()).total_seconds()) + MARGIN_SECONDS
    loop = asyncio.get_running_loop()
    _timers[table_id] = (version, loop.call_later(
        delay, _fire, table_id, version, deadline, context=contextvars.Context()
    ))


def _fire(table_id: int, version: int, deadline: dt.datetime) -> None:
    _timers.pop(table_id, None)  # this timer's own entry: a newer version's would have cancelled it
    task = asyncio.ensure_future(_expire(table_id, version, deadline))
    task.add_done_callback(_log_failure)


async def _expire(table_id: int, version: int, deadline: dt.datetime) -> None:
    if timezone.now() < deadline:  # early after all: try again at the deadline
        _schedule(table_id, version, deadline)
        return
    await for_table(table_id, services.do_expire)(table_id, version)


def forget() -> None:
    """Cancel and drop every timer of this process (tests: table ids start again in each test database)."""
    for _, handle in _timers.values():
        handle.cancel()
    _timers.clear()


def _log_failure(task: asyncio.Future) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("A table's background task failed", exc_info=task.exception())
