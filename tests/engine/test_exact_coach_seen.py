"""What the coach counts as seen (tables/engine/exact/seen.py): a stacked shoe's earlier rounds, a mid-round reshuffle."""

from __future__ import annotations

from collections import Counter

import pytest

from tables.engine import PROFILES, CardShoe, GameRound, Phase
from tables.engine.exact.coach import decision_now, recorded_decisions, review
from tables.engine.shoe import derive_seed

ROCKET = PROFILES["rocket-academy"]
AC = PROFILES["atlantic-city"]


def test_the_earlier_rounds_of_a_stacked_shoe_count_as_seen():
    # Two rounds off one stacked shoe (a rigged table's shoe is never reshuffled).
    shoe = CardShoe.stacked(["5S", "9D", "6C", "8H", "TS", "TD", "6H", "9C"], AC.decks)
    first = GameRound.new(rules=AC, shoe=shoe, seats={1: 100})
    first.bet(1, 10)
    first.stand(1, 0)  # 11 against a 9, 8 in the hole: the dealer stands on 17
    assert first.phase is Phase.SETTLED
    second = GameRound.new(rules=AC, shoe=shoe, seats={1: 100})
    second.bet(1, 10)
    decision = decision_now(second, 1, 0)
    assert decision.cards == ("TS", "6H") and decision.up_card == "TD"
    assert Counter(decision.seen) == Counter(["5S", "9D", "6C", "8H"])
    # The same from the record: the shoe's JSON keeps its stacked order and the cards dealt.
    (recorded,) = [d for d in recorded_decisions(_after_a_stand(second)) if d.action == "stand"]
    assert Counter(recorded.seen) == Counter(decision.seen)


def _after_a_stand(round_: GameRound) -> dict:
    round_.stand(1, 0)
    return round_.to_json()


def _running_out(index: int, left: int) -> GameRound:
    """A rocket-academy round, one seat betting 10, off a single deck with ``left`` cards to deal."""
    shoe = CardShoe.from_seed(derive_seed(b"\3" * 32, b"coach-run-out", index), 1)
    for _ in range(52 - left):
        shoe.draw()
    round_ = GameRound.new(rules=ROCKET, shoe=shoe, seats={1: 100, 2: 100})
    round_.bet(1, 10)
    round_.bet(2, 10)
    return round_


def _hit_to_the_end(round_: GameRound) -> list:
    """Every decision hits; the decision each hand saw live, as the coach made it then."""
    live = []
    while round_.phase is Phase.PLAYERS:
        seat, hand = round_.to_act()
        live.append(decision_now(round_, seat, hand))
        round_.hit(seat, hand)
    return live


def _a_round_reshuffled_while_seat_2_plays():
    """Seat 1 busts on the old shoe's last card; the shoe runs out as seat 2 hits, and seat 2 decides again."""
    for index in range(400):
        round_ = _running_out(index, 7)  # the deal takes 6: one card left
        if round_.phase is not Phase.PLAYERS or round_.to_act() != (1, 0):
            continue
        earlier = list(round_.shoe.order()[:45])
        live = _hit_to_the_end(round_)
        events = [str(event.kind) for event in round_.events]
        reshuffled = events.index("shoe_reshuffled") if "shoe_reshuffled" in events else None
        seat_2 = [d for d in live if d.seat == 2]
        if reshuffled is None or len(seat_2) < 2:
            continue
        # The reshuffle came while seat 2 played (seat 1 already done), and seat 2 decided after it.
        first_of_2 = next(i for i, e in enumerate(round_.events) if e.kind == "hit" and e.seat == 2)
        if reshuffled > first_of_2 and round_.seats[1].hands[0].hard > 21:
            return round_, earlier, live
    pytest.fail("no seed ran out while seat 2 played")


def test_a_decision_after_a_mid_round_reshuffle_sees_only_the_cards_kept_on_the_table():
    round_, earlier, live = _a_round_reshuffled_while_seat_2_plays()
    seat_1 = round_.seats[1].hands[0]
    first_of_2, second_of_2 = [d for d in live if d.seat == 2][:2]
    # Before: the 45 cards of the earlier rounds and seat 1's whole hand.
    assert Counter(first_of_2.seen) == Counter(earlier) + Counter(seat_1.cards)
    # After: seat 1's busted hand was collected and went back in, with the earlier rounds' cards; seat 2's
    # own cards and the up card were on the table, the hole card too but face down. Nothing else is known.
    assert seat_1.hard > 21
    assert second_of_2.seen == ()
    assert len(second_of_2.cards) == 3


def test_a_round_reshuffled_mid_round_is_rebuilt_and_each_decision_seen_as_it_was_live():
    round_, _, live = _a_round_reshuffled_while_seat_2_plays()
    state = round_.to_json()
    recorded = recorded_decisions(state)
    assert [(d.seat, d.hand, d.cards, d.legal, d.seen) for d in recorded] == [
        (d.seat, d.hand, d.cards, d.legal, d.seen) for d in live
    ]
    assert all(d.action == "hit" and d.actor == "player" for d in recorded)
    # After the reshuffle the shoe is whole again and every decision is priced (before it, the few cards
    # left are too few for the analyser: such a decision is left out of the review, tables/play/reviews.py).
    after = [d for d in recorded if d.seq > next(e.seq for e in round_.events if e.kind == "shoe_reshuffled")]
    assert after and all(review(ROCKET, d)["cost_chips"] >= 0 for d in after)
    # Rebuilt, the round reshuffled at the same card as it did at the table.
    assert [str(e["kind"]) for e in state["events"]].count("shoe_reshuffled") == 1
