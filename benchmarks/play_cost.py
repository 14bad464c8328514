"""What one play costs the server: CPU time and bytes sent, at a five-seat table with five viewers.

    .venv/bin/python benchmarks/play_cost.py [--plays 600] [--watchers 0] [--review-thread] [--profile out.prof]

In one process, on a scratch SQLite database and the in-memory channel layer
(the README's `make run` settings: uvloop's event loop where the checkout serves on it; as there, the coach's reviews are not this
process's work, `COACH_REVIEW_THREAD=false`, unless `--review-thread` puts
them on its thread, as a web process run without `make run` does): five players sit at an
`atlantic-city-multi` table and play rounds through the real websocket
application (Channels' communicators stand in for the browsers), each
pressing what its controls offer (Deal 1, No insurance, Stand). Every
viewer receives every frame it is sent. Prints one JSON object: the process's
CPU time per play (server and these thin clients together; the clients only
read a few fields of each frame, handed to them as the server sends it), bytes sent per play to all viewers
together (the frames' text), the same on the wire (each viewer's frames
deflated as daphne's permessage-deflate sends them, casino/compression.py: one
zlib stream per connection, its level, window and memory level, plus each frame's
header; the compressing is counted in the CPU time, as the server does it;
a checkout from before casino/compression.py sent its frames as they are),
frames per play, the wall time and each busy thread's CPU per play (the
event loop's, Channels' database thread's). `--profile` writes a cProfile
of the run's event loop, and one of its database thread beside it (`<file>.database`). A benchmark, not a test: the figures depend on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import re
import sys
import tempfile
import time
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

SEATS = 5
BET = "1"  # a thousand chips each last the run
# The play a viewer makes when its controls offer it, in order of preference.
PLAYS = ("bet", "no_insurance", "stand")
BUTTON = re.compile(r'name="action" value="(\w+)"')
CONTROLS, END_CONTROLS = '<section id="controls"', "</section>"  # the viewer's buttons
FIELD = re.compile(r'name="(seat|hand|version)" value="(\d+)"')
VERSION = 'id="version" data-version="'  # the version a frame brings the page to


def configure(database_url: str, review_thread: bool = False) -> None:
    """Django on `make run`'s settings, on this database and the in-memory channel layer."""
    os.environ.update(
        {
            "COACH_REVIEW_THREAD": "true" if review_thread else "false",
            "DATABASE_URL": database_url,
            "DEBUG": "false",
            "SECRET_KEY": "play-cost-benchmark-" + "x" * 40,
            "ALLOWED_HOSTS": "localhost",
            "LOG_LEVEL": "WARNING",
        }
    )
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    import django

    django.setup()


def setup(database: Path, review_thread: bool = False, serial: bool = False) -> tuple[int, list]:
    configure(f"sqlite:///{database}", review_thread)
    if serial:
        seeded_shoes()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from accounts.services import create_player
    from tables.models import RuleProfile, Table
    from tables.play import services

    table = Table.objects.create(
        name="Play cost", profile=RuleProfile.ATLANTIC_CITY_MULTI, seat_count=SEATS, min_bet=1, max_bet=100,
        pause_seconds=0, betting_seconds=600, insurance_seconds=600, decision_seconds=600,
    )
    players = [create_player(f"player{n}", None) for n in range(1, SEATS + 1)]
    for number, player in enumerate(players, start=1):
        services.do_sit(table.pk, player, number, 1000)
    return table.pk, players


