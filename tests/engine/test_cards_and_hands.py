from __future__ import annotations

import pytest

from tables.engine import DECK, VALUE, hand_total, hand_value, is_natural, parse_card
from tables.engine.hand import Hand


def test_a_deck_has_52_distinct_cards_in_canonical_order():
    assert len(DECK) == len(set(DECK)) == 52
    assert DECK[:3] == ("AS", "2S", "3S")
    assert DECK[13] == "AH" and DECK[-1] == "KC"


def test_court_cards_count_ten_and_the_ace_counts_one_before_softening():
    assert [VALUE[c] for c in ("TS", "JH", "QD", "KC", "AS", "9S", "2H")] == [10, 10, 10, 10, 1, 9, 2]


def test_it_parses_cards_leniently_and_refuses_non_cards():
    assert parse_card("ah") == "AH"
    assert parse_card("10d") == "TD"
    for bad in ("1H", "AX", "", "AHH", None):
        with pytest.raises(ValueError):
            parse_card(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("cards", "total", "soft"),
    [
        (["AS", "6H"], 17, True),
        (["AS", "6H", "TD"], 17, False),
        (["AS", "AH"], 12, True),
        (["AS", "AH", "9C"], 21, True),
        (["AS", "AH", "AD", "AC", "7S"], 21, True),
        (["TS", "6H", "8D"], 24, False),
        (["KS", "QH"], 20, False),
        (["5S", "6H"], 11, False),
    ],
)
def test_it_counts_the_best_total_and_says_whether_it_is_soft(cards, total, soft):
    assert hand_value(cards) == (total, soft)
    assert hand_total(cards) == total
    hand = Hand(0, cards)
    assert (hand.total, hand.soft) == (total, soft)


def test_only_two_cards_making_21_are_a_natural():
    assert is_natural(["AS", "KD"])
    assert is_natural(["TH", "AC"])
    assert not is_natural(["7S", "7H", "7D"])
    assert not is_natural(["AS", "9D"])


def test_a_hand_is_busted_over_21_and_then_no_longer_live():
    hand = Hand(10, ["TS", "6H"])
    assert hand.live and not hand.busted
    hand.add("8D")
    assert hand.busted and not hand.live
