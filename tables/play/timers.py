"""Timers for table deadlines, in whichever process committed the change.

Deadlines live in the database (Table.deadline). After a commit, the process
that made it arms an asyncio `call_later` on its event loop (`on_table_changed`,
a listener of tables.play.changes); when it fires it
calls `services.do_expire(table, version)`, which re-checks everything under
the table lock, so a duplicate, late or stale timer changes nothing. A
process that dies loses its timers, not the deadlines: they are settled
lazily on the next connect or message, and by `manage.py table_clock`.
"""

from __future__ import annotations

import asyncio
import contextvars
import datetime as dt
import logging
from collections.abc import Awaitable, Callable

from channels.db import database_sync_to_async
from django.utils import timezone

from tables.play import services
from tables.play.changes import TableChanged

log = logging.getLogger(__name__)

_loop: asyncio.AbstractEventLoop | None = None
# One timer per table in this process: a newer deadline replaces the older one.
_timers: dict[int, asyncio.TimerHandle] = {}
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
    else:
        # A fresh context: the caller may be a sync thread inside asgiref's
        # thread-sensitive executor, and a callback inheriting that would deadlock.
        _loop.call_soon_threadsafe(callback, *args, context=contextvars.Context())
    return True


def _schedule(table_id: int, version: int, deadline: dt.datetime | None) -> None:
    """On the loop: replace the table's timer with one for `deadline` (none if it is None)."""
    previous = _timers.pop(table_id, None)
    if previous is not None:
        previous.cancel()
    if deadline is None:
        return
    delay = max(0.0, (deadline - timezone.now()).total_seconds()) + MARGIN_SECONDS
    loop = asyncio.get_running_loop()
    _timers[table_id] = loop.call_later(
        delay, _fire, table_id, version, deadline, context=contextvars.Context()
    )


def _fire(table_id: int, version: int, deadline: dt.datetime) -> None:
    _timers.pop(table_id, None)
    task = asyncio.ensure_future(_expire(table_id, version, deadline))
    task.add_done_callback(_log_failure)


async def _expire(table_id: int, version: int, deadline: dt.datetime) -> None:
    if timezone.now() < deadline:  # early after all: try again at the deadline
        _schedule(table_id, version, deadline)
        return
    await database_sync_to_async(services.do_expire)(table_id, version)


def _log_failure(task: asyncio.Future) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("A table's background task failed", exc_info=task.exception())
