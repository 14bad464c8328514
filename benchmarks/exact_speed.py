"""Speed of the exact analyser: one decision with a cold cache, and a whole profile.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE .venv/bin/python benchmarks/exact_speed.py \
        [--profiles atlantic-city internet-6 internet-7 rocket-academy] [--edge]

For each profile, ``action_evs`` for a spread of hands (hard, soft, three-card
and every pair) against every up card, each with the caches cleared first
(``clear_caches``: the dealer distributions and hand tables; the dealer's
multiset tables, which do not depend on the shoe, are built once per process
and timed separately as ``first_call_ms``). Prints p50, p95 and the slowest.
With ``--edge``, also the seconds of ``analyse`` (what ``manage.py blackjack
edge`` runs: optimal and basic-strategy edges and standard deviations).
Prints one JSON object per profile. A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tables.engine.exact import action_evs, analyse, clear_caches  # noqa: E402
from tables.engine.rules import PROFILES  # noqa: E402

HANDS = [
    "T,6", "T,2", "9,3", "5,4", "6,5", "4,2", "T,5,A", "3,2,4",  # hard, three-card
    "A,2", "A,4", "A,6", "A,7", "A,8",  # soft
    "2,2", "3,3", "4,4", "5,5", "6,6", "7,7", "8,8", "9,9", "T,T", "A,A",  # pairs
]
UPS = "23456789TA"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", nargs="+", default=["atlantic-city", "internet-6", "internet-7",
                                                          "rocket-academy"], choices=sorted(PROFILES))
    parser.add_argument("--edge", action="store_true", help="also time the whole-game analysis")
    args = parser.parse_args()
    first = None
    for slug in args.profiles:
        rules = PROFILES[slug]
        timings = []
        slowest = ("", 0.0)
        for up in UPS:
            for hand in HANDS:
                clear_caches()
                started = time.perf_counter()
                action_evs(rules, None, hand.split(","), up)
                elapsed = 1000 * (time.perf_counter() - started)
                if first is None:
                    first = elapsed
                    continue  # builds the per-process dealer tables: reported on its own
                timings.append(elapsed)
                if elapsed > slowest[1]:
                    slowest = (f"{hand} v {up}", elapsed)
        figures = {
            "profile": slug,
            "decisions": len(timings),
            "ev_p50_ms": round(percentile(timings, 0.50), 1),
            "ev_p95_ms": round(percentile(timings, 0.95), 1),
            "ev_max_ms": round(slowest[1], 1),
            "slowest": slowest[0],
            "first_call_ms": round(first, 1),
        }
        if args.edge:
            clear_caches()
            started = time.perf_counter()
            game = analyse(rules)
            figures["edge_seconds"] = round(time.perf_counter() - started, 2)
            figures["house_edge_pct"] = round(100 * game.house_edge, 4)
            figures["basic_strategy_edge_pct"] = round(100 * game.basic_strategy_edge, 4)
        figures["load_average"] = round(os.getloadavg()[0], 2)
        print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
