"""Channels' database thread keeps its connection between calls in quick succession.

It checks the connections (Django's close_old_connections: a pooled one goes
back to its pool) before a call after an idle spell, after a call that left a
database error or a transaction behind, and after a call at least once a
minute; never between two calls in quick succession. The same rules hold
on a table's hop (`for_table`, made without asgiref's wrapping), which
otherwise behaves as asgiref's: async code in the call runs on the caller's
loop, and a cancelled caller leaves the call to finish on its thread.
"""

from __future__ import annotations

import asyncio
import collections
import threading

import pytest
from asgiref.sync import async_to_sync
from django.db import DatabaseError, connection

from casino import database_thread
from casino.database_thread import database_sync_to_async


@pytest.fixture
def steps(monkeypatch):
    """What ran on the database thread, in order: each check of the connections and each call."""
    happened: list[str] = []
    check = database_thread.close_old_connections

    def checked() -> None:
        happened.append("check")
        check()  # as ever: a connection this test opened goes back, whatever its teardown's order

    monkeypatch.setattr(database_thread, "close_old_connections", checked)
    return happened


@pytest.fixture(params=["channels' thread", "the tables' one thread", "a table's own thread"])
def hop(request, settings):
    """How a call gets to its database thread: Channels' way, or a table's (one thread for all, or one of several)."""
    if request.param == "channels' thread":
        return database_sync_to_async
    settings.DATABASE_THREADS = 1 if request.param == "the tables' one thread" else 2
    return lambda function: database_thread.for_table(7, function)


def call(hop, steps: list[str], name: str, fail: bool = False):
    def run() -> str:
        steps.append(name)
        if fail:
            raise RuntimeError(name)
        return name

    return hop(run)()


@pytest.fixture
def busy(monkeypatch):
    """The thread's calls come in quick succession, and it checked just now."""
    monkeypatch.setattr(database_thread, "IDLE_SECONDS", 3600)
    monkeypatch.setattr(database_thread, "KEEP_SECONDS", 3600)


@pytest.mark.asyncio
async def test_it_checks_nothing_between_calls_in_quick_succession(hop, steps, busy):
    await call(hop, steps, "first")
    steps.clear()

    assert await call(hop, steps, "second") == "second"
    assert await call(hop, steps, "third") == "third"

    assert steps == ["second", "third"]


@pytest.mark.parametrize(
    ("limit", "expected"),
    [
        ("IDLE_SECONDS", ["first", "check", "later"]),  # after an idle spell: checked before the call
        ("KEEP_SECONDS", ["first", "later", "check"]),  # after a minute of calls: checked after one
    ],
)
@pytest.mark.asyncio
async def test_a_spell_past_its_limit_has_the_connections_checked(hop, steps, busy, monkeypatch, limit, expected):
    await call(hop, steps, "first")
    monkeypatch.setattr(database_thread, limit, 0)

    await call(hop, steps, "later")

    assert steps[-3:] == expected


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_call_that_met_a_database_error_is_checked_after(hop, steps, busy):
    def broken() -> None:
        steps.append("broken")
        with pytest.raises(DatabaseError), connection.cursor() as cursor:
            cursor.execute("SELECT * FROM no_such_table")  # Django marks the connection: errors occurred

    await call(hop, steps, "first")
    await hop(broken)()

    assert steps[-3:] == ["first", "broken", "check"]


@pytest.mark.asyncio
async def test_a_call_that_failed_without_touching_the_database_keeps_the_connection(hop, steps, busy):
    await call(hop, steps, "first")

    with pytest.raises(RuntimeError, match="refused"):
        await call(hop, steps, "refused", fail=True)
    await call(hop, steps, "next")

    assert steps[-3:] == ["first", "refused", "next"]


@pytest.mark.asyncio
async def test_hand_back_checks_now_and_the_next_call_before_it_runs(hop, steps, busy):
    await call(hop, steps, "first")

    database_thread.hand_back()
    handed_back = steps[steps.index("first") + 1 :]
    await call(hop, steps, "next")

    assert handed_back and set(handed_back) == {"check"}  # Channels' thread's, and each table thread's
    assert steps[-2:] == ["check", "next"]  # as after an idle spell


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_on_postgresql_calls_in_quick_succession_take_one_connection_from_the_pool(busy):
    if connection.vendor != "postgresql" or connection.pool is None:
        pytest.skip("PostgreSQL's pool only")
    from tables.models import Table

    def count() -> int:
        return Table.objects.count()

    await database_sync_to_async(count)()  # the thread holds a connection now
    requests = connection.pool.get_stats().get("requests_num", 0)

    for _ in range(5):
        await database_sync_to_async(count)()

    # Before, each call gave its connection back and the next took one (checked: a round trip).
    assert connection.pool.get_stats().get("requests_num", 0) == requests
    available = connection.pool.get_stats()["pool_available"]
    database_thread.hand_back()
    assert connection.pool.get_stats()["pool_available"] == available + 1


