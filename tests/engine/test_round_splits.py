from __future__ import annotations

import pytest

from tables.engine import IllegalAction, Phase
from tables.engine.errors import ErrorCode

from .rigged import outcomes, rigged


def cards(round_, seat=1):
    return [hand.cards for hand in round_.seats[seat].hands]


def test_a_split_plays_the_first_hand_out_before_the_second_gets_its_card():
    round_ = rigged("atlantic-city", "8H 7D 8S 9C 3D TC 2H TS")
    event = round_.split(1)
    assert (event.kind, event.card, event.chips) == ("split", "8S", -10)
    assert cards(round_) == [["8H", "3D"], ["8S"]]
    assert round_.to_act() == (1, 0)
    round_.double(1, 0)  # double after split (DAS)
    assert cards(round_) == [["8H", "3D", "TC"], ["8S", "2H"]]
    assert round_.to_act() == (1, 1)
    round_.stand(1, 1)
    assert outcomes(round_) == ["win", "win"]
    assert [hand.bet for hand in round_.seats[1].hands] == [20, 10]
    assert round_.seats[1].stack == 130


def test_atlantic_city_splits_by_rank_only():
    mixed = rigged("atlantic-city", "KH 7D QS 9C")
    with pytest.raises(IllegalAction) as refused:
        mixed.split(1)
    assert refused.value.code is ErrorCode.ILLEGAL_ACTION
    assert "split" not in mixed.legal_actions(1)
    assert rigged("atlantic-city", "KH 7D KS 9C").can_split(1)


def test_internet_tables_split_any_two_ten_value_cards():
    assert rigged("internet-6", "KH 7D QS 9C").can_split(1)


def test_atlantic_city_allows_no_re_split():
    round_ = rigged("atlantic-city", "8H 7D 8S 9C 8D")
    round_.split(1)
    with pytest.raises(IllegalAction) as refused:
        round_.split(1, 0)
    assert refused.value.message == "You cannot re-split at this table."


def test_internet_7_re_splits_up_to_three_hands():
    round_ = rigged("internet-7", "8H 7D 8S 9C 8D 8C")
    round_.split(1)
    round_.split(1, 0)
    assert cards(round_) == [["8H", "8C"], ["8D"], ["8S"]]
    with pytest.raises(IllegalAction) as refused:
        round_.split(1, 0)
    assert refused.value.code is ErrorCode.ILLEGAL_ACTION and "3 hands" in refused.value.message


def test_internet_6_re_splits_up_to_four_hands_each_new_hand_right_after_its_source():
    round_ = rigged("internet-6", "8H 7D 8S 9C 8D 8C 2C")
    round_.split(1)
    round_.split(1, 0)
    round_.split(1, 0)
    assert cards(round_) == [["8H", "2C"], ["8C"], ["8D"], ["8S"]]
    assert not round_.can_split(1, 0)


def test_split_aces_take_one_card_each_and_cannot_be_split_again():
    round_ = rigged("internet-7", "AH 7D AS 9C AD 5C 4C")
    round_.split(1)
    # AH-AD would be a pair, but split aces get one card and no further action.
    assert round_.phase is Phase.SETTLED
    assert cards(round_) == [["AH", "AD"], ["AS", "5C"]]
    assert round_.dealer.cards == ["7D", "9C", "4C"]


def test_a_ten_on_a_split_ace_is_21_paid_even_money_not_blackjack():
    round_ = rigged("atlantic-city", "AH 6D AC TS 9S KH 8C")
    round_.split(1)
    assert outcomes(round_) == ["win", "win"] and round_.seats[1].stack == 120


def test_rocket_academy_plays_split_aces_like_any_hand():
    round_ = rigged("rocket-academy", "AH 7D AS 9C 5C 4H TD 9D")
    round_.split(1)
    assert round_.to_act() == (1, 0)
    assert round_.legal_actions(1, 0) == ("hit", "stand", "double", "surrender")
    round_.hit(1, 0)
    assert cards(round_)[0] == ["AH", "5C", "4H"]
    round_.stand(1, 0)
    assert cards(round_)[1] == ["AS", "TD"]  # 21 on a split ace: finished at once, no decision
    assert outcomes(round_) == ["win", "win"] and round_.seats[1].stack == 120


def test_a_split_costs_the_bet_again_and_needs_the_chips():
    round_ = rigged("atlantic-city", "8H 7D 8S 9C", bets={1: 10}, stacks={1: 19})
    with pytest.raises(IllegalAction) as refused:
        round_.split(1)
    assert refused.value.code is ErrorCode.ILLEGAL_ACTION and "10 chips" in refused.value.message
    assert round_.seats[1].stack == 9 and len(round_.seats[1].hands) == 1


def test_a_hand_that_reaches_21_after_a_split_asks_nothing():
    round_ = rigged("atlantic-city", "9H 7D 9S 8C 2C 3D")
    round_.split(1)
    round_.hit(1, 0)  # 9 2 -> hit
    assert round_.seats[1].hands[0].cards == ["9H", "2C", "3D"]
    round2 = rigged("atlantic-city", "9H 7D 9S 8C 2C TD 5S")
    round2.split(1)
    round2.hit(1, 0)
    # 9 2 T = 21 finishes the first hand; the second gets its card and is to act.
    assert round2.to_act() == (1, 1) and round2.seats[1].hands[1].cards == ["9S", "5S"]
