"""Timers for table deadlines, in whichever process committed the change.

Deadlines live in the database (Table.deadline). After a commit, the process
that made it arms an asyncio `call_later` on its event loop; when it fires it
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

from channels.db import database_sync_to_async
from django.utils import timezone

log = logging.getLogger(__name__)

_loop: asyncio.AbstractEventLoop | None = None


def remember_loop() -> None:
    """Called from async code (a consumer connecting): timers run on this loop."""
    global _loop
    _loop = asyncio.get_running_loop()


def arm(table_id: int, version: int, deadline: dt.datetime | None) -> None:
    if deadline is None or _loop is None or _loop.is_closed():
        return
    delay = max(0.0, (deadline - timezone.now()).total_seconds())
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    # A fresh context: the caller may be a sync thread inside asgiref's
    # thread-sensitive executor, and a timer inheriting that would deadlock.
    context = contextvars.Context()
    if running is _loop:
        _loop.call_later(delay, _fire, table_id, version, context=context)
    else:
        _loop.call_soon_threadsafe(_call_later, delay, table_id, version, context=context)


def _call_later(delay: float, table_id: int, version: int) -> None:
    asyncio.get_running_loop().call_later(delay, _fire, table_id, version)


def _fire(table_id: int, version: int) -> None:
    task = asyncio.ensure_future(_expire(table_id, version))
    task.add_done_callback(_log_failure)


async def _expire(table_id: int, version: int) -> None:
    from tables import services

    await database_sync_to_async(services.do_expire)(table_id, version)


def _log_failure(task: asyncio.Future) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("A table timer failed", exc_info=task.exception())
