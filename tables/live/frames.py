"""The versions of each table this process has shown, read once and shared by every viewer.

A change at a table has every viewer in the process shown the new version at
once (tables.live.audience). Most of what they show is the same for all of them (the status, the
dealer, the log, the other players' seats), and even the rest comes in few
kinds (the buttons of whoever holds seat 3, a watcher who may sit down). So
each version of a table is read once per process (`tables.live.state.snapshot`),
or taken as written from a play this process committed (`offer`), and each
distinct piece is rendered once (`Rendered`), then reused for every viewer
who sees it alike; a piece that did not change keeps its HTML across
versions. tables.live.pieces makes each viewer's frame from it. This is what
lets one process keep up with full tables (docs/performance.md).

Every change of a table bumps its version (tables.play.services, and the admin's
edits), so nothing filed under a version can be older than that version.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from casino.database_thread import database_sync_to_async
from tables.engine import GameRound
from tables.live import state as table_state
from tables.live.state import TableState
from tables.models import Round, Seat, Table

T = TypeVar("T")

log = logging.getLogger(__name__)

# Pieces that do not change with every version (a seat nobody acted at, the
# dealer between cards, the empty notice) are kept across versions, by what they show:
# at most this many per table, the least recently used dropped first. A round shows a
# few dozen states, and each new state of a seat keeps up to six (the seat as watchers
# and as its player see it, its body, its head, play and stack): a few hundred kilobytes a table.
MAX_KEPT = 256


class Rendered:
    """One version of one table: its snapshot and the pieces rendered from it so far."""

    def __init__(self, state: TableState, previous: Rendered | None = None) -> None:
        self.state = state
        self._pieces: dict[Hashable, Any] = {}
        # What each seat shows, as a watcher sees it: with `is_mine` and the
        # viewer's options for free seats, all a seat's HTML depends on. That is
        # all its view was made from (state.seat_keys), or for a seat whose
        # hands are settled (no such key) the view's own words.
        # A view kept from the version before (state.snapshot_of) keeps them too.
        before = {id(seat): show for seat, show in zip(previous.state.seats, previous.seat_shows)} if previous else {}
        keys = state.seat_keys or (None,) * len(state.seats)
        self.seat_shows = [
            before.get(id(seat)) or (key if key is not None else repr(seat)) for seat, key in zip(state.seats, keys)
        ]
        # Shared with the versions before and after: keyed by all a piece shows, the most recently used last.
        self.kept: OrderedDict[Hashable, Any] = previous.kept if previous is not None else OrderedDict()

    @property
    def version(self) -> int:
        return self.state.version

    def piece(self, key: Hashable, render: Callable[[], T]) -> T:
        """A piece of this version (its key need not say which version), or anything worked out once for it."""
        html = self._pieces.get(key)
        if html is None:
            # Two threads may render the same piece at once; both results are equal.
            html = self._pieces[key] = render()
        return html

    def kept_piece(self, key: Hashable, render: Callable[[], T]) -> T:
        """A piece of any version (or anything else made from no more than its key says): its key says all it shows."""
        kept = self.kept
        html = kept.get(key)
        # Each step is one call into OrderedDict (atomic under the GIL): another thread's
        # rendering of the same table may have dropped the key meanwhile, which only costs a render.
        if html is None:
            html = kept[key] = render()
            if len(kept) > MAX_KEPT:
                try:
                    kept.popitem(last=False)
                except KeyError:  # emptied meanwhile
                    pass
        else:
            try:
                kept.move_to_end(key)
            except KeyError:  # dropped meanwhile
                pass
        return html


# The newest rendered version of each table this process has shown.
_latest: dict[int, Rendered] = {}
_latest_lock = threading.Lock()


def _newest(table_id: int) -> Rendered | None:
    """The newest version of the table this process holds, if any."""
    with _latest_lock:
        return _latest.get(table_id)


def rendered(table_id: int, version: int | None = None) -> Rendered:
    """The table at `version` or newer; None asks the database what is newest."""
    current = _newest(table_id)
    if current is not None:
        if version is None:
            version = Table.objects.filter(pk=table_id).values_list("version", flat=True).first()
        if version is not None and current.version >= version:
            return current
    fresh = Rendered(table_state.snapshot(table_id), current)
    with _latest_lock:
        current = _latest.get(table_id)
        if current is None or current.version < fresh.version:
            _latest[table_id] = fresh
    return fresh


def _just_before(table_id: int, version: int) -> Rendered | None:
    """The version of the table this process holds, if it is the one just before `version`."""
    held = _newest(table_id)
    return held if held is not None and held.version == version - 1 else None


def offer(table: Table, seated: list[Seat], round_row: Round, engine: GameRound) -> None:
    """A play this process committed, or a window it opened: its state, so its viewers' frames need no read.

    Taken only as the very next version after the one this process holds,
    with the same players, in the same round or in the next one after a
    settled round (or none): then all the change did not touch (the seat
    numbers, the players' bankrolls, the free seats) is as that version has
    it, and the rest is what the change just wrote, the new round's shoe
    included (and the players' stacks here, so their chips at the tables).
    """
    previous = _just_before(table.pk, table.version)
    if previous is None:
        return
    before = previous.state
    if before.players != {seat.number: seat.player_id for seat in seated}:
        return
    if before.round_id != round_row.pk and before.playing:
        return  # a new round while the one shown is unfinished: not a change this process made
    same_shoe = before.round_id is not None and before.shoe_id == round_row.shoe_id
    state = table_state.snapshot_of(
        table,
        seated,
        {seat.number: seat.changed_version for seat in before.seats if seat.player is None},
        round_row,
        engine,
        bankrolls=before.bankrolls,
        elsewhere=before.elsewhere,
        commitment=before.commitment if same_shoe else engine.shoe.commitment,
        names={seat.number: seat.player for seat in before.seats if seat.player is not None},
        previous=before,
    )
    fresh = Rendered(state, previous)
    with _latest_lock:
        if _latest.get(table.pk) is previous:
            _latest[table.pk] = fresh


def read_written(table_id: int, version: int) -> None:
    """Read `version` of the table, just committed by this thread, if this process shows the table.

    That is, if it holds the version just before (and has not taken this one
    as written, `offer`): no viewer here has been told of it yet. A failed
    read is logged and left to the viewers, whose own read (`read`) then tries again.
    """
    if _just_before(table_id, version) is None:
        return
    try:
        rendered(table_id, version)
    except Exception:
        log.exception("Table %s: reading version %s after its commit failed", table_id, version)


def holds(table_id: int, version: int) -> bool:
    """Whether this process has rendered `version` of the table, or a newer one."""
    return cached(table_id, version) is not None


# Reads of a table in flight, so that its viewers' consumers, all told of the
# same change at once, wait for one read instead of queueing one each on
# Channels' database thread. A read takes itself out when it finishes
# (`_start_read`), and a finished read found here is treated as none: a
# waiter never awaits a future that is already done, so it always yields.
_reading: dict[int, asyncio.Future[Rendered]] = {}


async def read(table_id: int, version: int) -> None:
    """Have this process hold `version` of the table, or a newer one: at most one read per table at a time.

    Every pass of the loop either waits on a read still in flight (so the
    event loop turns) or starts a read of its own and returns once it is
    done, whatever version it found: no interleaving of viewers, versions
    and cancellations can make it spin.
    """
    while not holds(table_id, version):
        pending = _reading.get(table_id)
        if pending is None or pending.done():
            await asyncio.shield(_start_read(table_id, version))
            return
        # Someone's read started before ours was needed: it may be older; check again after.
        with contextlib.suppress(Exception):  # their failure is theirs: ours reads again
            await asyncio.shield(pending)


def _start_read(table_id: int, version: int) -> asyncio.Future[Rendered]:
    reading = asyncio.ensure_future(database_sync_to_async(rendered)(table_id, version))
    _reading[table_id] = reading
    # Shielded, the read outlives a cancelled starter (a viewer who left); it clears its own entry.
    reading.add_done_callback(functools.partial(_done_reading, table_id))
    return reading


def _done_reading(table_id: int, reading: asyncio.Future[Rendered]) -> None:
    if _reading.get(table_id) is reading:
        del _reading[table_id]
    if not reading.cancelled():
        reading.exception()  # retrieved: a failed read is its starter's to report, not the loop's


def forget() -> None:
    """Drop all this process holds of any table (tests: ids start again in each test database)."""
    with _latest_lock:
        _latest.clear()
        _reading.clear()  # futures of a loop that may be gone


def cached(table_id: int, version: int) -> Rendered | None:
    """The table at `version` or newer if this process holds it, else None. Touches no database."""
    table = _newest(table_id)
    return table if table is not None and table.version >= version else None
