"""After a table changes: who wants to know, told once the change is committed.

The write layer (tables.play.services) announces every committed change here
and knows nothing of who listens. The live view subscribes to tell every
viewer (tables.live.broadcast), the timers to arm the next deadline
(tables.play.timers); both subscribe in `TablesConfig.ready`. Subscribers run
from `transaction.on_commit`, so nobody hears of a change that was rolled back.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from django.db import transaction

if TYPE_CHECKING:
    from tables.models import Round, Seat, Table

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Play:
    """A play (the one that settles its round too) or a new betting window, as just written.

    Enough for a viewer's frame without reading it back (tables.live.frames.offer).
    """

    table: Table
    seated: list[Seat]
    round_row: Round
    engine: Any  # tables.engine's round, as the play left it


@dataclass(frozen=True, slots=True)
class TableChanged:
    table_id: int
    version: int
    deadline: dt.datetime | None
    play: Play | None = None


Subscriber = Callable[[TableChanged], None]
_subscribers: list[Subscriber] = []


def subscribe(subscriber: Subscriber) -> None:
    """Call `subscriber` after every committed change of a table (once, however often subscribed)."""
    if subscriber not in _subscribers:
        _subscribers.append(subscriber)


def announce(change: TableChanged) -> None:
    """Tell the subscribers of `change` once the current transaction commits."""
    transaction.on_commit(partial(_notify, change))


def _notify(change: TableChanged) -> None:
    for subscriber in _subscribers:
        # One listener's failure (a full channel layer, say) must not keep the others from hearing.
        try:
            subscriber(change)
        except Exception:
            log.exception("Table %s: a listener of version %s failed", change.table_id, change.version)
