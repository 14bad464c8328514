"""The round's phases and a seat's part in one round: its stack, bet, insurance and hands."""

from __future__ import annotations

from enum import StrEnum

from .hand import Hand


class Phase(StrEnum):
    """Where the round stands (docs/engine.md: the state machine)."""

    BETTING = "betting"
    DEALING = "dealing"  # passed through, never rested in
    INSURANCE = "insurance"
    PLAYERS = "players"
    DEALER = "dealer"  # passed through, never rested in
    SETTLED = "settled"


class SeatStatus(StrEnum):
    """A seat's answer to the betting window."""

    WAITING = "waiting"  # has not answered the betting window yet
    BETTING = "betting"
    PASSED = "passed"
    LEFT_OUT = "left_out"  # silent until the betting window closed


class InsuranceStatus(StrEnum):
    """A seat's part in the insurance offer."""

    NOT_OFFERED = "not_offered"
    PENDING = "pending"
    TAKEN = "taken"
    DECLINED = "declined"


class SeatState:
    """One seat's part in one round: its stack, bet, insurance and hands (not the table's seat)."""

    __slots__ = ("number", "stack_before", "stack", "status", "bet", "insurance", "insurance_status", "hands")

    def __init__(self, number: int, stack: int) -> None:
        self.number = number
        self.stack_before = stack
        self.stack = stack
        self.status = SeatStatus.WAITING
        #: The original bet (RULES.md: OBO).
        self.bet = 0
        self.insurance = 0
        self.insurance_status = InsuranceStatus.NOT_OFFERED
        self.hands: list[Hand] = []

    @property
    def net(self) -> int:
        return self.stack - self.stack_before

    def copy(self) -> SeatState:
        """A seat's part of its own in the same state, its hands copied."""
        other = SeatState.__new__(SeatState)
        for name in SeatState.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = [hand.copy() for hand in self.hands]
        return other

    def __repr__(self) -> str:
        return f"SeatState({self.number}, stack={self.stack}, bet={self.bet}, hands={self.hands})"
