"""The stakes an action may take, as range queries on the round (as pokerkit's
``bet_range``), for every profile; verify_ allows exactly those."""

from __future__ import annotations

import pytest

from tables.engine import PROFILES, CardShoe, GameRound, IllegalAction, Phase
from tables.engine.errors import ErrorCode

from .rigged import rigged


def betting(profile: str, stacks: dict[int, int], **limits: int) -> GameRound:
    rules = PROFILES[profile]
    return GameRound.new(rules=rules, shoe=CardShoe.new(rules.decks), seats=stacks, **limits)


# -- bets ------------------------------------------------------------------------------


@pytest.mark.parametrize("profile", list(PROFILES))
def test_a_bet_ranges_from_the_table_minimum_to_the_stack_capped_at_the_maximum(profile):
    round_ = betting(profile, {1: 100}, min_bet=5, max_bet=50)
    assert round_.bet_range(1) == range(5, 51)
    assert all(round_.can_bet(1, amount) for amount in (5, 50))
    assert not round_.can_bet(1, 4) and not round_.can_bet(1, 51)
    assert betting(profile, {1: 30}, min_bet=5, max_bet=50).bet_range(1) == range(5, 31)
    assert betting(profile, {1: 30}, min_bet=5).bet_range(1) == range(5, 31)


def test_a_stack_below_the_minimum_may_not_bet_but_may_pass():
    round_ = betting("atlantic-city-multi", {1: 3, 2: 100}, min_bet=5, max_bet=50)
    assert round_.bet_range(1) is None
    assert round_.legal_actions(1) == ("pass",)
    assert round_.legal_actions(2) == ("bet", "pass")
    with pytest.raises(IllegalAction) as refused:
        round_.bet(1, 5)
    assert refused.value.code is ErrorCode.BAD_AMOUNT and "hold 3" in refused.value.message


def test_there_is_no_bet_range_once_the_seat_has_answered_or_betting_has_closed():
    round_ = betting("atlantic-city-multi", {1: 100, 2: 100})
    round_.bet(1, 10)
    assert round_.bet_range(1) is None and round_.bet_range(2) == range(1, 101)
    assert round_.bet_range(3) is None  # nobody sits there
    round_.pass_bet(2)
    assert round_.phase is not Phase.BETTING and round_.bet_range(2) is None


@pytest.mark.parametrize(("preferred", "expected"), [(10, 10), (1, 5), (100, 50), (40, 40)])
def test_the_default_bet_is_the_preferred_one_brought_into_the_range(preferred, expected):
    assert betting("rocket-academy", {1: 100}, min_bet=5, max_bet=50).default_bet(1, preferred) == expected


def test_the_default_bet_is_capped_by_the_stack_and_none_when_no_bet_is_possible():
    assert betting("rocket-academy", {1: 30}, min_bet=5, max_bet=50).default_bet(1, 40) == 30
    assert betting("rocket-academy", {1: 3}, min_bet=5, max_bet=50).default_bet(1, 10) is None


# -- insurance --------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ["atlantic-city", "atlantic-city-multi"])
def test_half_bet_insurance_is_exactly_half_the_bet(profile):
    round_ = rigged(profile, "9H AS 9D 7C", bets={1: 11})
    assert round_.insurance_range(1) == range(5, 6)
    assert round_.can_insurance(1, 5) and not round_.can_insurance(1, 4)


@pytest.mark.parametrize("profile", ["internet-6", "internet-7"])
def test_internet_insurance_is_any_stake_up_to_half_the_bet(profile):
    round_ = rigged(profile, "9H AS 9D 7C", bets={1: 20})
    assert round_.insurance_range(1) == range(1, 11)
    assert round_.can_insurance(1, 1) and round_.can_insurance(1, 10)
    assert not round_.can_insurance(1, 0) and not round_.can_insurance(1, 11)


def test_internet_insurance_is_capped_by_the_stack():
    round_ = rigged("internet-6", "9H AS 9D 7C", bets={1: 20}, stacks={1: 24})
    assert round_.insurance_range(1) == range(1, 5)
    assert round_.insurance(1).chips == -4  # with no amount: the most the range allows
    with pytest.raises(IllegalAction) as refused:
        rigged("internet-6", "9H AS 9D 7C", bets={1: 20}, stacks={1: 24}).insurance(1, 5)
    assert refused.value.code is ErrorCode.BAD_AMOUNT and "hold 4" in refused.value.message


def test_half_bet_insurance_is_not_offered_when_the_stack_cannot_pay_it():
    round_ = rigged("atlantic-city", "9H AS 9D 7C", bets={1: 20}, stacks={1: 29})
    assert round_.phase is Phase.PLAYERS and round_.insurance_range(1) is None


def test_there_is_no_insurance_range_without_an_offer():
    assert rigged("rocket-academy", "9H AS 9D 7C 8C").insurance_range(1) is None  # no insurance there
    assert rigged("atlantic-city", "9H 7S 9D 7C").insurance_range(1) is None  # no ace up
    round_ = rigged("atlantic-city", "9H AS 9D 7C")
    round_.decline_insurance(1)
    assert round_.insurance_range(1) is None


# -- doubles ----------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ["atlantic-city", "atlantic-city-multi", "rocket-academy"])
def test_a_full_double_is_exactly_the_hand_s_bet(profile):
    round_ = rigged(profile, "5H 7D 6S 9C TC 8C")
    assert round_.double_range(1, 0) == range(10, 11)
    assert round_.can_double(1, 0, 10) and not round_.can_double(1, 0, 9)


def test_a_full_double_the_stack_cannot_cover_has_no_range():
    round_ = rigged("atlantic-city", "5H 7D 6S 9C", bets={1: 10}, stacks={1: 15})
    assert round_.double_range(1, 0) is None
    assert "double" not in round_.legal_actions(1)


@pytest.mark.parametrize("profile", ["internet-6", "internet-7"])
def test_double_for_less_is_from_1_chip_to_the_hand_s_bet_capped_by_the_stack(profile):
    assert rigged(profile, "5H 7D 6S 9C").double_range(1, 0) == range(1, 11)
    assert rigged(profile, "5H 7D 6S 9C", stacks={1: 14}).double_range(1, 0) == range(1, 5)
    assert rigged(profile, "5H 7D 6S 9C", stacks={1: 10}).double_range(1, 0) is None


def test_there_is_no_double_range_off_turn_or_after_a_hit():
    round_ = rigged("atlantic-city-multi", "5H 6H 7D 6S 7S 9C 2C", bets={1: 10, 2: 10})
    assert round_.double_range(2, 0) is None  # seat 1 is to act
    assert round_.double_range(1, 1) is None  # there is no hand 1
    round_.hit(1)
    assert round_.double_range(1, 0) is None


def test_rocket_doubles_split_hands_for_their_bet():
    round_ = rigged("rocket-academy", "9H 7D 9S 8C 2C TD 5S 6S")
    round_.split(1)
    assert round_.double_range(1, 0) == range(10, 11)
