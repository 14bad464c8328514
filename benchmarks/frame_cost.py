"""What the viewers' frames cost alone, replayed from a recording: the same frames every run, no database, no sockets.

    .venv/bin/python benchmarks/frame_cost.py record frames.pickle [--plays 600]
    .venv/bin/python benchmarks/frame_cost.py replay frames.pickle [--times 9] [--profile out.prof]
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        .venv/bin/python benchmarks/frame_cost.py replay frames.pickle --times 0   # and --times 2: the difference is two replays

`record` runs benchmarks/play_cost.py's table (five players, five viewers,
in-process) and keeps every version of the table the process rendered and
every frame it made for a viewer (`tables.live.pieces.frame_for`), in order.
`replay` makes those frames again from the kept versions, with nothing
cached (fresh `Rendered` versions, fresh `Sent` connections, as the run
made them), and prints one JSON object: the frames, their bytes, the CPU
time per frame of each replay (its least and its median), and a digest of
every frame's text. A change to the frames' code that keeps the digest
sends the very same bytes; its time tells what it saved.

On a shared machine a run's CPU time varies by a third from minute to
minute (docs/performance.md); under valgrind's callgrind the instructions
a replay takes do not: run `replay --times 0` and `--times 2` (each also
makes the frames once for the digest) and halve the difference. A
recording holds this checkout's classes (the table's versions as
tables.live.state made them): replay it with the checkout that recorded it
or one whose state classes are the same. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import hashlib
import json
import pickle
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))


def record(path: Path, plays: int) -> dict:
    """Run play_cost's table and keep each rendered version and each frame made for a viewer."""
    import play_cost

    # ("version", index, state, previous index)
    # | ("frame", version index, viewer, bankroll, notice, connection, keywords: the top bar's at_tables)
    steps: list[tuple] = []
    with tempfile.TemporaryDirectory() as scratch:
        table_id, players = play_cost.setup(Path(scratch) / "frame-cost.sqlite3")
        from tables.live import consumers, frames
        from tables.live.consumers import resolved  # the User behind a lazy scope["user"], as frame_for reads it

        versions: dict[int, int] = {}  # id of a Rendered (each kept alive below) -> its index
        alive: list[object] = []
        connections: dict[int, int] = {}
        make_version, make_frame = frames.Rendered.__init__, consumers.frame_for

        def version(self, state, previous=None) -> None:
            make_version(self, state, previous)
            alive.append(self)
            versions[id(self)] = len(versions)
            steps.append(("version", versions[id(self)], state, versions.get(id(previous))))

        def frame(table, viewer, bankroll, notice, sent, **keywords):
            alive.append(sent)
            connection = connections.setdefault(id(sent), len(connections))
            steps.append(("frame", versions.get(id(table)), resolved(viewer), bankroll, notice, connection, keywords))
            return make_frame(table, viewer, bankroll, notice, sent, **keywords)

        frames.Rendered.__init__, consumers.frame_for = version, frame
        try:
            played = asyncio.run(play_cost.run(table_id, players, plays, 0))
        finally:
            frames.Rendered.__init__, consumers.frame_for = make_version, make_frame
    with path.open("wb") as out:
        pickle.dump(steps, out, protocol=pickle.HIGHEST_PROTOCOL)
    return {"plays": played["plays"], "versions": len(versions), "frames": sum(step[0] == "frame" for step in steps),
            "file": str(path), "bytes": path.stat().st_size}


def replay(path: Path, times: int, profile: str | None) -> dict:
    import play_cost

    play_cost.configure("sqlite:///:memory:")  # never opened: the frames read nothing
    from tables.live import pieces
    from tables.live.frames import Rendered

    try:
        from tables.live import parts  # the seats' parts, split out of pieces
    except ImportError:
        caching = [pieces]
    else:
        caching = [pieces, parts]

    with path.open("rb") as stored:
        steps = pickle.load(stored)

    def once(digest=None) -> tuple[float, int, int]:
        """Every frame made again from nothing cached: its CPU seconds, frames and bytes."""
        for module in caching:  # the pieces' own caches, wherever the checkout has them
            for name in ("_split_cache", "_changes"):
                getattr(module, name, {}).clear()
            for name in ("_split", "changed_parts"):
                getattr(getattr(module, name, None), "cache_clear", lambda: None)()
        versions: dict[int, Rendered] = {}
        connections: dict[int, pieces.Sent] = {}
        spent, made, sent_bytes = 0.0, 0, 0
        for step in steps:
            if step[0] == "version":
                _, index, state, previous = step
                versions[index] = Rendered(state, versions.get(previous))
                continue
            # A recording from before the top bar's chips at the tables has no keywords.
            _, index, viewer, bankroll, notice, connection, *keywords = step
            if index not in versions:
                continue  # a version rendered before the recording began
            sent = connections.setdefault(connection, pieces.Sent())
            started = time.thread_time()
            html = pieces.frame_for(versions[index], viewer, bankroll, notice, sent, **(keywords[0] if keywords else {}))
            spent += time.thread_time() - started
            made += 1
            text = html.encode()
            sent_bytes += len(text)
            if digest is not None:
                digest.update(text + b"\0")
        return spent, made, sent_bytes

    digest = hashlib.sha256()
    _, made, sent_bytes = once(digest)
    profiler = cProfile.Profile() if profile else None
    if profiler:
        profiler.enable()
    spent = [once()[0] for _ in range(times)]
    if profiler:
        profiler.disable()
        profiler.dump_stats(profile)
    per_frame = [seconds * 1e6 / max(made, 1) for seconds in spent]
    return {
        "frames": made,
        "bytes_per_frame": round(sent_bytes / max(made, 1)),
        "digest": digest.hexdigest()[:16],
        "cpu_us_per_frame": {"least": round(min(per_frame), 1), "median": round(statistics.median(per_frame), 1)}
        if per_frame
        else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    recording = commands.add_parser("record", help="run play_cost's table and keep its versions and frames")
    recording.add_argument("file", type=Path)
    recording.add_argument("--plays", type=int, default=600)
    replaying = commands.add_parser("replay", help="make the recorded frames again, timed")
    replaying.add_argument("file", type=Path)
    replaying.add_argument("--times", type=int, default=9, help="timed replays, after the one that takes the digest")
    replaying.add_argument("--profile", help="write a cProfile of the timed replays to this file")
    options = parser.parse_args()
    if options.command == "record":
        result = record(options.file, options.plays)
    else:
        result = replay(options.file, options.times, options.profile)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
