"""What one player, one address and one socket may open or send (issue 15), and the close codes past it.

Sockets are counted in this server process only: with N daphne processes a
player may hold up to N x SOCKETS_PER_USER table sockets in all (nginx
spreads them; docs/deploy.md). A socket takes its place when it opens and
gives it back when it closes (`take_socket` / `SocketPlace.release`).

Bad frames (ones that are not a message of the table page: unreadable, too
large, binary, an unknown action) are answered with a small notice and never
with the table, so junk costs no database read and no render; past
BAD_FRAMES_PER_SECOND in one second the socket is closed.

Close codes a table socket may get (README, docs/deploy.md):
    4400  too many bad frames (CLOSE_BAD_FRAMES)
    4401  the player's session stopped standing (tables.live.sockets)
    4403  a private table, not the viewer's (tables.live.consumers)
    4404  no such table (tables.live.consumers)
    4429  too many sockets open for this player or address (CLOSE_TOO_MANY_SOCKETS)
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass

from django.conf import settings
from django.utils.html import format_html

CLOSE_BAD_FRAMES = 4400
CLOSE_TOO_MANY_SOCKETS = 4429

TOO_MANY_SOCKETS = "Too many table windows are open for you: close some, then reload this page."
TOO_MANY_BAD_FRAMES = "This window sent too many messages the table does not understand; reload the page."

# Refusals that say the frame was not something the page sends: counted like unreadable frames.
JUNK_CODES = frozenset({"unknown_action", "bad_request"})

# Open table sockets in this process, by ("user", id) and ("address", text).
_open: Counter[tuple[str, object]] = Counter()


@dataclass
class SocketPlace:
    """A socket's place among its player's and its address's open sockets; given back once."""

    keys: tuple[tuple[str, object], ...]
    released: bool = False

    def release(self) -> None:
        if self.released:
            return
        self.released = True
        for key in self.keys:
            _open[key] -= 1
            if _open[key] <= 0:
                del _open[key]


def take_socket(user_id: int | None, address: str | None) -> SocketPlace | None:
    """A place for a new socket of this player (None for a visitor) from this address; None when either is full."""
    wanted = []
    if user_id is not None:
        wanted.append((("user", user_id), settings.SOCKETS_PER_USER))
    if address:
        wanted.append((("address", address), settings.SOCKETS_PER_ADDRESS))
    if any(_open[key] >= limit for key, limit in wanted):
        return None
    for key, _ in wanted:
        _open[key] += 1
    return SocketPlace(keys=tuple(key for key, _ in wanted))


def open_sockets(user_id: int | None = None, address: str | None = None) -> int:
    """How many table sockets this process holds open for a player, or for an address."""
    return _open[("user", user_id)] if user_id is not None else _open[("address", address)]


def socket_address(scope: dict) -> str | None:
    """The client's address of a socket: set by casino.asgi by the sign-in throttle's rule, else the peer's."""
    if scope.get("client_address"):
        return scope["client_address"]
    client = scope.get("client")
    return client[0] if client else None


def clock() -> float:
    """Seconds, for the frame budget (tests freeze it here, not in the event loop's `time`)."""
    return time.monotonic()


class FrameBudget:
    """Bad frames one socket may send per second (BAD_FRAMES_PER_SECOND); `spend` says whether it is within."""

    def __init__(self, per_second: int | None = None) -> None:
        self.per_second = settings.BAD_FRAMES_PER_SECOND if per_second is None else per_second
        self.window_started = 0.0
        self.spent = 0
        self.exhausted = False

    def spend(self) -> bool:
        now = clock()
        if now - self.window_started >= 1.0:
            self.window_started, self.spent = now, 0
        self.spent += 1
        if self.spent > self.per_second:
            self.exhausted = True
        return not self.exhausted


def notice_frame(text: str) -> str:
    """The table page's notice alone: the whole answer to a bad frame."""
    return format_html('<div id="notice" class="notice shown" role="alert">{}</div>', text)