# --- A table's own database thread (DATABASE_THREADS) ------------------------------------


@pytest.fixture(autouse=True)
def new_process(monkeypatch):
    """Each test a process that has served no table yet: the tables get their threads in turn from the first."""
    monkeypatch.setattr(database_thread, "_arrivals", {})


async def thread_of_call(table_id: int) -> threading.Thread:
    return await database_thread.for_table(table_id, threading.current_thread)()


@pytest.mark.asyncio
async def test_with_one_thread_every_table_plays_on_channels_thread(settings):
    settings.DATABASE_THREADS = 1
    channels_thread = await database_sync_to_async(threading.current_thread)()

    assert {await thread_of_call(1), await thread_of_call(2)} == {channels_thread}


@pytest.mark.asyncio
async def test_with_several_threads_each_table_keeps_to_one_of_them(settings):
    settings.DATABASE_THREADS = 3
    channels_thread = await database_sync_to_async(threading.current_thread)()

    first, other, again = [await thread_of_call(table) for table in (101, 102, 101)]

    assert first is again  # one table's changes come in order, on one thread
    assert other is not first
    assert channels_thread not in {first, other}


@pytest.mark.asyncio
async def test_the_tables_a_process_serves_share_all_its_threads_whatever_their_ids(settings):
    # An upstream routing by table may send one process only the even ids: with the thread
    # chosen by `id % 4`, those tables shared two of its four threads and the others stood idle.
    settings.DATABASE_THREADS = 4
    tables = range(202, 218, 2)

    threads = [await thread_of_call(table) for table in tables]

    assert len(set(threads)) == 4
    assert collections.Counter(threads).most_common(1)[0][1] == 2  # eight tables, two a thread
    assert [await thread_of_call(table) for table in tables] == threads  # and each keeps its own


@pytest.mark.asyncio
async def test_a_table_waiting_on_its_database_does_not_hold_up_another_tables_play(settings):
    settings.DATABASE_THREADS = 2
    release = threading.Event()

    def slow() -> str:
        release.wait(5)
        return "slow"

    waiting = asyncio.ensure_future(database_thread.for_table(1, slow)())
    try:
        # Table 2's play runs while table 1's still waits (with one thread it would wait behind it).
        assert await asyncio.wait_for(database_thread.for_table(2, lambda: "quick")(), 2) == "quick"
        assert not waiting.done()
    finally:
        release.set()
    assert await waiting == "slow"


def test_a_synchronous_caller_runs_a_tables_call_on_its_own_thread(settings, monkeypatch):
    settings.DATABASE_THREADS = 3
    # Which thread, not the connections' check: this test has no database, and on this (the
    # worker's main) thread the check met a connection an earlier test had left open.
    monkeypatch.setattr(database_thread, "close_old_connections", lambda: None)

    ran_on = async_to_sync(thread_of_call)(1)

    assert ran_on is threading.current_thread()  # as Channels' calls do: a test's database, its transaction


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.asyncio
async def test_a_tables_call_that_runs_async_code_runs_it_on_the_callers_loop(settings, threads):
    settings.DATABASE_THREADS = threads

    async def which_loop() -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    def call_back() -> asyncio.AbstractEventLoop:
        return async_to_sync(which_loop)()  # as a play hands a group_send to the loop when it has none of its own

    assert await database_thread.for_table(3, call_back)() is asyncio.get_running_loop()


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.asyncio
async def test_a_cancelled_caller_leaves_its_tables_call_to_finish_on_its_thread(settings, threads):
    settings.DATABASE_THREADS = threads
    started, release, finished = threading.Event(), threading.Event(), threading.Event()

    def play() -> None:
        started.set()
        release.wait(5)
        finished.set()

    waiting = asyncio.ensure_future(database_thread.for_table(3, play)())
    await asyncio.to_thread(started.wait, 5)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    release.set()

    await database_thread.for_table(3, lambda: None)()  # the next call on the thread runs after it
    assert finished.is_set()
