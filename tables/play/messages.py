"""A player's action as the table page sends it, over the websocket or as a plain POST.

Both carry the same form fields (strings): `action` (the button), `seat`,
`hand`, `version`, `amount`, `buy_in`, `to_seat`. Parsing is strict: anything
that is not exactly what our page sends is refused with a message.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from accounts import limits
from accounts.services import do_set_coach_hints
from tables.engine import BY_NAME, AmountKind
from tables.play import services, stopping
from tables.play.errors import TableError

# Our frames are a handful of form fields; anything bigger is not from our page.
MAX_FRAME_BYTES = 4096
_WHOLE_NUMBER = re.compile(r"[0-9]{1,12}")


# The coach's switch: not a play (no seat, no version), the player's own setting.
HINTS = "hints"


class BadMessage(Exception):
    pass


def quoted(raw: object, limit: int = 20) -> str:
    """A player's text, safe to repeat in a notice: short, and valid UTF-8.

    JSON can carry a lone surrogate ("\\ud800"); echoed as it is, it makes a
    frame the server cannot encode, and the connection would drop.
    """
    return str(raw)[:limit].encode("utf-8", "replace").decode("utf-8")


def parse(text_data: str | None, bytes_data: bytes | None) -> dict[str, Any]:
    if text_data is None:
        raise BadMessage("The table only understands its own buttons.")
    if len(text_data.encode()) > MAX_FRAME_BYTES:
        raise BadMessage("That message is too large.")
    try:
        message = json.loads(text_data)
    except (ValueError, RecursionError):
        raise BadMessage("That message could not be read.") from None
    if not isinstance(message, dict):
        raise BadMessage("That message could not be read.")
    return message


def _number(message: Mapping[str, Any], key: str, what: str, *, required: bool = True) -> int | None:
    raw = message.get(key)
    if raw is None or raw == "":
        if required:
            raise TableError(f"Say which {what}.", "bad_request")
        return None
    text = str(raw).strip()
    # ASCII digits only: str.isdigit() would let "²" through to int().
    if isinstance(raw, bool) or not _WHOLE_NUMBER.fullmatch(text):
        raise TableError(f"The {what} must be a whole number, not “{quoted(raw)}”.", "bad_amount")
    return int(text)


# The reality check's answers (issue 14): about the player, not one seat or table.
PLAYER_ACTIONS = ("keep_playing", "stop_playing")


def perform(table_id: int, user, message: Mapping[str, Any]) -> services.Change | str | None:
    """One message to one service call; a str is a notice to show the player (nothing at the table changed for it); the Hints switch changes the player's setting, not the table."""
    action = message.get("action")
    if not isinstance(action, str):
        raise TableError("Press one of the table's buttons.", "unknown_action")
    if not getattr(user, "is_authenticated", False):
        raise TableError("Sign in to play.", "anonymous")
    if action == "keep_playing":
        return limits.do_keep_playing(user)
    if action == "stop_playing":
        seats = stopping.do_stop_playing(user)
        if not seats:
            return "You hold no seat: you have stopped playing."
        return "Leaving every table: your chips come back to your bankroll as each round ends."
    if action == HINTS:
        return _set_hints(user, message)
    spec = BY_NAME.get(action)
    seat = _number(message, "seat", "seat")
    # The page sends the version with every form; a plain POST without one still works (but not for a play).
    version = _number(message, "version", "version", required=spec is not None)
    if action == "sit":
        buy_in = _number(message, "buy_in", "buy-in", required=False)
        return services.do_sit(table_id, user, seat, buy_in, version=version)
    if action == "leave":
        return services.do_leave(table_id, user, seat, version=version)
    if action == "change_seat":
        to_seat = _number(message, "to_seat", "new seat")
        return services.do_change_seat(table_id, user, seat, to_seat, version=version)
    if spec is None:
        raise TableError(f"“{quoted(action)}” is not something you can do at this table.", "unknown_action")
    # A form may carry fields another of its buttons uses (Hit beside "Double for"): each play reads its own.
    return services.do_act(
        table_id,
        user,
        action,
        seat=seat,
        version=version,
        hand=(_number(message, "hand", "hand", required=False) or 0) if spec.takes_hand else 0,
        amount=None
        if spec.amount is AmountKind.NONE
        else _number(message, "amount", "amount", required=spec.amount is AmountKind.REQUIRED),
    )


def _set_hints(user, message: Mapping[str, Any]) -> str:
    """The Hints switch; its answer is a notice, as every message gets one or a change of the table."""
    value = message.get("hints")
    if value not in ("on", "off"):
        raise TableError("Hints are switched on or off.", "bad_request")
    do_set_coach_hints(user, value == "on")
    if value == "on":
        return "Hints on: at each of your decisions, every play's value for the cards left in the shoe."
    return "Hints off."
