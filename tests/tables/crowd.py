"""A crowd at a live server's tables, in a process of its own, for a test to kill with SIGKILL.

    python -m tests.tables.crowd '{"url": "http://127.0.0.1:8000", "think_ms": 30,
                                   "players": {"<table id>": ["<session cookie>", ...]}, "watchers": 8}'

Players are the load test's bots (`tables.loadtest.bots.GameBot`): each sits
at its table, bets the minimum and plays basic strategy for as long as the
process lives. Watchers (anonymous) open each table and read every frame.
Killed, the process takes every socket down at once with no close
handshake, as a load test cut short or a crowd's network going away does.

Each socket prints one line when its first frame arrives (`playing <table>`,
`watching <table>`), so the test knows when the whole crowd is there.
"""

from __future__ import annotations

import asyncio
import json
import math
import sys

import websockets

from tables.loadtest.bots import Clock, GameBot, ws_url
from tables.loadtest.stats import Stats

PROFILE = "atlantic-city-multi"


def announce(line: str) -> None:
    print(line, flush=True)


class Player(GameBot):
    """A load-test bot that says when its first frame arrives."""

    announced = False

    async def receive(self, ws, timeout: float):
        raw, received = await super().receive(ws, timeout)
        if raw is not None and not self.announced:
            self.announced = True
            announce(f"playing {self.table_id}")
        return raw, received


async def watch(url: str, table_id: int) -> None:
    async with websockets.connect(
        ws_url(url, f"/ws/tables/{table_id}/"), additional_headers={"Origin": url}, ping_interval=None, max_size=2**22
    ) as ws:
        await ws.recv()
        announce(f"watching {table_id}")
        async for _frame in ws:
            pass


async def main(plan: dict) -> None:
    url = plan["url"]
    clock = Clock(stop=math.inf, hard_stop=math.inf)  # until killed
    stats = Stats()
    crowd = []
    number = 0
    for table, cookies in plan["players"].items():
        for seat, cookie in enumerate(cookies, start=1):
            player = Player(number, url, stats, clock, cookie=cookie, table_id=int(table), seat=seat, profile=PROFILE,
                            think_ms=plan["think_ms"], reply_timeout=10.0)  # fmt: skip
            crowd.append(player.run())
            number += 1
        crowd.extend(watch(url, int(table)) for _ in range(plan["watchers"]))
    await asyncio.gather(*crowd)


if __name__ == "__main__":
    asyncio.run(main(json.loads(sys.argv[1])))
