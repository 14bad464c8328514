"""Spot checks of basic strategy against the cited Wizard of Odds charts."""

from __future__ import annotations

import pytest

from tables.engine import PROFILES, basic_strategy
from tables.engine.strategy import MULTI_DECK_S17_DAS, SINGLE_DECK_S17_DAS, chart_for

ALL = ("hit", "stand", "double", "split", "surrender")
NO_SURRENDER = ("hit", "stand", "double", "split")
AC = PROFILES["atlantic-city"]
NET = PROFILES["internet-6"]
ROCKET = PROFILES["rocket-academy"]


@pytest.mark.parametrize(
    ("rules", "cards", "up", "legal", "play"),
    [
        (AC, "TH 6S", "TD", NO_SURRENDER, "hit"),
        (ROCKET, "TH 6S", "TD", ALL, "surrender"),
        (ROCKET, "TH 6S", "TD", ("hit", "stand"), "hit"),
        (AC, "6H 5S", "AD", NO_SURRENDER, "hit"),  # 8 decks S17: 11 v A hits
        (ROCKET, "6H 5S", "AD", ALL, "double"),  # single deck: 11 v A doubles
        (AC, "AH 7S", "2D", NO_SURRENDER, "stand"),
        (AC, "AH 7S", "3D", NO_SURRENDER, "double"),
        (AC, "AH 4C 3S", "3D", ("hit", "stand"), "stand"),  # Ds: stand when double is not allowed
        (AC, "AH 7S", "9D", NO_SURRENDER, "hit"),
        (ROCKET, "AH 7S", "AD", ALL, "stand"),
        (AC, "AH 8S", "6D", NO_SURRENDER, "stand"),
        (ROCKET, "AH 8S", "6D", ALL, "double"),
        (AC, "8H 8S", "AD", NO_SURRENDER, "split"),
        (AC, "9H 9S", "7D", NO_SURRENDER, "stand"),
        (AC, "9H 9S", "8D", NO_SURRENDER, "split"),
        (NET, "KH QS", "6D", NO_SURRENDER, "stand"),
        (AC, "AH AS", "TD", NO_SURRENDER, "split"),
        (AC, "AH AS", "TD", ("hit", "stand"), "hit"),  # no re-split: soft 12
        (AC, "5H 5S", "9D", NO_SURRENDER, "double"),
        (AC, "4H 4S", "5D", NO_SURRENDER, "split"),
        (AC, "4H 4S", "5D", ("hit", "stand", "double"), "hit"),  # hard 8 in a shoe game
        (ROCKET, "4H 4S", "5D", ("hit", "stand", "double", "surrender"), "double"),  # hard 8 single deck
        (AC, "2H TS", "3D", NO_SURRENDER, "hit"),
        (AC, "2H TS", "4D", NO_SURRENDER, "stand"),
        (AC, "5H 4S", "2D", NO_SURRENDER, "hit"),
        (ROCKET, "5H 4S", "2D", ALL, "double"),
        (ROCKET, "7H 7S", "TD", ALL, "surrender"),
        (ROCKET, "7H 7S", "TD", ("hit", "stand", "double", "split"), "stand"),
        (AC, "TH 7S", "AD", NO_SURRENDER, "stand"),
        (AC, "2H 3S", "6D", NO_SURRENDER, "hit"),
    ],
)
def test_it_plays_the_chart(rules, cards, up, legal, play):
    assert basic_strategy(rules, cards.split(), up, legal) == play


def test_each_profile_uses_the_chart_for_its_number_of_decks():
    assert chart_for(PROFILES["rocket-academy"]) is SINGLE_DECK_S17_DAS
    for slug in ("atlantic-city", "atlantic-city-multi", "internet-6", "internet-7"):
        assert chart_for(PROFILES[slug]) is MULTI_DECK_S17_DAS


def test_every_chart_cites_its_source_and_covers_every_up_card():
    for chart in (MULTI_DECK_S17_DAS, SINGLE_DECK_S17_DAS):
        assert chart.source.startswith("https://wizardofodds.com/")
        assert sorted(chart.hard) == list(range(8, 17))
        assert sorted(chart.soft) == list(range(13, 20))
        assert sorted(chart.pairs) == list(range(1, 11))
        for row in (*chart.hard.values(), *chart.soft.values(), *chart.pairs.values()):
            assert len(row) == 10 and set(row) <= {"H", "S", "D", "Ds", "P", "Rh", "Rs"}


def test_it_never_answers_with_an_action_that_is_not_legal():
    for up in ("2S", "6S", "9S", "TS", "AS"):
        for first in ("AH", "5H", "8H", "TH"):
            for second in ("AD", "5D", "6D", "8D", "TD"):
                for legal in (("hit", "stand"), NO_SURRENDER, ALL):
                    for rules in (AC, ROCKET):
                        assert basic_strategy(rules, [first, second], up, legal) in legal
