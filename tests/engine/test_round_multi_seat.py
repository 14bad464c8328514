from __future__ import annotations

import pytest

from tables.engine import IllegalAction, Phase
from tables.engine.errors import ErrorCode

from .rigged import rigged


def test_cards_go_to_the_seats_in_order_then_the_dealer_up_then_the_seats_then_the_hole():
    round_ = rigged(
        "atlantic-city-multi", "2S 3S 4S 5S 6S 7S 8S 9S", bets={1: 10, 2: 10, 4: 10},
        stacks={1: 100, 2: 100, 3: 100, 4: 100},
    )
    round_.close_betting()
    assert [round_.seats[n].hands[0].cards for n in (1, 2, 4)] == [["2S", "6S"], ["3S", "7S"], ["4S", "8S"]]
    assert round_.seats[3].hands == []
    assert round_.dealer.cards == ["5S", "9S"]


def test_players_act_seat_by_seat_and_a_seat_acting_early_is_out_of_turn():
    round_ = rigged("atlantic-city-multi", "TH 9S 6C 7D 8S TC 7C", bets={1: 10, 2: 10})
    assert round_.to_act() == (1, 0)
    with pytest.raises(IllegalAction) as refused:
        round_.stand(2)
    assert refused.value.code is ErrorCode.OUT_OF_TURN
    with pytest.raises(IllegalAction) as refused:
        round_.stand(1, 1)
    assert refused.value.code is ErrorCode.OUT_OF_TURN
    assert round_.legal_actions(2) == ()
    round_.stand(1)
    assert round_.to_act() == (2, 0)


def test_insurance_is_answered_in_any_order_and_the_timer_declines_the_silent():
    round_ = rigged(
        "atlantic-city-multi", "TH 9S 6C AD 8S TC 7C 5C 4C",
        bets={1: 10, 2: 10, 3: 10},
    )
    assert round_.pending_insurance() == [1, 2, 3]
    round_.insurance(3)
    round_.decline_insurance(1)
    assert round_.pending_insurance() == [2] and round_.phase is Phase.INSURANCE
    events = round_.close_insurance()
    assert [(e.kind, e.seat, e.actor) for e in events[:1]] == [("insurance_declined", 2, "timer")]
    assert round_.phase is Phase.PLAYERS


def test_a_passing_seat_keeps_its_chips_and_gets_no_cards():
    round_ = rigged("atlantic-city-multi", "TH 9S 6C 7D 8S TC", bets={1: 10, 2: 0, 3: 10})
    assert round_.seats[2].hands == [] and round_.seats[2].stack == 100
    assert round_.seats[3].hands[0].cards == ["9S", "8S"]
