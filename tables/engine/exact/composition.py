"""Shoe compositions: how many cards of each point value are left to deal.

The exact analyser works on point values (ace = 1, 2..9, ten-value = 10): the
outcome of every hand depends only on them. A composition is a tuple of ten
counts, index 0 for aces up to index 9 for the ten-value cards (T, J, Q, K).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..cards import RANKS

#: Index of each rank in a composition: A -> 0, 2 -> 1, ..., 9 -> 8, T/J/Q/K -> 9.
RANK_INDEX: dict[str, int] = {rank: min(position, 9) for position, rank in enumerate(RANKS)}
#: The rank letter written for each index (ten-value cards as "T").
INDEX_RANK = "A23456789T"


def card_index(card: str) -> int:
    """The composition index of a card or rank: ``"AS"``, ``"K"``, ``"10"``, ``"t"``."""
    text = str(card).strip().upper()
    if text.startswith("10"):
        text = "T" + text[2:]
    if not text or text[0] not in RANK_INDEX or len(text) > 2 or (len(text) == 2 and text[1] not in "SHDC"):
        raise ValueError(f"{card!r} is not a card: use a rank from {RANKS}, optionally with a suit, e.g. 'K' or 'KS'")
    return RANK_INDEX[text[0]]


@dataclass(frozen=True, slots=True)
class Composition:
    """Cards left in the shoe by point value: ``counts[0]`` aces ... ``counts[9]`` ten-values."""

    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.counts) != 10 or any(type(n) is not int or n < 0 for n in self.counts):
            raise ValueError("a composition is ten whole counts, aces first and ten-values last")

    @classmethod
    def full(cls, decks: int) -> Composition:
        """A fresh shoe of ``decks`` 52-card decks."""
        if type(decks) is not int or decks < 1:
            raise ValueError("a shoe holds at least one deck")
        return cls((4 * decks,) * 9 + (16 * decks,))

    @classmethod
    def from_ranks(cls, counts: Mapping[str, int]) -> Composition:
        """From counts keyed by rank (``{"A": 4, "K": 4, "T": 4, ...}``); ten-values add up."""
        totals = [0] * 10
        for rank, number in counts.items():
            totals[card_index(rank)] += number
        return cls(tuple(totals))

    @property
    def size(self) -> int:
        return sum(self.counts)

    def without(self, cards: Iterable[str | int]) -> Composition:
        """This composition with ``cards`` (card strings, ranks or indexes) taken out."""
        left = list(self.counts)
        for card in cards:
            index = card if isinstance(card, int) else card_index(card)
            if left[index] == 0:
                raise ValueError(f"the shoe holds no more {INDEX_RANK[index]} to take out")
            left[index] -= 1
        return Composition(tuple(left))

    def __str__(self) -> str:
        return " ".join(f"{rank}:{n}" for rank, n in zip(INDEX_RANK, self.counts))
