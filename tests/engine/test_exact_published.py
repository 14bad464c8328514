"""The exact analyser against published exact figures (docs/engine.md cites every source).

Single decisions agree to 1e-6 (the sources print six decimals), whole games to
0.005 percentage points.
"""

from __future__ import annotations

import dataclasses

import pytest

from tables.engine import PROFILES
from tables.engine.exact import Composition, action_evs, house_edge
from tables.engine.exact.analysis import solver_for
from tables.engine.exact.split import split_value

US = PROFILES["atlantic-city"]  # peek, DAS, split aces once, no surrender


def us_rules(decks: int, hits_soft_17: bool = False, **changes: object) -> object:
    return dataclasses.replace(US, decks=decks, dealer_hits_soft_17=hits_soft_17, max_hands=4, **changes)


def test_ten_six_against_a_ten_in_eight_decks_matches_the_wizard():
    # Wizard of Odds hand calculator, 8 decks, S17; given no dealer blackjack.
    evs = action_evs(US, None, ["T", "6"], "T")
    assert evs["stand"] == pytest.approx(-0.540827, abs=1e-6)
    assert evs["hit"] == pytest.approx(-0.535975, abs=1e-6)


# Wizard of Odds, Blackjack Appendix 9 (dealer ace, given no dealer blackjack): stand, hit, double.
APPENDIX_9 = [
    ("1ds17r4", 1, False, "A,2", -0.661732, -0.067808, -0.593281),
    ("1ds17r4", 1, False, "A,3", -0.661047, -0.100568, -0.595803),
    ("1ds17r4", 1, False, "6,5", -0.634013, 0.172946, 0.240259),
    ("1ds17r4", 1, False, "7,A", -0.101015, -0.108386, -0.357778),
    ("1ds17r4", 1, False, "7,2", -0.645559, -0.082785, -0.402057),
    ("1ds17r4", 1, False, "6,4", -0.636118, 0.081506, 0.048615),
    ("5ds17r4", 5, False, "2,A", -0.666073, -0.059817, -0.618525),
    ("5ds17r4", 5, False, "6,4", -0.661223, 0.081318, -0.002174),
    ("5ds17r4", 5, False, "6,5", -0.660850, 0.148532, 0.133896),
    ("1dh17r4", 1, True, "2,A", -0.589084, -0.107929, -0.552040),
    ("1dh17r4", 1, True, "3,2", -0.584988, -0.322592, -1.169976),
    ("1dh17r4", 1, True, "7,A", -0.223909, -0.173175, -0.414678),
    ("2dh17r4", 2, True, "2,A", -0.594150, -0.103429, -0.571816),
    ("2dh17r4", 2, True, "6,4", -0.587412, 0.038312, -0.003909),
    ("5dh17r4", 5, True, "2,A", -0.596923, -0.100728, -0.583036),
    ("5dh17r4", 5, True, "7,3", -0.593574, 0.034084, -0.026078),
]


@pytest.mark.parametrize(("page", "decks", "h17", "hand", "stand", "hit", "double"), APPENDIX_9)
def test_hands_against_an_ace_match_appendix_9(page, decks, h17, hand, stand, hit, double):
    evs = action_evs(us_rules(decks, h17), None, hand.split(","), "A")
    assert (evs["stand"], evs["hit"], evs["double"]) == pytest.approx((stand, hit, double), abs=1e-6)


@pytest.mark.parametrize(
    ("hand", "stand"),
    [("A,A", -0.665322), ("2,A", -0.664614), ("2,2", -0.663878), ("4,4", -0.661113), ("6,A", -0.480381),
     ("6,3", -0.653202)],
)
def test_standing_against_an_ace_in_two_decks_matches_nairn(hand, stand):
    # John Nairn, "Two Deck Blackjack Expected Values" (S17), standing, given no dealer blackjack.
    assert action_evs(us_rules(2), None, hand.split(","), "A")["stand"] == pytest.approx(stand, abs=1e-6)


def test_a_resplit_to_four_hands_in_a_small_shoe_matches_farmer():
    # Eric Farmer's calculator 6.3 (blackjackinfo.com, "Software update with new split EVs"):
    # shoe A-T = 0 4 4 2 0 0 2 0 0 7, S17, DAS, re-split to 4 hands, CDZ-; 2-2 against a 7.
    rules = us_rules(1)
    shoe = Composition((0, 4, 4, 2, 0, 0, 2, 0, 0, 7))
    evs = action_evs(rules, shoe, ["2", "2"], "7")
    assert evs["stand"] == pytest.approx(-0.61639194139, abs=1e-10)
    assert evs["hit"] == pytest.approx(-0.13266733267, abs=1e-10)
    assert evs["double"] == pytest.approx(-1.23278388278, abs=1e-10)
    # Farmer re-splits every pair card; the analyser's own split value declines the
    # re-splits when that is worth more (here: splitting is not the play).
    forced = split_value(solver_for(rules, shoe.counts, 6), 1, "optimal")
    assert forced == pytest.approx(-0.76210220335, abs=1e-10)
    assert evs["split"] > forced


@pytest.mark.parametrize(
    ("rules", "edge_pct"),
    [
        # Wizard of Odds, Appendix 9, "expected return of game" (player's view, so the sign flips).
        (us_rules(1), -0.1839),  # 1 deck, S17, DAS, re-split to 4 except aces
        (us_rules(1, True, double_after_split=False), 0.1513),  # 1 deck, H17, no DAS, re-split to 4
    ],
    ids=["1ds17r4-das", "1dh17r4-nodas"],
)
def test_whole_game_edges_match_appendix_9(rules, edge_pct):
    assert 100 * house_edge(rules) == pytest.approx(edge_pct, abs=0.005)
