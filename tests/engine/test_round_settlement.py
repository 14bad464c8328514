from __future__ import annotations

from collections import Counter

from tables.engine import Phase

from .rigged import chips_by_seat, outcomes, rigged


def test_it_pays_blackjack_3_to_2_rounded_down():
    assert rigged("atlantic-city", "AS 9H KD 7C", bets={1: 5}).seats[1].stack == 107
    assert rigged("atlantic-city", "AS 9H KD 7C", bets={1: 1}).seats[1].stack == 101
    assert rigged("atlantic-city", "AS 9H KD 7C", bets={1: 10}).seats[1].stack == 115


def test_a_paid_natural_leaves_the_dealer_nothing_to_draw_for():
    round_ = rigged("atlantic-city", "AS 9H KD 6C")
    assert round_.dealer.cards == ["9H", "6C"] and round_.hole_revealed


def test_a_win_pays_even_money_and_a_push_returns_the_stake():
    win = rigged("atlantic-city", "TH 9C 9D 8S")
    win.stand(1)
    assert outcomes(win) == ["win"] and win.seats[1].stack == 110
    push = rigged("atlantic-city", "TH 9C 8D 9S")
    push.stand(1)
    assert outcomes(push) == ["push"] and push.seats[1].stack == 100


def test_the_dealer_stands_on_soft_17():
    round_ = rigged("atlantic-city", "TH 6C 8D AS 2S")
    round_.stand(1)
    assert round_.dealer.cards == ["6C", "AS"]
    assert outcomes(round_) == ["win"]


def test_a_busted_hand_loses_even_when_the_dealer_busts():
    round_ = rigged("atlantic-city-multi", "TH 9S 6C 6D 8S TC 8C 7C", bets={1: 10, 2: 10})
    round_.hit(1)  # 16 + 8: bust
    round_.stand(2)  # seat 2 keeps the dealer drawing
    assert round_.dealer.cards == ["6C", "TC", "7C"]
    assert outcomes(round_, 1) == ["bust"] and outcomes(round_, 2) == ["win"]
    assert round_.seats[1].stack == 90


def test_the_dealer_does_not_draw_when_every_hand_is_busted():
    round_ = rigged("atlantic-city", "TH 6C 6D TC 8C 9C")
    round_.hit(1)
    assert round_.dealer.cards == ["6C", "TC"] and round_.hole_revealed
    assert outcomes(round_) == ["bust"]


def test_original_bets_only_returns_every_double_and_split_stake_against_a_dealer_blackjack():
    round_ = rigged("internet-6", "8H TD 8S AC 3D KC 5H 9S")
    round_.split(1)
    round_.double(1, 0)  # 8 3 K = 21, not a natural: it loses to blackjack
    round_.hit(1, 1)  # 8 5 9: bust, and its split stake still comes back
    assert round_.phase is Phase.SETTLED
    assert outcomes(round_) == ["lose", "bust"]
    settles = [(e.hand, e.chips) for e in round_.events if e.kind == "settle"]
    assert settles == [(0, 10), (1, 10)]
    assert round_.seats[1].stack == 90


def test_every_hand_is_settled_once_and_the_chips_add_up_to_the_net():
    round_ = rigged("internet-6", "8H TD 8S AC 3D KC 5H 9S")
    round_.split(1)
    round_.double(1, 0)
    round_.hit(1, 1)
    assert Counter(e.hand for e in round_.events if e.kind == "settle") == {0: 1, 1: 1}
    assert chips_by_seat(round_, 1) == round_.seats[1].net == -10
    assert round_.events[-1].kind == "round_settled"
    assert [e.seq for e in round_.events] == list(range(len(round_.events)))


def test_the_hole_card_is_dealt_face_down_and_revealed_at_the_end():
    round_ = rigged("atlantic-city", "TH 9C 9D 8S")
    deals = [e for e in round_.events if e.kind == "deal_card" and e.seat is None]
    assert [(e.card, e.face_up) for e in deals] == [("9C", True), ("8S", False)]
    assert round_.dealer_cards() == ["9C"]
    round_.stand(1)
    assert round_.events[-4].kind == "hole_card_revealed" or any(
        e.kind == "hole_card_revealed" and e.card == "8S" for e in round_.events
    )
    assert round_.dealer_cards() == ["9C", "8S"]


def test_the_result_view_gives_every_seat_and_the_dealer():
    round_ = rigged("atlantic-city", "TH 9C 9D 8S")
    round_.stand(1)
    result = round_.result()
    assert result.to_json() == {
        "seats": [{"seat": 1, "stack": 110, "net": 10, "insurance": 0,
                   "hands": [{"cards": ["TH", "9D"], "total": 19, "bet": 10, "outcome": "win"}]}],
        "dealer": {"cards": ["9C", "8S"], "total": 17},
    }
