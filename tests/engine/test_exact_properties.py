"""Property tests of the exact analyser: random profiles, hands, up cards and depleted shoes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tables.engine import PROFILES, CardShoe, GameRound, Phase
from tables.engine.exact import (
    PLAY_ACTIONS,
    Composition,
    action_evs,
    best_action,
    dealer_probabilities,
    legal_actions,
)
from tables.engine.exact.analysis import solver_for
from tables.engine.exact.hands import encode

RANKS = "A23456789TJQK"
rank = st.sampled_from(RANKS)
profile = st.sampled_from(sorted(PROFILES))
quick = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def points(cards: list[str]) -> int:
    hard = sum(min(RANKS.index(card) + 1, 10) for card in cards)
    return hard + 10 if "A" in cards and hard <= 11 else hard


def depleted(slug: str, removed: list[str]) -> Composition | None:
    try:
        return Composition.full(PROFILES[slug].decks).without(removed)
    except ValueError:
        return None


@quick
@given(slug=profile, hand=st.lists(rank, min_size=2, max_size=3), up=rank, removed=st.lists(rank, max_size=6))
def test_every_value_lies_between_losing_a_double_and_a_blackjack(slug, hand, up, removed):
    assume(points(hand) <= 21)
    shoe = depleted(slug, removed)
    assume(shoe is not None)
    try:
        evs = action_evs(PROFILES[slug], shoe, hand, up)
    except ValueError:
        assume(False)  # the depleted shoe cannot hold these cards
    assert set(evs) == set(legal_actions(PROFILES[slug], hand, up))
    for action, value in evs.items():
        assert -2.0 <= value <= 1.5, (action, value)
    if "insurance" in evs:
        assert -0.5 <= evs["insurance"] <= 1.0
    best = best_action(evs)
    assert evs[best] == max(value for action, value in evs.items() if action in PLAY_ACTIONS)
    if "surrender" in evs:
        assert evs["surrender"] == -0.5  # exactly: half the bet back once the dealer has no blackjack


@st.composite
def hard_21(draw: st.DrawFn) -> list[str]:
    """Two or more cards drawn below 11 (ace as 1), then the card that makes a hard 21."""
    cards: list[str] = []
    hard = 0
    while hard < 11 or len(cards) < 2:
        card = draw(st.sampled_from([r for r in RANKS if min(RANKS.index(r) + 1, 10) <= 20 - hard]))
        cards.append(card)
        hard += min(RANKS.index(card) + 1, 10)
    cards.append(draw(st.sampled_from([r for r in RANKS if min(RANKS.index(r) + 1, 10) == 21 - hard])))
    return cards


@quick
@given(slug=profile, hand=hard_21(), up=rank)
def test_hitting_a_hard_21_is_never_better_than_standing(slug, hand, up):
    hard = sum(min(RANKS.index(card) + 1, 10) for card in hand)
    assert hard == 21
    rules = PROFILES[slug]
    shoe = depleted(slug, [])
    counts = [0] * 10
    for card in hand:
        counts[min(RANKS.index(card), 9)] += 1
    assume(all(n <= limit for n, limit in zip(counts, shoe.counts)))
    solver = solver_for(rules, shoe.counts, min(RANKS.index(up), 9))
    code = encode(counts)
    solver.prefetch(solver.reachable(code))
    aces = counts[0] > 0
    hit = solver.hit(code, hard, aces, len(hand), ("optimal", False, 0, 0))
    assert hit <= solver.stand(code, hard, aces)
    assert action_evs(rules, None, hand, up).keys() == {"stand"}  # the round asks nothing on 21


@quick
@given(slug=profile, up=rank, removed=st.lists(rank, max_size=8))
def test_the_dealer_outcomes_are_a_distribution(slug, up, removed):
    shoe = depleted(slug, removed)
    assume(shoe is not None and shoe.counts[min(RANKS.index(up), 9)] > 0)
    chances = dealer_probabilities(PROFILES[slug], up, shoe)
    assert all(0.0 <= p <= 1.0 for p in chances.values())
    assert sum(chances.values()) == pytest.approx(1.0, abs=1e-12)
    if up not in "ATJQK":
        assert chances["blackjack"] == 0.0


@settings(max_examples=40, deadline=None)
@given(slug=profile, first=rank, second=rank, up=rank)
def test_the_actions_valued_are_the_buttons_the_round_shows(slug, first, second, up):
    rules = PROFILES[slug]
    assume(points([first, second]) < 21)
    # A hole card that never makes blackjack, so the round reaches the player's decision.
    hole = "5C"
    cards = [first + "S", up + "H", second + "D", hole] + ["2C"] * 30
    round_ = GameRound.new(rules=rules, shoe=CardShoe.stacked(cards, decks=rules.decks), seats={1: 1000})
    round_.bet(1, 10)
    if round_.phase is Phase.INSURANCE:
        assert "insurance" in legal_actions(rules, [first, second], up)
        round_.act("no_insurance", seat=1)
    assert round_.phase is Phase.PLAYERS
    valued = [action for action in legal_actions(rules, [first, second], up) if action != "insurance"]
    assert tuple(valued) == round_.legal_actions(1, 0)
    if "split" in valued:
        # Every hand of the split, as the round reaches it (split again where it may).
        round_.split(1, 0)
        while round_.phase is Phase.PLAYERS:
            _, index = round_.to_act()
            hands = round_.seats[1].hands
            cards = [card[0] for card in hands[index].cards]
            offered = round_.legal_actions(1, index)
            assert legal_actions(rules, cards, up, split_hands=len(hands)) == offered
            action_evs(rules, None, cards, up, split_hands=len(hands))
            (round_.split if "split" in offered else round_.stand)(1, index)
