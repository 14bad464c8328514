from __future__ import annotations

import pytest

from tables.engine import IllegalAction, Phase
from tables.engine.errors import ErrorCode

from .rigged import outcomes, rigged


def test_a_double_stakes_the_bet_again_for_exactly_one_card():
    round_ = rigged("atlantic-city", "5H 7D 3S 9C 2C 8C")
    event = round_.double(1)
    assert (event.kind, event.chips) == ("double", -10)
    hand = round_.seats[1].hands[0]
    assert hand.cards == ["5H", "3S", "2C"] and hand.bet == 20
    assert round_.phase is Phase.SETTLED  # finished after one card, at 10
    assert round_.dealer.cards == ["7D", "9C", "8C"]
    assert outcomes(round_) == ["win"] and round_.seats[1].stack == 120


def test_a_double_is_only_on_the_first_two_cards():
    round_ = rigged("atlantic-city", "2H 7D 3S 9C 4C")
    round_.hit(1)
    assert not round_.can_double(1)
    with pytest.raises(IllegalAction) as refused:
        round_.double(1)
    assert refused.value.code is ErrorCode.ILLEGAL_ACTION


def test_atlantic_city_doubles_for_exactly_the_bet():
    round_ = rigged("atlantic-city", "5H 7D 6S 9C TC 8C")
    with pytest.raises(IllegalAction) as refused:
        round_.double(1, 0, 5)
    assert refused.value.code is ErrorCode.BAD_AMOUNT
    assert round_.double(1, 0, 10).chips == -10


def test_atlantic_city_refuses_a_double_the_stack_cannot_cover():
    round_ = rigged("atlantic-city", "5H 7D 6S 9C", bets={1: 10}, stacks={1: 15})
    assert "double" not in round_.legal_actions(1)
    with pytest.raises(IllegalAction) as refused:
        round_.double(1)
    assert refused.value.code is ErrorCode.ILLEGAL_ACTION and "hold 5" in refused.value.message


@pytest.mark.parametrize("amount", [0, 11, -1])
def test_internet_double_for_less_is_from_1_chip_to_the_bet(amount):
    round_ = rigged("internet-6", "5H 7D 6S 9C TC 8C")
    with pytest.raises(IllegalAction) as refused:
        round_.double(1, 0, amount)
    assert refused.value.code is ErrorCode.BAD_AMOUNT


def test_internet_double_for_less_stakes_what_the_player_chose():
    round_ = rigged("internet-6", "5H 7D 6S 9C TC 8C")
    round_.double(1, 0, 4)
    assert round_.seats[1].hands[0].bet == 14
    assert outcomes(round_) == ["win"] and round_.seats[1].stack == 100 + 14


def test_internet_double_for_less_caps_the_default_at_the_stack():
    round_ = rigged("internet-6", "5H 7D 6S 9C TC 8C", bets={1: 10}, stacks={1: 14})
    assert round_.double(1).chips == -4
    with pytest.raises(IllegalAction):
        rigged("internet-6", "5H 7D 6S 9C", bets={1: 10}, stacks={1: 14}).double(1, 0, 5)


def test_a_hand_hit_to_21_is_finished_without_a_decision():
    round_ = rigged("atlantic-city", "5H 7D 6S 9C TC 8C")
    round_.hit(1)
    assert round_.phase is Phase.SETTLED
    assert outcomes(round_) == ["win"] and round_.dealer.cards == ["7D", "9C", "8C"]


def test_rocket_doubles_any_two_cards_after_a_split_too():
    round_ = rigged("rocket-academy", "9H 7D 9S 8C 2C TD 5S 6S")
    round_.split(1)
    assert round_.can_double(1, 0)
    round_.double(1, 0)
    assert round_.can_double(1, 1)
