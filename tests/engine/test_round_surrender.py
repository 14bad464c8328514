from __future__ import annotations

import pytest

from tables.engine import IllegalAction, Phase
from tables.engine.errors import ErrorCode

from .rigged import kinds, outcomes, rigged


def test_rocket_surrender_returns_half_the_bet_rounded_down_and_the_dealer_does_not_draw():
    round_ = rigged("rocket-academy", "TH 9C 6D 5S 8S", bets={1: 7})
    event = round_.surrender(1)
    assert event.kind == "surrender"
    settle = [e for e in round_.events if e.kind == "settle"]
    assert [(e.outcome, e.chips) for e in settle] == [("surrender", 3)]
    assert round_.seats[1].stack == 96
    assert round_.dealer.cards == ["9C", "5S"]  # no live hand: no draw
    assert round_.hole_revealed and round_.phase is Phase.SETTLED


def test_there_is_no_surrender_at_atlantic_city_or_internet_tables():
    for profile in ("atlantic-city", "internet-6"):
        round_ = rigged(profile, "TH 9C 6D 8S")
        assert "surrender" not in round_.legal_actions(1)
        with pytest.raises(IllegalAction) as refused:
            round_.surrender(1)
        assert refused.value.code is ErrorCode.ILLEGAL_ACTION


def test_a_hand_that_has_drawn_cannot_surrender():
    round_ = rigged("rocket-academy", "TH 9C 2D 8S 2S")
    round_.hit(1)
    assert not round_.can_surrender(1)


def test_rocket_surrenders_split_hands_too():
    round_ = rigged("rocket-academy", "8H 9D 8S 7C 3D TC")
    round_.split(1)
    round_.surrender(1, 0)
    assert round_.to_act() == (1, 1)
    round_.surrender(1, 1)
    assert outcomes(round_) == ["surrender", "surrender"]
    assert round_.seats[1].stack == 100 - 20 + 10
    assert kinds(round_).count("settle") == 2