class Viewer:
    def __init__(self, communicator) -> None:
        self.communicator = communicator
        self.controls = ""  # the last controls this viewer was sent
        self.answered = ""  # the controls it last acted on
        self.bytes = 0
        self.wire = 0
        self.frames = 0
        self.version = 0  # the newest version this viewer was shown (the frames' marker)
        try:
            from casino import compression
        except ImportError:  # a checkout from before compressed frames (benchmarks/other_checkout.py)
            self.deflate = None
        else:  # at the server's level: zlib's default before it had one
            level = getattr(compression, "LEVEL", zlib.Z_DEFAULT_COMPRESSION)
            self.deflate = zlib.compressobj(level, zlib.DEFLATED, -compression.WINDOW_BITS, compression.MEM_LEVEL)

    def take(self, frame: str) -> None:
        data = frame.encode()
        self.bytes += len(data)
        self.frames += 1
        # As autobahn sends it: the stream flushed at the frame's end, less zlib's 4-byte tail, plus the header.
        if self.deflate is None:
            payload = len(data)
        else:
            payload = len(self.deflate.compress(data) + self.deflate.flush(zlib.Z_SYNC_FLUSH)) - 4
        self.wire += payload + (2 if payload < 126 else 4 if payload < 65536 else 10)
        start = frame.find(CONTROLS)  # not a regular expression's search: the clients' work is not the server's
        if start >= 0:
            self.controls = frame[start : frame.index(END_CONTROLS, start) + len(END_CONTROLS)]
        marker = frame.rfind(VERSION)
        if marker >= 0:
            self.version = int(frame[marker + len(VERSION) : frame.index('"', marker + len(VERSION))])

    def next_play(self) -> dict | None:
        if self.controls == self.answered:
            return None
        offered = BUTTON.findall(self.controls)
        play = next((name for name in PLAYS if name in offered), None)
        if play is None:
            return None
        self.answered = self.controls
        fields = dict(FIELD.findall(self.controls))
        message = {"action": play, "seat": fields["seat"], "hand": fields.get("hand", "0"),
                   "version": fields["version"], "HEADERS": {"HX-Request": "true"}}
        if play == "bet":
            message["amount"] = BET
        return message


class Frames(asyncio.Queue):
    """A communicator's output: frames go straight to their viewer; the rest (accept, close) queue as usual.

    So the clients cost next to nothing: no task per viewer per wait, as
    reading each communicator's queue would take.
    """

    def __init__(self, viewer: Viewer, arrived: asyncio.Event) -> None:
        super().__init__()
        self.viewer, self.arrived = viewer, arrived

    async def put(self, message: dict) -> None:
        if message.get("type") == "websocket.send":
            self.viewer.take(message.get("text") or "")
            self.arrived.set()
            return
        await super().put(message)


def send(communicator, message: dict) -> None:
    """What the browser sends, straight to the application's input (as the frames come straight out).

    Not `send_json_to`: Channels' test communicator patches a function of
    `channels.db` around every message it sends (this project's consumers use
    casino/database_thread.py instead), which cost the clients more than the
    message itself.
    """
    communicator.input_queue.put_nowait({"type": "websocket.receive", "text": json.dumps(message)})


def seeded_shoes() -> None:
    """The table's next shoes from fixed seeds: the same cards, so the same plays, in every run."""
    import hashlib

    from tables.engine import CardShoe
    from tables.fairness import shoes

    made = iter(range(1_000_000))
    shoes.shoe_source = lambda rules: CardShoe.from_seed(hashlib.sha256(b"play-cost %d" % next(made)).digest(), rules.decks)


async def shown(actor: Viewer, viewers: list[Viewer], arrived: asyncio.Event) -> None:
    """Until the play `actor` just sent is answered and every viewer has been shown the version it made.

    Then no two plays share a frame, whatever the machine's speed: a run makes
    the same frames every time, and so does the same work (`--serial`). Every
    version changes something every viewer sees (its log line at least), so
    each viewer's frames reach it; read from the frames alone, as any
    checkout sends them.
    """
    before = actor.version
    try:
        async with asyncio.timeout(5):  # a version someone is never shown: go on after all
            while not (actor.version > before and all(viewer.version >= actor.version for viewer in viewers)):
                arrived.clear()
                await arrived.wait()  # a frame came (no frame comes between the check and here)
    except TimeoutError:
        pass


async def drain(arrived: asyncio.Event, wait: float) -> None:
    """Let frames arrive until none has for `wait` seconds."""
    while True:
        arrived.clear()
        try:
            async with asyncio.timeout(wait):  # no task per wait, as wait_for would make
                await arrived.wait()
        except TimeoutError:
            return


