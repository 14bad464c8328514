"""The rule profiles of RULES.md as values of one frozen dataclass."""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any


class InsuranceRule(StrEnum):
    NONE = "none"
    #: The stake is exactly floor(bet / 2); not offered when that is 0 (atlantic-city).
    HALF_BET = "half_bet"
    #: Any stake from 1 to floor(bet / 2) (internet).
    UP_TO_HALF = "up_to_half"


class SplitBy(StrEnum):
    RANK = "rank"  # K-K yes, K-Q no
    VALUE = "value"  # any two ten-value cards


class SplitAces(StrEnum):
    ONE_CARD = "one_card"  # one card each, no further action
    PLAY_ON = "play_on"  # played like any other hand


class Surrender(StrEnum):
    NONE = "none"
    LATE = "late"  # after the peek, on a two-card hand that has not acted


@dataclass(frozen=True, kw_only=True, slots=True)
class RuleSet:
    """Everything the engine needs to know about a table's game.

    Table minimum/maximum bets and timers are table settings, not rules.
    """

    slug: str
    name: str
    decks: int
    seats: int
    #: How many of a table's seats one account may hold at once: 1 at most tables;
    #: at rocket-academy every seat (RULES.md: "one account may hold several seats",
    #: the seed's "number of players" at one screen).
    seats_per_player: int
    #: Reshuffle before the next round once this fraction of the shoe has been
    #: dealt (the cut card); ``None``: a fresh shoe every round.
    penetration: Fraction | None
    dealer_peek: bool
    #: The peek shows the hole card to the players only when it makes blackjack.
    peek_reveals_only_blackjack: bool
    #: Against a dealer blackjack a seat loses only its original bet (OBO).
    original_bets_only: bool
    insurance: InsuranceRule
    #: Whether a two-card 21 may be doubled (moot where 21 ends the hand at once).
    double_on_21: bool
    #: The extra stake of a double may be anything from 1 chip to the hand's bet.
    double_for_less: bool
    double_after_split: bool
    split_by: SplitBy
    #: Most hands one seat may hold after splitting (2 = split once, no re-split).
    max_hands: int
    split_aces: SplitAces
    resplit_aces: bool
    surrender: Surrender
    blackjack_pays: Fraction = Fraction(3, 2)
    dealer_hits_soft_17: bool = False

    def cut_card(self, shoe_size: int | None = None) -> int | None:
        """Cards dealt from a fresh shoe after which the next round reshuffles."""
        if self.penetration is None:
            return None
        size = self.decks * 52 if shoe_size is None else shoe_size
        return math.ceil(self.penetration * size)

    def rule_lines(self) -> list[str]:
        """The key rules in plain words, for the lobby."""
        lines = [
            f"{self.decks} deck{'s' if self.decks > 1 else ''}, "
            + ("a fresh shuffle every round" if self.penetration is None
               else f"reshuffled once {self.cut_card()} of {self.decks * 52} cards are dealt"),
            (
                f"Blackjack pays {self.blackjack_pays.numerator}:{self.blackjack_pays.denominator}, "
                "fractions of a chip go to the house"
            ),
            "Dealer hits soft 17" if self.dealer_hits_soft_17 else "Dealer stands on all 17s",
        ]
        if self.dealer_peek:
            lines.append("Dealer peeks for blackjack with an ace or ten up")
        else:
            lines.append("No peek: a dealer blackjack is found when the hole card is turned")
        if self.original_bets_only:
            lines.append("Against a dealer blackjack you lose only your original bet")
        lines.append({
            InsuranceRule.NONE: "No insurance",
            InsuranceRule.HALF_BET: "Insurance of half your bet against an ace, pays 2:1",
            InsuranceRule.UP_TO_HALF: "Insurance of up to half your bet against an ace, pays 2:1",
        }[self.insurance])
        double = "Double on any first two cards"
        if not self.double_on_21:
            double += " except a 21"
        if self.double_for_less:
            double += ", for less if you like"
        if self.double_after_split:
            double += ", after splits too"
        lines.append(double)
        pair = "same rank" if self.split_by is SplitBy.RANK else "same value"
        lines.append(
            f"Split pairs of the {pair}, "
            + ("once" if self.max_hands == 2 else f"up to {self.max_hands} hands")
        )
        lines.append(
            "Split aces get one card each" if self.split_aces is SplitAces.ONE_CARD
            else "Split aces are played like any hand"
        )
        if self.surrender is Surrender.LATE:
            lines.append("Surrender any two-card hand for half your bet back")
        return lines

    def to_json(self) -> dict[str, Any]:
        # Stored with a round after every play: made once per rule set (they are frozen), a copy for each caller.
        return dict(_json_of(self))

    def _to_json(self) -> dict[str, Any]:
        data = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if isinstance(value, Fraction):
                value = str(value)
            data[field.name] = value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RuleSet:
        # Read with a round before every play: the same JSON gives the same (frozen) rule set, made once.
        key = tuple(data.items())
        try:
            hash(key)
        except TypeError:  # not plain JSON scalars: made afresh (and checked) as any other
            return cls._from_json(data)
        return _read(cls, key)

    @classmethod
    def _from_json(cls, data: dict[str, Any]) -> RuleSet:
        values = dict(data)
        if "seats_per_player" not in values:
            # Rules stored before the field existed: the profile's own value.
            known = PROFILES.get(values.get("slug", ""))
            values["seats_per_player"] = known.seats_per_player if known is not None else 1
        for key in ("penetration", "blackjack_pays"):
            if values.get(key) is not None:
                values[key] = Fraction(values[key])
        values["insurance"] = InsuranceRule(values["insurance"])
        values["split_by"] = SplitBy(values["split_by"])
        values["split_aces"] = SplitAces(values["split_aces"])
        values["surrender"] = Surrender(values["surrender"])
        return cls(**values)



