"""What opening a table's socket costs the server: CPU time per socket opened (and closed), in-process.

    .venv/bin/python benchmarks/connect_cost.py [--sockets 1000] [--profile out.prof]

On `make run`'s settings (benchmarks/play_cost.py's set-up: a scratch SQLite
database, the in-memory channel layer, uvloop where the checkout serves on
it), the five players of a five-seat table open sockets to it one after the
other, each signed in by its session cookie as a browser is, through the
real websocket application (Channels' communicators stand in for the
browsers), and take the whole table in their first frame; each player keeps
at most four open (under the per-player limit), closing the oldest. This is
what a page load or a reconnect costs, and what the load test's start is made
of: hundreds of sockets opening in its first seconds (docs/performance.md,
"Twenty-first check"). Prints one JSON object: the process's CPU per socket
(opening and closing it, the clients' thin part included), and each busy
thread's (the event loop's, Channels' database thread's). `--profile` writes
a cProfile of each of the two threads (`<file>`, `<file>.database`). A
benchmark, not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import play_cost  # noqa: E402 (this directory's: the set-up and the threads' clocks)

KEPT_OPEN = 4  # sockets a player keeps open at once (the limit is higher)
WARM_UP = 20


async def run(table_id: int, players: list, sockets: int, profile: str | None) -> dict:
    from channels.db import database_sync_to_async
    from channels.testing import WebsocketCommunicator

    cookies = [await database_sync_to_async(play_cost.session_cookie)(user) for user in players]

    async def opened(number: int) -> WebsocketCommunicator:
        communicator = play_cost.table_socket(table_id, cookies[number % len(cookies)])
        connected, _ = await communicator.connect(timeout=10)
        assert connected, "the table refused a socket"
        await communicator.receive_from(timeout=10)  # the whole table
        return communicator

    async def open_and_close(count: int) -> None:
        open_now: list[WebsocketCommunicator] = []
        for number in range(count):
            open_now.append(await opened(number))
            if len(open_now) >= KEPT_OPEN * len(players):
                await open_now.pop(0).disconnect()
        for communicator in open_now:
            await communicator.disconnect()

    await open_and_close(WARM_UP)  # templates compiled, statements built
    dump = play_cost.profile_database_thread() if profile else None
    profiler = cProfile.Profile() if profile else None
    before, cpu, wall = play_cost.thread_ticks(), time.process_time(), time.perf_counter()
    if profiler:
        profiler.enable()
    await open_and_close(sockets)
    if profiler:
        profiler.disable()
        profiler.dump_stats(profile)
        dump(profile + ".database")
    cpu, wall, after = time.process_time() - cpu, time.perf_counter() - wall, play_cost.thread_ticks()
    return {
        "sockets": sockets,
        "cpu_ms_per_socket": round(cpu * 1000 / sockets, 3),
        "wall_seconds": round(wall, 2),
        "thread_ms_per_socket": {
            name: round((ticks - before.get(name, 0)) * 1000 / play_cost.TICKS_PER_SECOND / sockets, 3)
            for name, ticks in after.items()
            if ticks > before.get(name, 0)
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--profile", help="write a cProfile of the event loop to this file, and of the database thread beside it")
    options = parser.parse_args()
    try:
        from casino.serve import use_uvloop
    except ImportError:  # a checkout from before it: asyncio's own loop
        pass
    else:
        use_uvloop()
    with tempfile.TemporaryDirectory() as scratch:
        table_id, players = play_cost.setup(Path(scratch) / "connect-cost.sqlite3")
        print(json.dumps(asyncio.run(run(table_id, players, options.sockets, options.profile))))


if __name__ == "__main__":
    main()