def session_cookie(user) -> str:
    """The session cookie of a browser signed in as `user` (on a database thread: it writes the session)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def table_socket(table_id: int, cookie: str | None):
    """A socket to the table through the real websocket application, as a browser (signed in by `cookie`) opens it."""
    from channels.testing import WebsocketCommunicator

    from casino.asgi import application

    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if cookie is not None:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    return WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)


async def run(table_id: int, players: list, plays: int, watchers: int, serial: bool = False) -> dict:
    from channels.db import database_sync_to_async

    viewers = []
    arrived = asyncio.Event()
    for user in [*players, *([None] * watchers)]:
        cookie = await database_sync_to_async(session_cookie)(user) if user is not None else None
        communicator = table_socket(table_id, cookie)
        viewer = Viewer(communicator)
        communicator._output_queue = Frames(viewer, arrived)  # before the application starts
        connected, _ = await communicator.connect(timeout=10)
        assert connected, "the table refused a viewer"
        viewers.append(viewer)
    await drain(arrived, 0.5)
    for viewer in viewers:  # the connect frames are not plays
        viewer.bytes = viewer.frames = viewer.wire = 0

    made = 0
    threads_before = thread_ticks()
    cpu, wall = time.process_time(), time.perf_counter()
    while made < plays:
        sent = False
        for viewer in viewers[:SEATS]:
            message = viewer.next_play()
            if message is not None:
                send(viewer.communicator, message)
                made += 1
                sent = True
                if serial:
                    await shown(viewer, viewers, arrived)
        await drain(arrived, 0.005 if sent else 0.05)
    await drain(arrived, 0.3)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    threads = thread_ticks()
    for viewer in viewers:
        await viewer.communicator.disconnect()
    sent_bytes = sum(viewer.bytes for viewer in viewers)
    frames = sum(viewer.frames for viewer in viewers)
    return {
        "plays": made,
        "viewers": len(viewers),
        "cpu_ms_per_play": round(cpu * 1000 / made, 3),
        "bytes_per_play": round(sent_bytes / made),
        "wire_bytes_per_play": round(sum(viewer.wire for viewer in viewers) / made),
        "frames_per_play": round(frames / made, 2),
        "bytes_per_frame": round(sent_bytes / max(frames, 1)),
        "wall_seconds": round(wall, 2),
        # CPU per play of each thread that had any (Linux): the event loop and Channels' database thread.
        "thread_ms_per_play": {
            name: round((ticks - threads_before.get(name, 0)) * 1000 / TICKS_PER_SECOND / made, 2)
            for name, ticks in threads.items()
            if ticks > threads_before.get(name, 0)
        },
    }


TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def thread_ticks() -> dict[str, int]:
    """Each thread's CPU time so far, in clock ticks, by "name:id" (empty where /proc is missing)."""
    found = {}
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/self/task/{task}/stat") as stat, open(f"/proc/self/task/{task}/comm") as comm:
                fields = stat.read().rsplit(")", 1)[1].split()
                found[f"{comm.read().strip()}:{task}"] = int(fields[11]) + int(fields[12])  # utime + stime
        except OSError:
            continue  # a thread that ended meanwhile
    return found


def profile_database_thread():
    """Profile Channels' database thread (the plays' own work) too; returns what writes its cProfile to a file.

    cProfile sees one thread only: the event loop's is profiled by `--profile`
    itself, the database thread's is started and stopped on that thread.
    """
    from asgiref.sync import SyncToAsync

    executor = SyncToAsync.single_thread_executor
    profiler = cProfile.Profile()
    executor.submit(profiler.enable).result()

    def dump(path: str) -> None:
        executor.submit(profiler.disable).result()
        profiler.dump_stats(path)

    return dump


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=600)
    parser.add_argument("--watchers", type=int, default=0, help="viewers who only watch, besides the five players")
    parser.add_argument("--review-thread", action="store_true",
                        help="review settled rounds on this process's thread (make run gives them a process of their own)")
    parser.add_argument("--profile", help="write a cProfile of the run to this file")
    parser.add_argument("--serial", action="store_true",
                        help="one play at a time, each shown to every viewer before the next: the same frames every "
                             "run (bets too are made one by one), so instruction counts compare between checkouts")
    options = parser.parse_args()
    try:
        from casino.serve import use_uvloop  # as `make run` serves: on uvloop's event loop
    except ImportError:  # a checkout from before it (benchmarks/other_checkout.py): asyncio's own
        pass
    else:
        use_uvloop()
    with tempfile.TemporaryDirectory() as scratch:
        table_id, players = setup(Path(scratch) / "play-cost.sqlite3", options.review_thread, options.serial)
        profiler = cProfile.Profile() if options.profile else None
        if profiler:
            database_profiler = profile_database_thread()
            profiler.enable()
        result = asyncio.run(run(table_id, players, options.plays, options.watchers, options.serial))
        if profiler:
            profiler.disable()
            profiler.dump_stats(options.profile)
            database_profiler(options.profile + ".database")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
