"""Time one action's round trip at a live table: the click goes out, the table's new frame comes back.

    .venv/bin/python benchmarks/action_roundtrip.py [--actions 1000]

Starts its own daphne on a scratch SQLite database (or on DATABASE_URL /
REDIS_URL when set), signs a player in, sits at a solo table and plays
rounds over a real websocket until --actions actions are measured. Each
measurement runs from sending the action to receiving the first frame of a
newer version. Prints one JSON object. A benchmark, not a test: the figures
depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def prepare(env: dict[str, str]) -> tuple[int, str]:
    """Migrate, then make a player and a solo table; returns (table id, session cookie)."""
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=REPO, env=env, check=True)
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    import django

    django.setup()
    from django.test import Client

    from accounts.models import User
    from accounts.services import create_player
    from tables.models import RuleProfile, Table

    user = User.objects.filter(username="bench").first() or create_player("bench", None)
    table, _ = Table.objects.get_or_create(
        name="Benchmark table",
        defaults={
            "profile": RuleProfile.ATLANTIC_CITY,
            "seat_count": 1,
            "max_bet": 100,
            "owner": user,
            "pause_seconds": 0,
        },
    )
    client = Client()
    client.force_login(user)
    return table.pk, client.cookies["sessionid"].value


def controls(frame: str) -> list[str]:
    section = re.search(r'<section id="controls".*?</section>', frame, re.S)
    return re.findall(r'name="action" value="(\w+)"', section.group(0)) if section else []


def version_of(frame: str) -> int:
    match = re.search(r'name="version" value="(\d+)"', frame)
    return int(match.group(1)) if match else -1


async def play(url: str, origin: str, cookie: str, actions: int) -> list[float]:
    import websockets

    timings: list[float] = []
    headers = {"Origin": origin, "Cookie": f"sessionid={cookie}"}
    async with websockets.connect(url, additional_headers=headers, max_size=2**22) as ws:
        frame = await ws.recv()
        while len(timings) < actions:
            buttons = set(controls(frame)) | ({"sit"} if 'value="sit"' in frame else set())
            if "sit" in buttons:
                message = {"action": "sit", "seat": "1", "buy_in": "1000"}
            elif "bet" in buttons:
                message = {"action": "bet", "seat": "1", "amount": "10"}
            elif "no_insurance" in buttons:
                message = {"action": "no_insurance", "seat": "1"}
            elif "stand" in buttons:
                message = {"action": "stand", "seat": "1"}
            else:
                frame = await ws.recv()  # between rounds: wait for the next window
                continue
            sent = version_of(frame)
            message.update({"version": str(sent), "hand": "0"})
            started = time.perf_counter()
            await ws.send(json.dumps(message))
            while True:
                frame = await ws.recv()
                if version_of(frame) > sent or 'class="notice shown"' in frame:
                    break
            timings.append((time.perf_counter() - started) * 1000)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=1000)
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="casino-bench-")
    env = {**os.environ, "DEBUG": "false", "SECRET_KEY": "benchmark-" + "x" * 50, "SECURE_SSL_REDIRECT": "false"}
    env.setdefault("DATABASE_URL", f"sqlite:///{scratch}/bench.sqlite3")
    env["LOG_LEVEL"] = "WARNING"
    table_id, cookie = prepare(env)
    port = free_port()
    env["ALLOWED_HOSTS"] = "127.0.0.1"
    daphne = subprocess.Popen(
        [str(Path(sys.executable).parent / "daphne"), "-b", "127.0.0.1", "-p", str(port), "casino.asgi:application"],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}/"
        started = time.perf_counter()
        timings = asyncio.run(play(url, f"http://127.0.0.1:{port}", cookie, args.actions))
        elapsed = time.perf_counter() - started
    finally:
        daphne.terminate()
        daphne.wait(timeout=10)
    timings.sort()

    def pct(p: float) -> float:
        return round(timings[min(len(timings) - 1, int(p / 100 * len(timings)))], 2)

    print(json.dumps({
        "actions": len(timings),
        "database": env["DATABASE_URL"].split(":")[0],
        "mean_ms": round(statistics.fmean(timings), 2),
        "p50_ms": pct(50),
        "p95_ms": pct(95),
        "p99_ms": pct(99),
        "wall_seconds": round(elapsed, 1),
    }))


if __name__ == "__main__":
    main()
