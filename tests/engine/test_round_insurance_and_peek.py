from __future__ import annotations

import pytest

from tables.engine import IllegalAction, Phase
from tables.engine.errors import ErrorCode

from .rigged import chips_by_seat, kinds, outcomes, rigged


def test_atlantic_city_offers_insurance_of_exactly_half_the_bet_against_an_ace():
    round_ = rigged("atlantic-city", "9H AS 9D 7C", bets={1: 11})
    assert round_.phase is Phase.INSURANCE
    assert round_.pending_insurance() == [1]
    assert round_.legal_actions(1) == ("insurance", "no_insurance")
    with pytest.raises(IllegalAction) as refused:
        round_.insurance(1, 4)
    assert refused.value.code is ErrorCode.BAD_AMOUNT
    event = round_.insurance(1)
    assert event.chips == -5 and round_.seats[1].insurance == 5


def test_atlantic_city_does_not_offer_insurance_when_half_the_bet_is_zero():
    round_ = rigged("atlantic-city", "9H AS 9D 7C", bets={1: 1})
    assert round_.phase is Phase.PLAYERS
    assert "insurance_taken" not in kinds(round_)


def test_insurance_pays_2_to_1_and_the_peek_ends_the_round():
    round_ = rigged("atlantic-city", "9H AS 9D KC")
    round_.insurance(1)
    assert round_.phase is Phase.SETTLED
    assert kinds(round_)[-6:] == [
        "insurance_taken", "peek", "insurance_settled", "hole_card_revealed", "settle", "round_settled",
    ]
    assert kinds(round_).index("insurance_taken") < kinds(round_).index("peek")
    assert outcomes(round_) == ["lose"]
    assert round_.seats[1].stack == 100  # -10 bet, -5 insurance, +15 insurance pays


def test_lost_insurance_is_settled_at_the_peek_and_play_goes_on():
    round_ = rigged("atlantic-city", "9H AS 9D 7C")
    round_.insurance(1)
    assert round_.phase is Phase.PLAYERS
    settled = [e for e in round_.events if e.kind == "insurance_settled"]
    assert [(e.outcome, e.chips) for e in settled] == [("lose", 0)]
    assert not round_.hole_revealed


def test_a_dealer_blackjack_under_a_ten_is_found_by_the_peek_before_anyone_acts():
    round_ = rigged("atlantic-city", "9H KS 9D AC")
    assert round_.phase is Phase.SETTLED
    peek = next(e for e in round_.events if e.kind == "peek")
    assert peek.outcome == "blackjack"
    assert round_.hole_revealed and outcomes(round_) == ["lose"]


def test_a_player_natural_pushes_against_a_peeked_dealer_blackjack():
    round_ = rigged("atlantic-city", "AH KS TD AC")
    assert outcomes(round_) == ["push"] and round_.seats[1].stack == 100


def test_rocket_peeks_but_shows_the_hole_card_only_when_it_makes_blackjack():
    round_ = rigged("rocket-academy", "9H AS 9D 7C 8C")
    assert round_.phase is Phase.PLAYERS  # no insurance at rocket-academy
    assert [e.outcome for e in round_.events if e.kind == "peek"] == ["no_blackjack"]
    assert not round_.hole_revealed and round_.dealer_cards() == ["AS"]
    round_.stand(1)
    assert round_.hole_revealed and round_.dealer_cards() == ["AS", "7C"]


def test_rocket_ends_the_round_at_a_peeked_blackjack_with_no_insurance_offered():
    round_ = rigged("rocket-academy", "9H AS 9D KC")
    assert round_.phase is Phase.SETTLED
    assert "insurance_taken" not in kinds(round_) and outcomes(round_) == ["lose"]


def test_internet_tables_do_not_peek_so_players_act_into_a_dealer_blackjack():
    round_ = rigged("internet-6", "9H TS 9D AC")
    assert round_.phase is Phase.PLAYERS
    assert "peek" not in kinds(round_)
    round_.stand(1)
    assert outcomes(round_) == ["lose"] and round_.dealer.cards == ["TS", "AC"]


def test_internet_insurance_is_any_stake_from_1_to_half_the_bet():
    round_ = rigged("internet-7", "9H AS 9D KC", bets={1: 10})
    for bad in (0, 6):
        assert not round_.can_insurance(1, bad)
        with pytest.raises(IllegalAction) as refused:
            round_.insurance(1, bad)
        assert refused.value.code is ErrorCode.BAD_AMOUNT
    round_.insurance(1, 3)
    # No peek: insurance is settled when the hole card is turned, after play.
    assert round_.phase is Phase.PLAYERS
    round_.stand(1)
    won = next(e for e in round_.events if e.kind == "insurance_settled")
    assert (won.outcome, won.chips) == ("win", 9)
    assert round_.seats[1].stack == 100 - 10 - 3 + 9


def test_internet_insurance_is_offered_before_any_third_card():
    round_ = rigged("internet-7", "9H AS 5D 7C 3C")
    with pytest.raises(IllegalAction) as refused:
        round_.hit(1)
    assert refused.value.code is ErrorCode.OUT_OF_TURN
    round_.decline_insurance(1)
    round_.hit(1)
    assert round_.seats[1].hands[0].cards == ["9H", "5D", "3C"]


def test_insurance_is_answered_once_and_only_when_offered():
    round_ = rigged("atlantic-city", "9H AS 9D 7C")
    round_.decline_insurance(1)
    with pytest.raises(IllegalAction) as refused:
        round_.insurance(1)
    assert refused.value.code is ErrorCode.ILLEGAL_ACTION
    calm = rigged("atlantic-city", "9H 8S 9D 7C")
    assert not calm.can_insurance(1)


def test_a_seat_that_cannot_pay_for_insurance_is_not_offered_it():
    round_ = rigged("atlantic-city", "9H AS 9D 7C", bets={1: 10}, stacks={1: 14})
    assert round_.phase is Phase.PLAYERS


def test_internet_caps_the_default_insurance_at_the_stack():
    round_ = rigged("internet-6", "9H AS 9D 7C", bets={1: 20}, stacks={1: 23})
    assert round_.insurance(1).chips == -3


def test_internet_pays_a_natural_at_once_when_the_dealer_cannot_have_blackjack():
    round_ = rigged("internet-6", "AH 5C 9S KD 6S TD", bets={1: 5, 2: 10}, stacks={1: 100, 2: 100})
    # Seat 2 has not acted yet, and seat 1 is already paid 3:2 rounded down.
    assert round_.to_act() == (2, 0)
    assert round_.seats[1].hands[0].outcome == "blackjack" and round_.seats[1].stack == 107


def test_internet_holds_a_natural_against_a_ten_and_pushes_it_against_blackjack():
    round_ = rigged("internet-6", "AH TC KD AS")
    assert round_.phase is Phase.SETTLED  # nobody else to act
    assert outcomes(round_) == ["push"] and chips_by_seat(round_, 1) == 0


def test_internet_pays_a_waiting_natural_when_the_hole_card_is_no_blackjack():
    round_ = rigged("internet-6", "AH TC KD 6S 5D", bets={1: 10})
    assert outcomes(round_) == ["blackjack"] and round_.seats[1].stack == 115
    # The waiting natural was still live, so the dealer played out the hand.
    assert round_.dealer.cards == ["TC", "6S", "5D"]
