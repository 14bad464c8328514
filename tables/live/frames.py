"""HTML for one viewer: the table page's pieces, as htmx out-of-band swaps.

A change at a table makes every viewer's consumer ask for a frame of the new
version at once. Most of a frame is the same for all of them (the status,
the dealer, the log, the other players' seats), and even the rest comes in
few kinds (the buttons of whoever holds seat 3, a watcher who may sit down).
So each version of a table is read once per process (`tables.live.state.snapshot`)
and each distinct piece is rendered once, then reused for every viewer who
sees it alike. A seat that did not change keeps its HTML from the versions
before. Only a watcher's bankroll is read per frame. This is what lets one
process keep up with full five-seat tables (docs/performance.md).

Every change of a table bumps its version (tables.play.services, and the admin's
edits), so nothing filed under a version can be older than that version.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import threading
from collections.abc import Callable, Hashable
from dataclasses import replace

from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from accounts.models import User
from tables.engine import GameRound
from tables.live import state as table_state
from tables.live.state import SeatView, TableState
from tables.live.viewer import TableView, bankroll_in, view_for
from tables.models import Round, Seat, Table
from tables.play.access import viewer_id

TEMPLATE = "tables/table.html"


# Pieces that do not change with every version (a seat nobody acted at, the
# dealer between cards, the empty notice) are kept across versions, by what
# they show. The forms in a seat carry the version they were rendered for:
# a seat is kept with this stand-in, replaced on the way out. A raw "<" can
# only come from the template, as everything a player typed is escaped.
VERSION_SLOT = mark_safe("<!--version-->")
# Where the seats go in the #seats box, and a seat's body in the seat (same reasoning).
PIECES_SLOT = mark_safe("<!--seats-->")
BODY_SLOT = mark_safe("<!--seat body-->")
# Pieces kept per table across versions (a round shows a few dozen states).
MAX_KEPT = 128


class Rendered:
    """One version of one table: its snapshot and the pieces rendered from it so far."""

    def __init__(self, state: TableState, previous: Rendered | None = None) -> None:
        self.state = state
        self._pieces: dict[Hashable, str] = {}
        # What each seat shows, as a watcher sees it: with `is_mine` and the
        # viewer's options for free seats, all a seat's HTML depends on.
        self.seat_shows = [repr(seat) for seat in state.seats]
        # Shared with the versions before and after: keyed by all a piece shows.
        # Grown too big, it keeps what the version before used.
        self.kept: dict[Hashable, str] = {}
        self._used: set[Hashable] = set()
        if previous is not None:
            self.kept = previous.kept
            if len(self.kept) > MAX_KEPT:
                self.kept = {key: self.kept[key] for key in list(previous._used) if key in self.kept}

    @property
    def version(self) -> int:
        return self.state.version

    def piece(self, key: Hashable, render: Callable[[], str]) -> str:
        """A piece of this version (its key need not say which version)."""
        html = self._pieces.get(key)
        if html is None:
            # Two threads may render the same piece at once; both results are equal.
            html = self._pieces[key] = render()
        return html

    def kept_piece(self, key: Hashable, render: Callable[[], str]) -> str:
        """A piece of any version: its key says all it shows; VERSION_SLOT stands for the version."""
        self._used.add(key)
        html = self.kept.get(key)
        if html is None:
            html = self.kept[key] = render()
        return html


# The newest rendered version of each table this process has shown.
_latest: dict[int, Rendered] = {}
_latest_lock = threading.Lock()


def rendered(table_id: int, version: int | None = None) -> Rendered:
    """The table at `version` or newer; None asks the database what is newest."""
    with _latest_lock:
        current = _latest.get(table_id)
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


def offer(table: Table, seated: list[Seat], round_row: Round, engine: GameRound) -> None:
    """A play this process has just committed: its state, so that its viewers' frames need no read.

    Taken only as the very next version after the one this process holds,
    in the same round with the same players: then all the play did not
    change (the seat numbers, the players' bankrolls, the shoe's commitment)
    is as that version has it, and the rest is what the play just wrote.
    """
    with _latest_lock:
        previous = _latest.get(table.pk)
    if previous is None or previous.version != table.version - 1:
        return
    before = previous.state
    if before.round_id != round_row.pk or before.players != {seat.number: seat.player_id for seat in seated}:
        return
    state = table_state.snapshot_of(
        table,
        seated,
        [seat.number for seat in before.seats],
        round_row,
        engine,
        bankrolls=before.bankrolls,
        commitment=before.commitment,
        names={seat.number: seat.player for seat in before.seats if seat.player is not None},
    )
    fresh = Rendered(state, previous)
    with _latest_lock:
        if _latest.get(table.pk) is previous:
            _latest[table.pk] = fresh


def holds(table_id: int, version: int) -> bool:
    """Whether this process has rendered `version` of the table, or a newer one."""
    with _latest_lock:
        table = _latest.get(table_id)
    return table is not None and table.version >= version


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


def render_frame(
    table_id: int, viewer: User | None, notice: str | None = None, *, version: int | None = None
) -> tuple[str, int]:
    """Every live piece of the table page for this viewer, each with its stable id and hx-swap-oob.

    `version` is the version the caller knows exists (from a `table.changed`
    event): a cached one at least as new is used without asking the database.
    """
    table = rendered(table_id, version)
    return _compose(table, viewer, bankroll_in(table.state, viewer_id(viewer)), notice)


def cached_frame(table_id: int, viewer: User | None, version: int) -> tuple[str, int] | None:
    """The frame, if this process holds `version` (or newer) and the viewer's bankroll; else None.

    Touches no database, so a consumer may call it on the event loop: most of
    a table's frames are made without a trip to the database thread.
    """
    with _latest_lock:
        table = _latest.get(table_id)
    if table is None or table.version < version:
        return None
    who = viewer_id(viewer)
    if who is not None and who not in table.state.bankrolls:
        return None  # a watcher's bankroll is read from the database
    return _compose(table, viewer, table.state.bankrolls.get(who), None)


def _compose(table: Rendered, viewer: User | None, bankroll: int | None, notice: str | None) -> tuple[str, int]:
    who = viewer_id(viewer)
    view = view_for(table.state, who, bankroll)
    context = {"view": view, "user": viewer, "oob": True, "notice": None}

    def render(name: str, **extra: object) -> Callable[[], str]:
        return lambda: render_to_string(f"{TEMPLATE}#{name}", context | extra)

    seats = [
        table.piece((key, seat.is_mine), lambda key=key, seat=seat: _seat_html(table, key, seat, view))
        for key, seat in ((_seat_key(table, i, seat, view), seat) for i, seat in enumerate(view.seats))
    ]
    # The #seats box around them: everything before and after its one piece.
    before_seats, after_seats = table.kept_piece("seats", render("seats", seat_pieces=[PIECES_SLOT])).split(
        PIECES_SLOT
    )
    if view.controls:
        # A decision still open looks the same from version to version, but for the version it sends.
        key = ("controls", tuple(view.my_seats), repr(view.controls))
        controls = table.kept_piece(key, render("controls", view=replace(view, version=VERSION_SLOT)))
        controls = controls.replace(VERSION_SLOT, str(table.version))
    else:
        # No decision to make: the same few words for everyone in the viewer's position.
        position = (bool(view.my_seats), who is not None, view.can_sit)
        controls = table.kept_piece(("no controls", *position), render("controls"))
    dealer = (tuple(card.code for card in view.dealer), view.dealer_total)
    parts = [
        "" if view.bankroll is None else table.kept_piece(
            ("bankroll", view.bankroll), render("bankroll", bankroll=view.bankroll)
        ),
        table.piece("status", render("status")),
        table.kept_piece(("dealer", *dealer), render("dealer")),
        before_seats,
        *seats,
        after_seats,
        # A notice answers one click: never kept.
        render("notice", notice=notice)() if notice else table.kept_piece("no notice", render("notice")),
        controls,
        table.piece("log", render("log")),
    ]
    return SafeString("".join(parts)), view.version


def _seat_key(table: Rendered, index: int, seat: SeatView, view: TableView) -> Hashable:
    """Viewers, and versions, with equal keys see this seat's body alike (but for the version in its forms)."""
    if seat.player is not None:
        return ("seat body", table.seat_shows[index])
    # A free seat offers "Sit here" (from the minimum bet), "Move here" (from the viewer's seat) or nothing.
    moves_from = view.my_seats[0] if view.can_change_seat else None
    return ("seat body", table.seat_shows[index], view.can_sit, moves_from, view.table.min_bet)


def _seat_html(table: Rendered, key: Hashable, seat: SeatView, view: TableView) -> str:
    """The seat: its body, the same for every viewer, in the viewer's own frame (theirs: "mine", Leave)."""
    slotted = replace(view, version=VERSION_SLOT)

    def body() -> str:
        return render_to_string(f"{TEMPLATE}#seat_body", {"view": slotted, "seat": seat})

    def shell() -> str:
        return render_to_string(f"{TEMPLATE}#seat", {"view": slotted, "seat": seat, "seat_body": BODY_SLOT})

    # The <article> around the body: all it shows is in its key, so it is rendered once or twice a table.
    shell_key = ("seat shell", seat.number, seat.is_mine, seat.is_turn, seat.player is None, seat.leaving)
    before_body, after_body = table.kept_piece(shell_key, shell).split(BODY_SLOT)
    html = before_body + table.kept_piece(key, body) + after_body
    return html.replace(VERSION_SLOT, str(table.version))
