"""The coach's arithmetic (tables/engine/exact/coach.py): decisions priced for the cards the player cannot see."""

from __future__ import annotations

import pytest

from tables.engine import PROFILES, CardShoe, GameRound
from tables.engine.exact import Composition, action_evs
from tables.engine.exact.coach import decision_now, price, recorded_decisions, review
from tests.engine.rigged import rigged

AC = PROFILES["atlantic-city"]


def test_it_prices_a_live_decision_with_the_published_values_off_a_fresh_shoe():
    # Seat card, up card, seat card, hole card: 10-6 against a ten (Wizard of Odds, 8 decks S17).
    round_ = rigged("atlantic-city", "TS TD 6H 9C")
    decision = decision_now(round_, 1, 0)
    assert decision.cards == ("TS", "6H") and decision.up_card == "TD" and decision.seen == ()
    assert decision.legal == ("hit", "stand", "double")
    pricing = price(AC, decision)
    assert pricing.value("stand") == pytest.approx(-0.540827, abs=1e-6)
    assert pricing.value("hit") == pytest.approx(-0.535975, abs=1e-6)
    assert pricing.best == "hit"


def test_the_other_players_cards_are_taken_out_and_the_hole_card_is_not():
    round_ = rigged("atlantic-city-multi", "TS 5C 9D 6H 5D 2S", bets={1: 10, 2: 10})
    decision = decision_now(round_, 1, 0)
    assert decision.seen == ("5C", "5D")  # seat 2's cards; the hole card 2S stays unseen
    expected = action_evs(AC, Composition.full(8).without(["5C", "5D"]), ["TS", "6H"], "9D")
    assert dict(price(AC, decision).evs) == pytest.approx({k: expected[k] for k in ("hit", "stand", "double")})


def test_the_cards_of_earlier_rounds_of_a_seeded_shoe_count_as_seen():
    rules = PROFILES["internet-6"]
    shoe = CardShoe.from_seed(bytes(range(32)), rules.decks)
    first = GameRound.new(rules=rules, shoe=shoe, seats={1: 100})
    first.bet(1, 10)
    while first.to_act() is not None:
        first.stand(*first.to_act())
    earlier = [event.card for event in first.events if event.kind == "deal_card"]
    second = GameRound.new(rules=rules, shoe=shoe, seats={1: 100})
    second.bet(1, 10)
    if second.to_act() is None:
        pytest.skip("this seed deals a natural")
    decision = decision_now(second, 1, 0)
    assert sorted(decision.seen) == sorted(earlier)
    assert decision.decks == 6


def test_it_reviews_a_recorded_round_hitting_a_hard_20_as_a_mistake():
    round_ = rigged("atlantic-city", "TS 7H QD 9C 5S")
    round_.hit(1, 0)  # a hard 20: the 5 busts it
    decisions = recorded_decisions(round_.to_json())
    assert [(d.action, d.actor, d.cards) for d in decisions] == [("hit", "player", ("TS", "QD"))]
    verdict = review(AC, decisions[0])
    assert verdict["best"] == "stand" and verdict["action"] == "hit" and not verdict["is_best"]
    assert verdict["cost_chips"] == pytest.approx(10 * (verdict["best_ev"] - verdict["ev"]), abs=1e-3)
    assert verdict["cost_chips"] > 8  # standing on 20 against a 7 wins most of the time; hitting busts most
    assert verdict["cost_pct"] == pytest.approx(verdict["cost_chips"] * 10, abs=1e-2)


def test_the_timers_stand_is_reviewed_and_labelled():
    round_ = rigged("atlantic-city", "TS 7H 6D 9C 2C")
    round_.expire()
    (decision,) = recorded_decisions(round_.to_json())
    verdict = review(AC, decision)
    assert (verdict["action"], verdict["actor"], verdict["best"]) == ("stand", "timer", "hit")
    assert verdict["cost_chips"] > 0


def test_a_split_hand_is_reviewed_with_its_own_cards_and_the_best_play_costs_nothing():
    round_ = rigged("atlantic-city", "8S 7H 8D 9C 3S TS 2H 9S 2C")
    round_.split(1, 0)  # hand 1: 8,3 ; hand 2: 8,2
    round_.double(1, 0)  # 8,3 (11) against a 7: doubling is best
    round_.hit(1, 1)     # 8,2 (10) against a 7: doubling is best, a hit is a small mistake
    round_.stand(1, 1)
    reviews = [review(AC, d) for d in recorded_decisions(round_.to_json())]
    assert [(r["action"], r["cards"]) for r in reviews] == [
        ("split", ["8S", "8D"]), ("double", ["8S", "3S"]), ("hit", ["8D", "2H"]), ("stand", ["8D", "2H", "9S"]),
    ]
    assert reviews[0]["is_best"] and reviews[1]["is_best"] and reviews[1]["cost_chips"] == 0
    assert reviews[2]["best"] == "double" and 0 < reviews[2]["cost_chips"] < 3
    assert reviews[3]["is_best"]