@functools.lru_cache(maxsize=64)
def _json_of(rules: RuleSet) -> dict[str, Any]:
    return rules._to_json()


@functools.lru_cache(maxsize=64)
def _read(cls: type[RuleSet], items: tuple) -> RuleSet:
    return cls._from_json(dict(items))


_ATLANTIC_CITY = RuleSet(
    slug="atlantic-city",
    name="Atlantic City",
    decks=8,
    seats=1,
    seats_per_player=1,
    penetration=None,
    dealer_peek=True,
    peek_reveals_only_blackjack=True,
    original_bets_only=False,
    insurance=InsuranceRule.HALF_BET,
    double_on_21=True,
    double_for_less=False,
    double_after_split=True,
    split_by=SplitBy.RANK,
    max_hands=2,
    split_aces=SplitAces.ONE_CARD,
    resplit_aces=False,
    surrender=Surrender.NONE,
)

_INTERNET_7 = RuleSet(
    slug="internet-7",
    name="Internet casino, 7 seats",
    decks=6,
    seats=7,
    seats_per_player=1,
    penetration=Fraction(3, 4),
    dealer_peek=False,
    peek_reveals_only_blackjack=True,
    original_bets_only=True,
    insurance=InsuranceRule.UP_TO_HALF,
    double_on_21=False,
    double_for_less=True,
    double_after_split=True,
    split_by=SplitBy.VALUE,
    max_hands=3,
    split_aces=SplitAces.ONE_CARD,
    resplit_aces=False,
    surrender=Surrender.NONE,
)

PROFILES: dict[str, RuleSet] = {
    rules.slug: rules
    for rules in (
        _ATLANTIC_CITY,
        dataclasses.replace(
            _ATLANTIC_CITY, slug="atlantic-city-multi", name="Atlantic City, 5 seats",
            seats=5, penetration=Fraction(139, 416),
        ),
        _INTERNET_7,
        dataclasses.replace(
            _INTERNET_7, slug="internet-6", name="Internet casino, 6 seats", seats=6, max_hands=4,
        ),
        RuleSet(
            slug="rocket-academy",
            name="Rocket Academy single deck",
            decks=1,
            seats=7,
            seats_per_player=7,
            penetration=None,
            dealer_peek=True,
            peek_reveals_only_blackjack=True,
            original_bets_only=False,
            insurance=InsuranceRule.NONE,
            double_on_21=True,
            double_for_less=False,
            double_after_split=True,
            split_by=SplitBy.RANK,
            max_hands=2,
            split_aces=SplitAces.PLAY_ON,
            resplit_aces=False,
            surrender=Surrender.LATE,
        ),
    )
}
