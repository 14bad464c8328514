"""The coach prices the insurance offer (tables/engine/exact/coach.py): hinted while it is open, reviewed after."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tables.engine import PROFILES, Phase
from tables.engine.exact import Composition, action_evs, insurance_value
from tables.engine.exact.coach import decision_now, price, recorded_decisions, review
from tests.engine.rigged import rigged

AC = PROFILES["atlantic-city"]
# Seat card, up card, seat card, hole card: alice's 10,6 against an ace, a 9 in the hole.
TEN_SIX_AGAINST_AN_ACE = "TS AS 6H 9C 2D"


def tens_chance(decks: int, out: int, tens_out: int) -> float:
    return (16 * decks - tens_out) / (52 * decks - out)


def test_it_gives_the_same_insurance_value_as_the_analysers_action_evs():
    shoe = Composition.full(6).without(["5C", "TD", "KH"])
    assert insurance_value(shoe, ["AS", "KH"], "AD") == pytest.approx(
        action_evs(PROFILES["internet-6"], shoe, ["AS", "KH"], "AD")["insurance"], abs=1e-12
    )


def test_the_insurance_offer_is_a_decision_priced_for_the_largest_stake_against_declining():
    round_ = rigged("atlantic-city", TEN_SIX_AGAINST_AN_ACE)
    assert round_.phase is Phase.INSURANCE
    decision = decision_now(round_, 1)
    assert decision.is_insurance and decision.legal == ("insurance", "no_insurance")
    assert (decision.cards, decision.up_card, decision.insurance_max, decision.seen) == (("TS", "6H"), "AS", 5, ())
    pricing = price(AC, decision)
    # 127 tens among the 413 cards left: insurance for 5 of a bet of 10 is worth 5 x (3p - 1) chips.
    p = tens_chance(8, 3, 1)
    assert pricing.value("insurance") == pytest.approx(5 * (3 * p - 1) / 10, abs=1e-12)
    assert pricing.value("no_insurance") == 0 and pricing.best == "no_insurance"


def test_the_other_seats_cards_count_and_enough_tens_gone_make_insurance_worse():
    round_ = rigged("atlantic-city-multi", "TS TD AS 6H KC 9C", bets={1: 10, 2: 10})
    decision = decision_now(round_, 1)
    assert decision.seen == ("KC", "TD")  # seat 2's ten and king
    p = tens_chance(8, 5, 3)
    assert price(AC, decision).value("insurance") == pytest.approx((3 * p - 1) / 2, abs=1e-12)


def test_insurance_is_best_once_enough_small_cards_are_gone():
    decision = decision_now(rigged("atlantic-city", TEN_SIX_AGAINST_AN_ACE), 1)
    # 60 small cards seen earlier in the shoe: 127 tens among 353 cards, more than a third.
    rich = replace(decision, seen=tuple(f"{rank}S" for rank in "23456" for _ in range(12)))
    pricing = price(AC, rich)
    assert pricing.best == "insurance" and pricing.value("insurance") > 0


def test_an_odd_bet_insures_for_half_of_it_rounded_down_and_is_priced_at_that_stake():
    round_ = rigged("atlantic-city", TEN_SIX_AGAINST_AN_ACE, bets={1: 15})
    decision = decision_now(round_, 1)
    assert decision.insurance_max == 7
    p = tens_chance(8, 3, 1)
    assert price(AC, decision).value("insurance") == pytest.approx(7 * (3 * p - 1) / 15, abs=1e-12)


def test_taking_insurance_off_a_fresh_shoe_is_reviewed_as_a_small_mistake():
    round_ = rigged("atlantic-city", TEN_SIX_AGAINST_AN_ACE)
    round_.insurance(1)
    round_.stand(1, 0)
    first, play = recorded_decisions(round_.to_json())
    assert (first.action, first.actor, first.amount, first.seq) == ("insurance", "player", 5, 5)
    assert play.action == "stand"
    verdict = review(AC, first)
    p = tens_chance(8, 3, 1)
    assert (verdict["action"], verdict["best"], verdict["is_best"], verdict["stake"]) == (
        "insurance", "no_insurance", False, 5)
    assert verdict["evs"] == {"insurance": pytest.approx(verdict["ev"]), "no_insurance": 0}
    # About 0.39 chips (3.9 % of the bet) given away: a stake of 5 loses 5 x (1 - 3p) on average.
    assert verdict["cost_chips"] == pytest.approx(5 * (1 - 3 * p), abs=1e-4)
    assert 0.3 < verdict["cost_chips"] < 0.5
    assert verdict["cost_pct"] == pytest.approx(verdict["cost_chips"] * 10, abs=1e-3)
    assert "stake" not in review(AC, play)


def test_a_smaller_insurance_stake_costs_in_proportion():
    rules = PROFILES["internet-6"]
    round_ = rigged("internet-6", TEN_SIX_AGAINST_AN_ACE)
    round_.insurance(1, 2)  # 2 of the 5 chips the table allows
    (decision, *_) = recorded_decisions(round_.to_json())
    assert (decision.amount, decision.insurance_max) == (2, 5)
    verdict = review(rules, decision)
    p = tens_chance(6, 3, 1)
    assert verdict["evs"]["insurance"] == pytest.approx(5 * (3 * p - 1) / 10, abs=1e-6)
    assert verdict["ev"] == pytest.approx(2 * (3 * p - 1) / 10, abs=1e-6)
    assert verdict["cost_chips"] == pytest.approx(2 * (1 - 3 * p), abs=1e-4)


def test_declining_is_the_best_answer_and_the_timers_declines_are_each_reviewed_and_labelled():
    # Deal: seats 1, 2, 3, the up card, seats 1, 2, 3 again, the hole card.
    round_ = rigged("atlantic-city-multi", "TS 9D 5C AS 6H 9H 7C 9C", bets={1: 10, 2: 10, 3: 20})
    round_.decline_insurance(2)
    round_.expire()  # seats 1 and 3 said nothing: the timer declines both
    insurance = [d for d in recorded_decisions(round_.to_json()) if d.is_insurance]
    assert [(d.seat, d.action, d.actor, d.insurance_max) for d in insurance] == [
        (2, "no_insurance", "player", 5), (1, "no_insurance", "timer", 5), (3, "no_insurance", "timer", 10),
    ]
    verdicts = [review(AC, d) for d in insurance]
    assert all(v["is_best"] and v["cost_chips"] == 0 and v["stake"] == 0 for v in verdicts)
    assert [v["seq"] for v in verdicts] == sorted(v["seq"] for v in verdicts)
