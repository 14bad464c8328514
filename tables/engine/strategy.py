"""Basic strategy for each profile: hit, stand, double, split, surrender.

Charts (total-dependent; dealer up-card columns 2 3 4 5 6 7 8 9 T A):

* ``MULTI_DECK_S17_DAS`` -- atlantic-city, atlantic-city-multi (8 decks) and
  internet-6/7 (6 decks). Source: Wizard of Odds, "4-Deck to 8-Deck Blackjack
  Strategy", chart "dealer stands on soft 17", with its text form ("Surrender
  hard 16 (but not a pair of 8s) vs. dealer 9, 10, or A, and hard 15 vs.
  dealer 10; always split aces and 8s; split 2s and 3s against a dealer 4-7,
  and against a 2 or 3 if DAS is allowed; ..."),
  https://wizardofodds.com/games/blackjack/strategy/4-decks/. The internet
  tables deal no hole card, but lose only original bets to a dealer blackjack
  (OBO), which is worth exactly the same to the player as the peek, so the peek
  chart is the right one (Wizard of Odds, "Blackjack rule variations": "OBO").
  Their re-split limits are handled by falling back to the total when a split
  is refused; their double-for-less is always taken for the full bet.
* ``SINGLE_DECK_S17_DAS`` -- rocket-academy (1 deck, late surrender, split
  aces played on). Source: Wizard of Odds, "Single-Deck Blackjack Strategy",
  dealer stands on soft 17, double after split allowed, late surrender
  (https://wizardofodds.com/games/blackjack/strategy/1-deck/).

Codes: H hit, S stand, P split, D double else hit, Ds double else stand,
Rh surrender else hit, Rs surrender else stand. Insurance is never taken
(both sources: "never take insurance or even money").
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from .cards import VALUE
from .hand import hand_value
from .rules import RuleSet

#: Dealer up-card -> chart column: 2..9 -> 0..7, ten-values -> 8, ace -> 9.
UP_COLUMN: dict[str, int] = {card: (9 if value == 1 else value - 2) for card, value in VALUE.items()}


def _rows(text: str) -> dict[int, tuple[str, ...]]:
    rows = {}
    for line in text.strip().splitlines():
        head, cells = line.split(":")
        row = tuple(cells.split())
        assert len(row) == 10, line
        rows[int(head)] = row
    return rows


@dataclass(frozen=True)
class Chart:
    name: str
    source: str
    hard: dict[int, tuple[str, ...]]  # hard total 8..17 (below: hit, above: stand)
    soft: dict[int, tuple[str, ...]]  # soft total 13..20 (12 = A-A unsplit: hit)
    pairs: dict[int, tuple[str, ...]]  # pair of card value 1 (aces) .. 10

    def code(self, cards: Sequence[str], up_card: str, may_split: bool) -> str:
        column = UP_COLUMN[up_card]
        if may_split and len(cards) == 2:
            return self.pairs[VALUE[cards[0]]][column]
        total, soft = hand_value(cards)
        if soft:
            if total >= 20:
                return "S"
            return self.soft[total][column] if total >= 13 else "H"
        if total >= 17:
            return "S"
        return self.hard[total][column] if total >= 8 else "H"


MULTI_DECK_S17_DAS = Chart(
    name="4-8 decks, dealer stands on soft 17, double after split, late surrender where offered",
    source="https://wizardofodds.com/games/blackjack/strategy/4-decks/",
    hard=_rows("""
        8:  H  H  H  H  H  H  H  H  H  H
        9:  H  D  D  D  D  H  H  H  H  H
        10: D  D  D  D  D  D  D  D  H  H
        11: D  D  D  D  D  D  D  D  D  H
        12: H  H  S  S  S  H  H  H  H  H
        13: S  S  S  S  S  H  H  H  H  H
        14: S  S  S  S  S  H  H  H  H  H
        15: S  S  S  S  S  H  H  H  Rh H
        16: S  S  S  S  S  H  H  Rh Rh Rh
    """),
    soft=_rows("""
        13: H  H  H  D  D  H  H  H  H  H
        14: H  H  H  D  D  H  H  H  H  H
        15: H  H  D  D  D  H  H  H  H  H
        16: H  H  D  D  D  H  H  H  H  H
        17: H  D  D  D  D  H  H  H  H  H
        18: S  Ds Ds Ds Ds S  S  H  H  H
        19: S  S  S  S  S  S  S  S  S  S
    """),
    pairs=_rows("""
        1:  P  P  P  P  P  P  P  P  P  P
        2:  P  P  P  P  P  P  H  H  H  H
        3:  P  P  P  P  P  P  H  H  H  H
        4:  H  H  H  P  P  H  H  H  H  H
        5:  D  D  D  D  D  D  D  D  H  H
        6:  P  P  P  P  P  H  H  H  H  H
        7:  P  P  P  P  P  P  H  H  H  H
        8:  P  P  P  P  P  P  P  P  P  P
        9:  P  P  P  P  P  S  P  P  S  S
        10: S  S  S  S  S  S  S  S  S  S
    """),
)

SINGLE_DECK_S17_DAS = Chart(
    name="1 deck, dealer stands on soft 17, double after split, late surrender",
    source="https://wizardofodds.com/games/blackjack/strategy/1-deck/",
    hard=_rows("""
        8:  H  H  H  D  D  H  H  H  H  H
        9:  D  D  D  D  D  H  H  H  H  H
        10: D  D  D  D  D  D  D  D  H  H
        11: D  D  D  D  D  D  D  D  D  D
        12: H  H  S  S  S  H  H  H  H  H
        13: S  S  S  S  S  H  H  H  H  H
        14: S  S  S  S  S  H  H  H  H  H
        15: S  S  S  S  S  H  H  H  Rh H
        16: S  S  S  S  S  H  H  H  Rh Rh
    """),
    soft=_rows("""
        13: H  H  D  D  D  H  H  H  H  H
        14: H  H  D  D  D  H  H  H  H  H
        15: H  H  D  D  D  H  H  H  H  H
        16: H  H  D  D  D  H  H  H  H  H
        17: D  D  D  D  D  H  H  H  H  H
        18: S  Ds Ds Ds Ds S  S  H  H  S
        19: S  S  S  S  Ds S  S  S  S  S
    """),
    pairs=_rows("""
        1:  P  P  P  P  P  P  P  P  P  P
        2:  P  P  P  P  P  P  H  H  H  H
        3:  P  P  P  P  P  P  H  H  H  H
        4:  H  H  P  P  P  H  H  H  H  H
        5:  D  D  D  D  D  D  D  D  H  H
        6:  P  P  P  P  P  P  H  H  H  H
        7:  P  P  P  P  P  P  P  H  Rs H
        8:  P  P  P  P  P  P  P  P  P  P
        9:  P  P  P  P  P  S  P  P  S  S
        10: S  S  S  S  S  S  S  S  S  S
    """),
)

_FALLBACK = {"D": ("double", "hit"), "Ds": ("double", "stand"), "Rh": ("surrender", "hit"),
             "Rs": ("surrender", "stand"), "P": ("split", "hit")}
_PLAIN = {"H": "hit", "S": "stand"}


def chart_for(rules: RuleSet) -> Chart:
    return SINGLE_DECK_S17_DAS if rules.decks == 1 else MULTI_DECK_S17_DAS


def basic_strategy(rules: RuleSet, cards: Sequence[str], up_card: str, legal: Collection[str]) -> str:
    """The basic-strategy play for ``cards`` against ``up_card``, among ``legal`` actions.

    A pair whose split is refused (re-split limit, chips) is played as its total;
    a double or surrender that is not allowed falls back as its code says.
    """
    chart = chart_for(rules)
    # Ask about a split only for a pair: ``legal`` may be a lazy view (see simulate.py).
    may_split = len(cards) == 2 and VALUE[cards[0]] == VALUE[cards[1]] and "split" in legal
    code = chart.code(cards, up_card, may_split)
    plain = _PLAIN.get(code)
    if plain is not None:
        return plain
    wanted, fallback = _FALLBACK[code]
    return wanted if wanted in legal else fallback
