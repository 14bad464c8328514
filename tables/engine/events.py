"""Events: the frozen records a round appends, which together are its hand history."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any, NamedTuple, TypeVar

E = TypeVar("E", bound=StrEnum)


def parser(enum: type[E]) -> Callable[[Any], E]:
    """`enum(value)` for a stored value, by one dict lookup: a round read back parses dozens per play.

    Any value that is not one of the members' gets the enum's own answer (its ValueError).
    """
    members = {member.value: member for member in enum}

    def parse(value: Any) -> E:
        try:
            return members[value]
        except (KeyError, TypeError):
            return enum(value)

    return parse


class EventKind(StrEnum):
    """What happened; the values are stored in hand histories, so they never change."""

    BET = "bet"  # chips: -stake
    PASS = "pass"
    LEFT_OUT = "left_out"  # silent through the betting window
    DEAL_CARD = "deal_card"  # seat None = the dealer; face_up False = the hole card
    INSURANCE_TAKEN = "insurance_taken"  # chips: -stake
    INSURANCE_DECLINED = "insurance_declined"
    PEEK = "peek"  # outcome: "blackjack" or "no_blackjack"
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"  # chips: -extra stake; the card follows as deal_card
    SPLIT = "split"  # chips: -stake of the new hand; card: the card moved to it
    SURRENDER = "surrender"
    HOLE_CARD_REVEALED = "hole_card_revealed"
    SHOE_RESHUFFLED = "shoe_reshuffled"  # the seeded shoe ran out mid-round
    INSURANCE_SETTLED = "insurance_settled"  # chips: +3 x stake when won, else 0
    SETTLE = "settle"  # one per hand; chips: what goes back to the seat (>= 0)
    ROUND_SETTLED = "round_settled"


class Actor(StrEnum):
    """Who took an action."""

    PLAYER = "player"
    TIMER = "timer"
    HOUSE = "house"


ACTORS = frozenset(actor.value for actor in Actor)


def check_actor(actor: str) -> None:
    """Every action records who took it: a player, the table's timer or the house."""
    if actor not in ACTORS:
        raise ValueError(f"actor must be 'player', 'timer' or 'house', not {actor!r}")


class Event(NamedTuple):
    """One thing that happened in a round.

    ``chips`` is the movement of chips for ``seat``: negative = seat to house
    (a stake placed), positive = house to seat (a payout or refund). Summed over
    a seat's events it equals the seat's stack after minus before.
    """

    seq: int
    kind: EventKind
    actor: str = Actor.HOUSE
    seat: int | None = None
    hand: int | None = None
    card: str | None = None
    face_up: bool = True
    chips: int = 0
    outcome: str | None = None

    def to_json(self) -> dict[str, Any]:
        data = self._asdict()
        data["kind"] = str(self.kind)
        data["actor"] = str(self.actor)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        values = dict(data)
        values["kind"] = _kind(values["kind"])
        values["actor"] = _actor(values["actor"])
        return cls(**values)


_kind = parser(EventKind)
_actor = parser(Actor)
