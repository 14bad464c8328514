"""Channels' database thread, its connection kept while calls come in quick succession.

`channels.db.database_sync_to_async` closes unusable and obsolete connections
(`django.db.close_old_connections`) both before and after every call it
hands to the thread. At a busy table that is every play. With SQLite it was
about 2% of a play's CPU (docs/performance.md, issue 12); with PostgreSQL's
pool (casino/settings.py: CONN_MAX_AGE 0) it handed the connection back after
every call and took one again for the next, and the pool checks every
connection it hands out with a round trip to PostgreSQL: a seventh of the
database thread's time in a loaded process, on the one thread that makes every
play of the process (docs/performance.md, "Fifteenth check").

So this thread, which serves the consumers of the process one call at a
time (and each table's own thread, below, likewise), keeps its connection
between calls in quick succession, as a persistent connection is kept between
the requests of one thread:

- **Before a call** that comes after an idle spell (`IDLE_SECONDS`), Django's
  usual check: a pooled connection goes back to the pool (the next statement
  takes one, checked), a kept one is health-checked before its next use, one
  past CONN_MAX_AGE is closed.
- **After a call** nothing is done unless something went wrong: a database
  error other than a data or integrity error (Django then checks the
  connection and drops it if it is broken), or a transaction left open. Then
  Django's check runs at once.
- **At least once every `KEEP_SECONDS`** of unbroken calls, Django's check runs
  after a call all the same: a pooled connection goes back to its pool and the
  pool's own rules (its connections' lifetime) apply, and CONN_MAX_AGE holds.

A process therefore holds one connection of its pool out for each of these
threads that has made a call, idle or not, as threads with persistent
connections would. If PostgreSQL drops one between two calls in quick
succession, the next call's first statement fails (the player is told
nothing changed), and the check after that call replaces it.
`hand_back()` makes the threads give a pooled connection back now (the
tests, at the end of each).
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any

from asgiref.sync import AsyncToSync, SyncToAsync
from django.conf import settings
from django.db import close_old_connections, connections

# A call this long after the thread's last one checks the connections before it too.
IDLE_SECONDS = 1.0
# Calls in quick succession check the connections after one of them at least this often.
KEEP_SECONDS = 60.0

_thread = threading.local()


class DatabaseSyncToAsync(SyncToAsync):
    """`channels.db.DatabaseSyncToAsync`, the connections checked after an idle spell or a failure, not every call."""

    def thread_handler(self, loop, *args, **kwargs):
        return _checked(super().thread_handler, loop, *args, **kwargs)


def _checked(function: Callable, *args, **kwargs):
    """`function(*args, **kwargs)` on a database thread, its connections checked as the rules above say."""
    now = time.monotonic()
    last = getattr(_thread, "last_call", None)
    if last is None or now - last > IDLE_SECONDS:
        _check(now)
    try:
        return function(*args, **kwargs)
    finally:
        now = time.monotonic()
        if now - _thread.checked_at > KEEP_SECONDS or _went_wrong():
            _check(now)
        _thread.last_call = now


def _check(now: float) -> None:
    close_old_connections()
    _thread.checked_at = now


def _went_wrong() -> bool:
    """Whether a call left a connection as Django would not keep it: after a database error, or in a transaction."""
    # The attributes, not get_autocommit(): that would connect, or (a test without database access) be refused.
    return any(
        conn.connection is not None
        and (conn.errors_occurred or conn.autocommit != conn.settings_dict["AUTOCOMMIT"])
        for conn in connections.all(initialized_only=True)
    )


def hand_back() -> None:
    """Have the database threads check their connections now, as after an idle spell: a pooled one goes back to its pool."""

    def release() -> None:
        _check(time.monotonic())
        _thread.last_call = None  # and the next call checks again before it runs, as after an idle spell

    with _tables_lock:
        threads = list(_tables.values())
    for executor in [SyncToAsync.single_thread_executor, *threads]:
        executor.submit(release).result(timeout=30)


# --- A table's own database thread ----------------------------------------------------
#
# A play waits for its database for most of its time on the thread: with PostgreSQL, for each of
# its statements' round trips and its commit. With one thread for the whole process, every
# table's plays wait in one line behind each other's round trips, and the thread, not the
# CPU, limits the process (docs/performance.md, "Fifteenth check"). So with DATABASE_THREADS
# above 1 each table's plays and timers run on one of that many threads, given to the tables
# in turn as each first comes to this process: a table's changes still come one at a time,
# in order, on one thread (the held table, tables/play/held.py, stays with it), while other
# tables' go on beside them. Their row locks keep them apart, as between processes. SQLite
# has one writer at a time whatever the threads: its default is 1, all on Channels' own thread.
#
# In turn, not by the id: the upstream that routes a table's sockets to this process may route
# by the id too (the load test's --route by-table sends the odd ids to one server, the even ones
# to the other), and `id % DATABASE_THREADS` then left half of each process's threads idle while
# the other half's plays queued (docs/performance.md, "Twenty-second check").

_tables: dict[int, ThreadPoolExecutor] = {}
_tables_lock = threading.Lock()
_arrivals: dict[int, int] = {}  # table id -> how many tables came to this process before it


def for_table(table_id: int, function: Callable) -> Callable[..., Any]:
    """`database_sync_to_async(function)`, run on the table's own database thread (DATABASE_THREADS).

    Every play and every timer of every table makes this hop, so it is made
    the short way (`_TableCall`) wherever asgiref would pick the same thread.
    """
    count = settings.DATABASE_THREADS
    # One thread for every table (Channels' own), or the table's own of several.
    return _TableCall(function, None if count <= 1 else _thread_of(_arrival(table_id) % count))


def _arrival(table_id: int) -> int:
    """The table's place among the tables this process has served, given once: its thread stays its own."""
    arrival = _arrivals.get(table_id)
    if arrival is None:
        with _tables_lock:
            arrival = _arrivals.setdefault(table_id, len(_arrivals))
    return arrival


