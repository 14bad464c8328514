"""A round's result, read-only: per hand, per seat and for the dealer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .hand import hand_value
from .round_state import RoundState


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand as it ended (or stands)."""

    cards: tuple[str, ...]
    total: int
    #: The whole stake on the hand, doubles included.
    bet: int
    #: blackjack, win, push, lose, bust or surrender; None until settled.
    outcome: str | None

    def to_json(self) -> dict[str, Any]:
        return {"cards": list(self.cards), "total": self.total, "bet": self.bet, "outcome": self.outcome}


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """What one seat staked, holds and won in the round."""

    seat: int
    stack_before: int
    stack: int
    bet: int
    insurance: int
    hands: tuple[HandResult, ...]

    @property
    def net(self) -> int:
        return self.stack - self.stack_before

    def to_json(self) -> dict[str, Any]:
        """The seat as scenarios/FORMAT.md prints it."""
        return {
            "seat": self.seat,
            "stack": self.stack,
            "net": self.net,
            "insurance": self.insurance,
            "hands": [hand.to_json() for hand in self.hands],
        }


@dataclass(frozen=True, slots=True)
class DealerResult:
    """The dealer's cards, hole card included."""

    cards: tuple[str, ...]
    total: int
    hole_revealed: bool

    def to_json(self) -> dict[str, Any]:
        return {"cards": list(self.cards), "total": self.total}


@dataclass(frozen=True, slots=True)
class RoundResult:
    """Every seat's outcome and the dealer's hand; ``of`` reads it from any round state."""

    phase: str
    seats: tuple[SeatOutcome, ...]
    dealer: DealerResult

    @classmethod
    def of(cls, round_: RoundState) -> RoundResult:
        seats = tuple(
            SeatOutcome(
                seat=seat.number,
                stack_before=seat.stack_before,
                stack=seat.stack,
                bet=seat.bet,
                insurance=seat.insurance,
                hands=tuple(
                    HandResult(tuple(hand.cards), hand.total, hand.bet, hand.outcome) for hand in seat.hands
                ),
            )
            for seat in round_.seats.values()
        )
        cards = tuple(round_.dealer.cards)
        return cls(
            phase=str(round_.phase),
            seats=seats,
            dealer=DealerResult(cards, hand_value(cards)[0], round_.hole_revealed),
        )

    def to_json(self) -> dict[str, Any]:
        """scenarios/FORMAT.md's output: every seat, and the dealer's cards hole card included."""
        return {"seats": [seat.to_json() for seat in self.seats], "dealer": self.dealer.to_json()}
