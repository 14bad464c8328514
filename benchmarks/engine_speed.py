"""Rounds per second of the engine under basic strategy, in one process.

    .venv/bin/python benchmarks/engine_speed.py [--profile atlantic-city] [--rounds 200000] [--seats 1]

Plays through ``tables.engine.simulate.play_rounds``: the same Round class the
tables use, a fresh seeded shoe per round where the profile says so. Prints one
JSON object. (A benchmark, not a test: figures depend on the machine.)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tables.engine.rules import PROFILES  # noqa: E402
from tables.engine.simulate import parse_seed, play_rounds  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="atlantic-city", choices=sorted(PROFILES))
    parser.add_argument("--rounds", type=int, default=200_000)
    parser.add_argument("--seats", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    args = parser.parse_args()
    rules = PROFILES[args.profile]
    best = float("inf")
    for run in range(args.repeat):
        started = time.perf_counter()
        play_rounds(rules, args.rounds, args.seats, parse_seed(f"benchmark-{run}"))
        best = min(best, time.perf_counter() - started)
    print(json.dumps({
        "profile": args.profile,
        "seats": args.seats,
        "rounds": args.rounds,
        "rounds_per_second": round(args.rounds / best),
        "python": sys.version.split()[0],
    }))


if __name__ == "__main__":
    main()