class _TableCall:
    """`DatabaseSyncToAsync(function)`, on the same thread, for less CPU (docs/performance.md, "Sixteenth check").

    asgiref's hop copies the caller's context and writes it back after,
    shields the call and wraps it in a partial or two, on every play. This
    hop runs the function in a copy of the caller's context (what it sets
    there stays there: no call here sets anything its caller reads), with
    the connection rules above. A call in a thread-sensitive place asgiref
    knows better (a synchronous caller up the stack, a request's own thread,
    a loop run by async_to_sync) goes through asgiref as before. Cancelled, the caller stops waiting and the
    call runs to its end on its thread, as with asgiref.
    """

    __slots__ = ("function", "executor")

    def __init__(self, function: Callable, executor: Executor | None) -> None:
        self.function, self.executor = function, executor

    async def __call__(self, *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        executor = self.executor
        if _asgiref_chooses(loop, executor):
            return await DatabaseSyncToAsync(self.function)(*args)
        if executor is None:
            executor = SyncToAsync.single_thread_executor
        context = contextvars.copy_context()
        return await loop.run_in_executor(executor, _in_thread, loop, context, self.function, args)


def _asgiref_chooses(loop: asyncio.AbstractEventLoop, executor: Executor | None) -> bool:
    """Whether asgiref would run the call on another thread than `executor` (None: Channels' own)."""
    if getattr(AsyncToSync.executors, "current", None) is not None:
        return True  # a synchronous caller up the stack (a test) runs it on its own thread
    # With one thread for every table: a request's thread-sensitive context, or async_to_sync's loop, has its own.
    return executor is None and (
        SyncToAsync.thread_sensitive_context.get(None) is not None or loop in AsyncToSync.loop_thread_executors
    )


def _in_thread(loop: asyncio.AbstractEventLoop, context: contextvars.Context, function: Callable, args: tuple) -> Any:
    # As asgiref's thread handler: async_to_sync in the call goes back to the caller's loop.
    local = SyncToAsync.threadlocal
    local.main_event_loop, local.main_event_loop_pid = loop, os.getpid()
    return _checked(context.run, function, *args)


def _thread_of(number: int) -> ThreadPoolExecutor:
    executor = _tables.get(number)
    if executor is None:
        with _tables_lock:
            executor = _tables.setdefault(
                number, ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"casino-tables-{number}")
            )
    return executor


# Used as Channels' is: a callable, or a decorator.
database_sync_to_async = DatabaseSyncToAsync
