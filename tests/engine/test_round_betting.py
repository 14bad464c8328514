from __future__ import annotations

import pytest

from tables.engine import PROFILES, IllegalAction, Phase, GameRound, CardShoe
from tables.engine.errors import ErrorCode

from .rigged import kinds, rigged


def new_round(stacks=None, **limits) -> GameRound:
    rules = PROFILES["atlantic-city-multi"]
    return GameRound.new(
        rules=rules, shoe=CardShoe.stacked("TH 5C 6S 8D 6H TC 9S 7D 2C 3C".split(), 8),
        seats=stacks or {1: 100, 3: 100}, **limits,
    )


def test_a_round_opens_in_its_betting_window_with_nothing_dealt():
    round_ = new_round()
    assert round_.phase is Phase.BETTING
    assert round_.pending_bets() == [1, 3]
    assert round_.legal_actions(1) == ("bet", "pass")
    assert round_.shoe.dealt == 0


def test_a_bet_moves_chips_from_the_seat_at_once():
    round_ = new_round()
    event = round_.bet(1, 10)
    assert (event.kind, event.seat, event.chips, event.actor) == ("bet", 1, -10, "player")
    assert round_.seats[1].stack == 90
    assert round_.phase is Phase.BETTING  # seat 3 has not answered


def test_the_deal_starts_as_soon_as_every_seat_has_answered():
    round_ = new_round()
    round_.bet(1, 10)
    round_.pass_bet(3)
    assert round_.phase is Phase.PLAYERS
    assert round_.seats[3].hands == []
    assert [len(hand.cards) for hand in round_.seats[1].hands] == [2]


@pytest.mark.parametrize("amount", [0, 4, 51, 2.5, "10", True])
def test_it_refuses_a_bet_outside_the_table_limits(amount):
    round_ = new_round(min_bet=5, max_bet=50)
    with pytest.raises(IllegalAction) as refused:
        round_.bet(1, amount)
    assert refused.value.code is ErrorCode.BAD_AMOUNT
    assert round_.seats[1].stack == 100 and round_.events == []


def test_a_seat_cannot_bet_more_than_it_holds():
    round_ = new_round(stacks={1: 30})
    with pytest.raises(IllegalAction) as refused:
        round_.bet(1, 31)
    assert refused.value.code is ErrorCode.BAD_AMOUNT
    assert "30" in refused.value.message
    assert round_.can_bet(1, 30)


def test_a_seat_answers_the_betting_window_once():
    round_ = new_round()
    round_.bet(1, 10)
    with pytest.raises(IllegalAction) as refused:
        round_.bet(1, 10)
    assert refused.value.code is ErrorCode.ILLEGAL_ACTION
    assert not round_.can_pass_bet(1)


def test_closing_the_window_leaves_silent_seats_out_and_deals():
    round_ = new_round()
    round_.bet(3, 10)
    events = round_.close_betting()
    assert events[0].kind == "left_out" and events[0].seat == 1 and events[0].actor == "timer"
    assert round_.seats[1].hands == [] and round_.seats[1].stack == 100
    assert round_.seats[3].hands[0].cards == ["TH", "6S"]


def test_a_round_where_everyone_passes_ends_without_touching_the_shoe():
    round_ = new_round()
    round_.pass_bet(1)
    round_.pass_bet(3)
    assert round_.phase is Phase.SETTLED
    assert round_.shoe.dealt == 0
    assert kinds(round_) == ["pass", "pass", "round_settled"]


def test_betting_after_the_deal_is_refused_and_after_the_round_is_an_extra_action():
    round_ = rigged("atlantic-city", "TH 9C 8D 8S")
    with pytest.raises(IllegalAction) as refused:
        round_.bet(1, 10)
    assert refused.value.code is ErrorCode.ILLEGAL_ACTION
    round_.stand(1)
    with pytest.raises(IllegalAction) as refused:
        round_.bet(1, 10)
    assert refused.value.code is ErrorCode.EXTRA_ACTION


def test_an_unknown_seat_cannot_bet():
    with pytest.raises(IllegalAction):
        new_round().bet(2, 10)


def test_a_round_refuses_seats_the_profile_does_not_have():
    with pytest.raises(ValueError):
        GameRound.new(rules=PROFILES["atlantic-city"], shoe=CardShoe.new(8), seats={2: 100})


def test_actions_record_who_took_them():
    round_ = new_round()
    assert round_.bet(1, 10, actor="house").actor == "house"
    with pytest.raises(ValueError):
        round_.pass_bet(3, actor="somebody")
