"""What the coach costs: reviewing a settled round, and one hint, on real shoes.

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE .venv/bin/python benchmarks/coach_speed.py \
        [--profile internet-6] [--rounds 200] [--seats 5]

Plays ``--rounds`` rounds of basic strategy at ``--seats`` seats through the
tables' GameRound from one seeded shoe (reshuffled at the cut card), then
times what the site does with each: ``recorded_decisions`` and ``review`` of
every decision once the round is settled (tables/play/reviews.py, on the
review thread), and ``decision_now`` + ``price`` for each decision as the
round stood (tables/live/coach.py, on the coach thread). Prints one JSON
object: per round and per decision, p50 / p95 / slowest in milliseconds.
A benchmark, not a test.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tables.engine import CardShoe, GameRound, basic_strategy  # noqa: E402
from tables.engine.exact import clear_caches  # noqa: E402
from tables.engine.exact.coach import decision_now, price, recorded_decisions, review  # noqa: E402
from tables.engine.rules import PROFILES  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))] if ordered else 0.0


def figures(values: list[float]) -> dict[str, float]:
    return {"n": len(values), "p50_ms": round(percentile(values, 0.5), 1), "p95_ms": round(percentile(values, 0.95), 1),
            "max_ms": round(max(values, default=0.0), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", default="internet-6", choices=sorted(PROFILES))
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--seats", type=int, default=5)
    options = parser.parse_args()
    rules = PROFILES[options.profile]
    seats = {number: 10_000 for number in range(1, min(options.seats, rules.seats) + 1)}
    shoe = CardShoe.from_seed(bytes(range(32)), rules.decks)
    per_round, per_review, per_hint = [], [], []
    for _ in range(options.rounds):
        if shoe.needs_reshuffle(rules):
            shoe = CardShoe.from_seed(bytes([len(per_round) % 256]) * 32, rules.decks)
        game = GameRound.new(rules=rules, shoe=shoe, seats=seats, min_bet=1)
        for number in seats:
            game.bet(number, 10)
        while game.phase.value == "insurance":
            game.close_insurance()
        while game.to_act() is not None:
            seat, hand = game.to_act()
            clear_caches()
            started = time.perf_counter()
            price(rules, decision_now(game, seat, hand))
            per_hint.append(1000 * (time.perf_counter() - started))
            cards = game.seats[seat].hands[hand].cards
            game.act(basic_strategy(rules, cards, game.up_card, game.legal_actions(seat, hand)), seat=seat, hand=hand)
        clear_caches()  # a review starts cold: nobody's hint need have priced these decisions
        started = time.perf_counter()
        for decision in recorded_decisions(game.to_json()):
            one = time.perf_counter()
            review(rules, decision)
            per_review.append(1000 * (time.perf_counter() - one))
        per_round.append(1000 * (time.perf_counter() - started))
    print(json.dumps({
        "profile": rules.slug, "rounds": options.rounds, "seats": len(seats),
        "review_per_round": figures(per_round), "review_per_decision": figures(per_review),
        "hint_per_decision": figures(per_hint),
    }))


if __name__ == "__main__":
    main()
