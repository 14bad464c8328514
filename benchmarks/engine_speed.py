"""Rounds per second of the engine under basic strategy, in one process: the GameRound and the fast path.

    .venv/bin/python benchmarks/engine_speed.py [--profile atlantic-city] [--rounds 200000] [--seats 1]
        [--engine both|round|fast]

``round`` plays through ``tables.engine.simulate.play_rounds``: the same GameRound
class the tables use, a fresh seeded shoe per round where the profile says so.
``fast`` plays the same rounds from the same shoes through
``tables.engine.fastsim.play_rounds_fast`` (tests/engine/test_fastsim.py holds
it to GameRound round by round). ``both`` (the default) measures the two in one
run and checks that they agree. Prints one JSON object: rounds per second of
wall-clock time and of this process's CPU time (the two differ when other
processes share the cores). A benchmark, not a test: figures depend on the
machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tables.engine.fastsim import play_rounds_fast  # noqa: E402
from tables.engine.rules import PROFILES  # noqa: E402
from tables.engine.simulate import parse_seed, play_rounds  # noqa: E402

ENGINES = {"round": play_rounds, "fast": play_rounds_fast}


def best_rate(play, rules, rounds: int, seats: int, repeat: int) -> tuple[int, int, tuple[int, int, int]]:
    """Best of ``repeat`` runs: rounds per wall-clock second and per CPU second of this process."""
    best = best_cpu = float("inf")
    result = None
    for run in range(repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        result = play(rules, rounds, seats, parse_seed(f"benchmark-{run}"))
        best = min(best, time.perf_counter() - started)
        best_cpu = min(best_cpu, time.process_time() - started_cpu)
    return round(rounds / best), round(rounds / best_cpu), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", default="atlantic-city", choices=sorted(PROFILES))
    parser.add_argument("--rounds", type=int, default=200_000)
    parser.add_argument("--seats", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    parser.add_argument("--engine", choices=("both", *ENGINES), default="both")
    args = parser.parse_args()
    rules = PROFILES[args.profile]
    figures = {"profile": args.profile, "seats": args.seats, "rounds": args.rounds}
    results = {}
    for name in ENGINES if args.engine == "both" else (args.engine,):
        rate, cpu_rate, results[name] = best_rate(ENGINES[name], rules, args.rounds, args.seats, args.repeat)
        prefix = "" if args.engine != "both" else f"{name}_"
        figures[f"{prefix}rounds_per_second"] = rate
        # On a shared machine the wall clock also counts the time other processes ran.
        figures[f"{prefix}rounds_per_cpu_second"] = cpu_rate
    if args.engine == "both":
        figures["speedup"] = round(figures["fast_rounds_per_second"] / figures["round_rounds_per_second"], 2)
        figures["same_results"] = results["fast"] == results["round"]
    figures["python"] = sys.version.split()[0]
    figures["load_average"] = round(os.getloadavg()[0], 2)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
