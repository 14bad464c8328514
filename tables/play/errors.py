"""The error every refused request at a table raises: a sentence for the player, a code for programs."""

from __future__ import annotations


class TableError(Exception):
    """A refused request; `message` is for the player, `code` for programs and tests."""

    def __init__(self, message: str, code: str = "refused") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class RealityCheckNotice(str):
    """The words of a reality check, with what it reports: a notice the live view shows as its popup."""

    minutes: int
    net: int


class RealityCheck(TableError):
    """Issue 14: the reality check is due; the bet waits for `Keep playing` or `Stop playing`."""

    def __init__(self, message: str, minutes: int, net: int) -> None:
        notice = RealityCheckNotice(message)
        notice.minutes, notice.net = minutes, net
        super().__init__(notice, "reality_check")
