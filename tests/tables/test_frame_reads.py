"""frames.read: viewers of a table share one read of a new version, and no interleaving can spin the loop.

Issue 16: a finished read left in `frames._reading` made `read()` await a
done future (which never yields) in a `while` loop, freezing the process.
These tests stand in for the database read with a fake `rendered` that
takes a little time on a thread, so they can run thousands of interleavings
quickly; `holds` is counted, and a read that spins is stopped by the count
instead of hanging the test run.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from types import SimpleNamespace

import pytest

from tables.live import frames

pytestmark = pytest.mark.asyncio

TABLE = 7
# A correct read() asks `holds` a handful of times per wait; a spinning one asks forever.
SPIN_LIMIT = 10_000


class Spinning(AssertionError):
    pass


class FakeTable:
    """The newest version in "the database", and a `rendered` that reads it slowly, as a thread would."""

    def __init__(self, version: int, delay: float = 0.0, seed: int = 0) -> None:
        self.version = version
        self.delay = delay
        self.random = random.Random(seed)
        self.reads = 0
        self.lock = threading.Lock()

    def rendered(self, table_id: int, version: int | None = None) -> SimpleNamespace:
        with self.lock:
            self.reads += 1
            pause = self.random.uniform(0, self.delay)
        time.sleep(pause)
        fresh = SimpleNamespace(version=self.version)
        with frames._latest_lock:
            current = frames._latest.get(table_id)
            if current is None or current.version < fresh.version:
                frames._latest[table_id] = fresh
        return fresh


@pytest.fixture
def fake(monkeypatch):
    """A table at version 5 that this process holds; `holds` stops a spin with a failure instead of a hang."""
    frames.forget()
    table = FakeTable(version=5)
    monkeypatch.setattr(frames, "rendered", table.rendered)
    calls = {"n": 0}
    real_holds = frames.holds

    def counted_holds(table_id: int, version: int) -> bool:
        calls["n"] += 1
        if calls["n"] > SPIN_LIMIT:
            raise Spinning(f"read() asked holds() {SPIN_LIMIT} times: it spins")
        return real_holds(table_id, version)

    monkeypatch.setattr(frames, "holds", counted_holds)
    frames._latest[TABLE] = SimpleNamespace(version=5)
    table.holds_calls = calls
    yield table
    frames.forget()


async def finished_read(version: int) -> asyncio.Future:
    """A read of `version` that has completed, as its starter left it before resuming."""
    done = asyncio.get_running_loop().create_future()
    done.set_result(SimpleNamespace(version=version))
    return done


async def test_it_reads_anew_when_the_read_in_flight_already_finished_with_an_older_version(fake):
    frames._reading[TABLE] = await finished_read(5)
    fake.version = 6

    await asyncio.wait_for(frames.read(TABLE, 6), timeout=1)

    assert frames.holds(TABLE, 6)
    assert fake.reads == 1
    assert fake.holds_calls["n"] < 10


async def test_a_finished_read_takes_itself_out_of_the_reads_in_flight(fake):
    fake.version = 6

    # The starter is cancelled (its viewer left) while the read is on the thread.
    starter = asyncio.ensure_future(frames.read(TABLE, 6))
    await asyncio.sleep(0)
    assert TABLE in frames._reading
    starter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await starter
    for _ in range(100):
        if TABLE not in frames._reading:
            break
        await asyncio.sleep(0.01)

    assert TABLE not in frames._reading
    assert frames.holds(TABLE, 6)  # the shielded read went on without its starter


async def test_viewers_told_of_one_version_wait_for_one_read(fake):
    fake.delay = 0.05
    fake.version = 6

    await asyncio.wait_for(asyncio.gather(*(frames.read(TABLE, 6) for _ in range(20))), timeout=2)

    assert fake.reads == 1


async def test_a_waiter_whose_read_failed_reads_for_itself(fake, monkeypatch):
    fake.version = 6
    failing = asyncio.get_running_loop().create_future()
    frames._reading[TABLE] = failing
    waiter = asyncio.ensure_future(frames.read(TABLE, 6))
    await asyncio.sleep(0)
    failing.set_exception(RuntimeError("the database went away"))

    await asyncio.wait_for(waiter, timeout=1)

    assert frames.holds(TABLE, 6)


async def test_many_readers_cancellations_and_newer_versions_all_finish(fake):
    """Viewers come and go while the table moves on: every read returns, none spins, the newest is held."""
    fake.delay = 0.004
    rng = random.Random(16)
    tasks: list[asyncio.Task] = []
    for step in range(400):
        roll = rng.random()
        if roll < 0.15:
            fake.version += 1  # a play committed
        elif roll < 0.25 and tasks:
            rng.choice(tasks).cancel()  # a viewer disconnects mid-read
        elif roll < 0.30:
            # The window of issue 16: a read that finished, left behind by a starter not yet resumed.
            frames._reading[TABLE] = await finished_read(fake.version - 1)
        tasks.append(asyncio.ensure_future(frames.read(TABLE, fake.version)))
        if step % 7 == 0:
            await asyncio.sleep(rng.uniform(0, 0.003))

    results = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), timeout=10)

    failures = [r for r in results if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError)]
    assert failures == []
    await asyncio.wait_for(frames.read(TABLE, fake.version), timeout=1)
    assert frames.holds(TABLE, fake.version)
    await asyncio.sleep(0.05)
    assert TABLE not in frames._reading  # nothing finished is left behind
