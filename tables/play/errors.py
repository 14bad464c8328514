"""The error every refused request at a table raises: a sentence for the player, a code for programs."""

from __future__ import annotations


class TableError(Exception):
    """A refused request; `message` is for the player, `code` for programs and tests."""

    def __init__(self, message: str, code: str = "refused") -> None:
        super().__init__(message)
        self.message = message
        self.code = code
