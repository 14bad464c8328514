"""Property tests: random shoes, random seats and random (legal or not) actions, every profile."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine import BY_NAME, PROFILES, AmountKind, CardShoe, GameRound, IllegalAction, Phase, hand_value
from tables.engine.round import PLAYER_ACTIONS
from tables.engine.state import SeatStatus

#: Every registry action, and the timer.
ATTEMPTS = (*BY_NAME, "expire")


def arguments(action: str, hand: int, amount: int | None) -> dict[str, int | None]:
    """A hand and an amount only where the action takes one (a bet always names one)."""
    spec = BY_NAME[action]
    if spec.amount is AmountKind.REQUIRED and amount is None:
        amount = 10
    return {
        "hand": hand if spec.takes_hand else 0,
        "amount": None if spec.amount is AmountKind.NONE else amount,
    }


def attempt(round_: GameRound, action: str, seat: int, hand: int, amount: int | None) -> None:
    if action == "expire":
        round_.expire()
    else:
        round_.act(action, seat=seat, **arguments(action, hand, amount))


def can(round_: GameRound, action: str, seat: int, hand: int, amount: int | None) -> bool | None:
    if action == "expire":
        return None
    return round_.can_act(action, seat=seat, **arguments(action, hand, amount))


def check_range(allowed: range | None, can_stake) -> None:
    """A range query and the verify_ behind it agree at and just past both ends."""
    if allowed is None:
        assert not can_stake(None)
        return
    assert len(allowed) >= 1
    assert can_stake(None) and can_stake(allowed.start) and can_stake(allowed[-1])
    assert not can_stake(allowed.start - 1) and not can_stake(allowed[-1] + 1)


def roundtrip(round_: GameRound) -> GameRound:
    copy = GameRound.from_json(json.loads(json.dumps(round_.to_json())))
    assert copy.to_json() == round_.to_json()
    assert copy.events == round_.events
    return copy


def check_invariants(round_: GameRound) -> None:
    rules = round_.rules
    for number, seat in round_.seats.items():
        assert seat.stack >= 0
        # Every chip movement is an event: they add up to the seat's net.
        assert sum(e.chips for e in round_.events if e.seat == number) == seat.stack - seat.stack_before
        for hand in seat.hands:
            assert (hand.total, hand.soft) == hand_value(hand.cards)
    reshuffled = any(e.kind == "shoe_reshuffled" for e in round_.events)
    if not reshuffled:
        on_table = Counter(round_.dealer.cards)
        for seat in round_.seats.values():
            for hand in seat.hands:
                on_table.update(hand.cards)
        assert max(on_table.values(), default=0) <= rules.decks
    assert [e.seq for e in round_.events] == list(range(len(round_.events)))


def check_settlement(round_: GameRound) -> None:
    dealer_total = round_.dealer.total
    dealer_natural = len(round_.dealer.cards) == 2 and dealer_total == 21
    assert round_.hole_revealed or not any(s.hands for s in round_.seats.values())
    for number, seat in round_.seats.items():
        settles = Counter(e.hand for e in round_.events if e.kind == "settle" and e.seat == number)
        assert sum(settles.values()) == len(seat.hands)
        if seat.status is not SeatStatus.BETTING:
            assert seat.hands == [] and seat.stack == seat.stack_before
        for hand in seat.hands:
            total, outcome = hand.total, hand.outcome
            if outcome == "bust":
                assert total > 21
            elif outcome == "blackjack":
                assert hand.natural and not hand.from_split and not dealer_natural
            elif outcome == "win":
                assert total <= 21 and (dealer_total > 21 or total > dealer_total) and not dealer_natural
            elif outcome == "push":
                assert (total == dealer_total and not dealer_natural and not hand.natural) or (
                    hand.natural and dealer_natural)
            elif outcome == "lose":
                assert total <= 21 and (dealer_natural or total < dealer_total)
            else:
                assert outcome == "surrender" and hand.surrendered and len(hand.cards) == 2


@pytest.mark.parametrize("slug", list(PROFILES))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.binary(min_size=32, max_size=32))
def test_random_play_keeps_every_invariant(slug, data, seed):
    rules = PROFILES[slug]
    numbers = data.draw(st.lists(st.integers(1, rules.seats), min_size=1, max_size=rules.seats, unique=True))
    stacks = {n: data.draw(st.integers(0, 60)) for n in numbers}
    round_ = GameRound.new(rules=rules, shoe=CardShoe.from_seed(seed, rules.decks), seats=stacks, min_bet=1, max_bet=40)
    for _ in range(200):
        if round_.phase is Phase.SETTLED:
            break
        turn = round_.to_act()
        # Mostly the seat/hand to act or a pending seat, sometimes anyone at all.
        pending = round_.pending_bets() or round_.pending_insurance()
        likely = [turn] if turn else [(n, 0) for n in pending]
        seat, hand = data.draw(st.one_of(
            st.sampled_from(likely or [(numbers[0], 0)]),
            st.tuples(st.integers(0, rules.seats + 1), st.integers(0, 4)),
        ))
        action = data.draw(st.sampled_from(ATTEMPTS))
        amount = data.draw(st.one_of(st.none(), st.integers(-1, 45)))
        before = round_.to_json()
        allowed = can(round_, action, seat, hand, amount)
        try:
            attempt(round_, action, seat, hand, amount)
        except IllegalAction:
            # A refused action changes nothing, and can_act said no.
            assert round_.to_json() == before
            assert allowed in (None, False)
        else:
            assert allowed in (None, True)
        check_invariants(round_)
        if data.draw(st.booleans()):
            round_ = roundtrip(round_)
    while round_.phase is not Phase.SETTLED:
        round_.expire()
    check_invariants(round_)
    check_settlement(round_)
    roundtrip(round_)


@pytest.mark.parametrize("slug", list(PROFILES))
@settings(max_examples=30, deadline=None)
@given(seed=st.binary(min_size=32, max_size=32), picks=st.lists(st.integers(0, 9), min_size=30, max_size=30))
def test_legal_actions_are_exactly_the_actions_that_apply(slug, seed, picks):
    rules = PROFILES[slug]
    bets = {1: 10, 2: 20} if rules.seats > 1 else {1: 10}
    stacks = {1: 100, 2: 30} if rules.seats > 1 else {1: 100}
    round_ = GameRound.new(rules=rules, shoe=CardShoe.from_seed(seed, rules.decks), seats=stacks)
    for seat, bet in bets.items():
        round_.bet(seat, bet)
    for pick in picks:
        if round_.phase is Phase.SETTLED:
            break
        if round_.phase is Phase.INSURANCE:
            seat = round_.pending_insurance()[0]
            legal = round_.legal_actions(seat)
            assert legal[-1] == "no_insurance"
            assert ("insurance" in legal) == (round_.insurance_range(seat) is not None)
            check_range(round_.insurance_range(seat), lambda stake: round_.can_insurance(seat, stake))
            round_.act(legal[pick % len(legal)], seat=seat)
            continue
        seat, hand = round_.to_act()
        legal = round_.legal_actions(seat, hand)
        for name in PLAYER_ACTIONS:
            assert (name in legal) == round_.can_act(name, seat=seat, hand=hand)
        assert ("double" in legal) == (round_.double_range(seat, hand) is not None)
        check_range(round_.double_range(seat, hand), lambda stake: round_.can_double(seat, hand, stake))
        assert {"hit", "stand"} <= set(legal)
        round_.act(legal[pick % len(legal)], seat=seat, hand=hand)
    check_invariants(round_)
