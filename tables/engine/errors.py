"""The one exception the engine raises for a refused action."""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Why an action was refused (the codes of scenarios/FORMAT.md)."""

    ILLEGAL_ACTION = "illegal_action"
    OUT_OF_TURN = "out_of_turn"
    BAD_AMOUNT = "bad_amount"
    INCOMPLETE = "incomplete"
    EXTRA_ACTION = "extra_action"
    SHOE_EXHAUSTED = "shoe_exhausted"
    #: A name no action in the registry has (``GameRound.act``); scenarios never see it.
    UNKNOWN_ACTION = "unknown_action"


class IllegalAction(Exception):
    """An action the rules refuse; ``message`` is a sentence for the player."""

    def __init__(self, code: ErrorCode | str, message: str) -> None:
        super().__init__(message)
        self.code = ErrorCode(code)
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalAction({self.code.value!r}, {self.message!r})"
