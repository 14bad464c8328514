from __future__ import annotations

import pytest

from tables.engine import PROFILES, IllegalAction, Phase, GameRound, CardShoe
from tables.engine.errors import ErrorCode

from .rigged import rigged


def test_the_timer_closes_the_betting_window():
    round_ = GameRound.new(rules=PROFILES["atlantic-city-multi"], shoe=CardShoe.stacked("TH 9S 6C 7D".split(), 8),
                       seats={1: 100, 2: 100})
    round_.bet(2, 10)
    events = round_.expire()
    assert (events[0].kind, events[0].seat, events[0].actor) == ("left_out", 1, "timer")
    assert round_.phase is Phase.PLAYERS


def test_the_timer_declines_insurance_for_the_silent():
    round_ = rigged("atlantic-city", "9H AS 9D 7C")
    events = round_.expire()
    assert (events[0].kind, events[0].actor) == ("insurance_declined", "timer")
    assert round_.phase is Phase.PLAYERS


def test_the_timer_stands_for_a_silent_player():
    round_ = rigged("atlantic-city", "TH 9C 9D 8S")
    events = round_.expire()
    assert (events[0].kind, events[0].seat, events[0].hand, events[0].actor) == ("stand", 1, 0, "timer")
    assert round_.phase is Phase.SETTLED


def test_nothing_expires_after_the_round():
    round_ = rigged("atlantic-city", "TH 9C 9D 8S")
    round_.stand(1)
    with pytest.raises(IllegalAction) as refused:
        round_.expire()
    assert refused.value.code is ErrorCode.EXTRA_ACTION
    with pytest.raises(IllegalAction) as refused:
        round_.hit(1)
    assert refused.value.code is ErrorCode.EXTRA_ACTION
