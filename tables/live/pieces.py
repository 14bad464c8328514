"""One viewer's frame: the pieces of the table whose HTML changed since this connection last got them.

A table page is a handful of pieces with stable ids (the bankroll, the
status, the dealer, each seat, the viewer's notice and buttons, the log). A
connection remembers what it was sent (`Sent`), and each frame carries only
the pieces whose HTML differs for that viewer, plus the version marker; the
log gets its new lines appended. A new connection (a page load, a reconnect)
starts with nothing sent, so its first frame is the whole table, and a viewer
who skipped versions gets whatever changed since the version it has. What
changed among the pieces every viewer sees alike is worked out once per
pair of versions, for every viewer who had the earlier one; each viewer's
own pieces (their seats, buttons, bankroll) are compared one by one.

Forms carry the version they are valid from, not the table's latest: a seat's
forms the version at which it last changed hands, a decision's buttons the
version at which it was offered. So a piece stays the same while others play,
and is not sent again (tables.play.services: check_seat_not_stale,
check_not_stale). htmx's ws extension swaps every top-level element of a
frame by its id.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from dataclasses import dataclass, field

from django.template.loader import render_to_string
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from accounts.models import User
from tables.live import coach
from tables.live.controls import Control
from tables.live.frames import Rendered, rendered
from tables.live.parts import changed_parts, compact
from tables.live.state import SeatView
from tables.live.templating import render_piece
from tables.live.viewer import TableView, bankroll_in, controls_of, position_of, result_of, view_for
from tables.play.access import viewer_id
from tables.play.errors import RealityCheckNotice

# Where the seats go in the #seats box, and a seat's body in the seat. A raw
# "<" can only come from the template: everything a player typed is escaped.
PIECES_SLOT = mark_safe("<!--seats-->")
BODY_SLOT = mark_safe("<!--seat body-->")


@dataclass
class Sent:
    """What one connection has been sent: each piece's HTML by id, and the log so far."""

    pieces: dict[str, str] = field(default_factory=dict)
    log_round: int | None = None
    log_lines: list[str] = field(default_factory=list)
    version: int = -1
    # The viewer's hint still being worked out (tables/live/coach.py): the consumer sends it when ready.
    pending_hint: Future | None = None
    # The pieces every viewer sees alike (`_shared`) as of the version last sent, and which of
    # them were the viewer's own then (their seats, the free seats): `pieces` holds the others as
    # they are in `shared`, so the next frame brings what changed among them without comparing each.
    shared: list[tuple[str, str | None]] | None = None
    own: tuple[int, ...] = ()


def frame_for(table: Rendered, viewer: User | None, bankroll: int | None, notice: str | None, sent: Sent) -> str:
    """The frame that brings this connection up to `table`'s version, and remember it as sent.

    Empty when nothing changed for this viewer. A notice (the answer to one
    click) is always sent when given, and cleared with the next frame after.
    """
    mine = _Mine(table, viewer, bankroll)
    hint = _hint(table, mine, viewer)
    sent.pending_hint = hint.pending if hint is not None else None
    first = not sent.pieces
    parts: list[str] = []
    seats: list[str] = []  # a first frame's seats, for the #seats box

    def bring(piece_id: str, html: str) -> None:
        previous = sent.pieces.get(piece_id)
        # A notice answers a click: shown again even when the last click got the same answer.
        if (previous is html or previous == html) and not (notice and piece_id == "notice"):
            return
        sent.pieces[piece_id] = html
        if first and piece_id.startswith("seat-"):
            seats.append(html)  # in the #seats box below
        # Only a seat has parts a frame may bring alone (its head, stack and play).
        elif previous is not None and piece_id.startswith("seat-"):
            parts.append(changed_parts(previous, html))
        else:
            parts.append(html)

    if mine.bankroll is not None:
        bring("bankroll", table.kept_piece(("bankroll", mine.bankroll), _renderer(mine, viewer, "bankroll", bankroll=mine.bankroll)))
    _bring_table(table, mine, sent, bring, parts)
    # A reality check is shown as its popup, not as a notice too.
    for piece_id, html in _own_pieces(table, mine, viewer, None if isinstance(notice, RealityCheckNotice) else notice, hint):
        bring(piece_id, html)
    # Issue 14: a due reality check comes as the answer to a bet, a piece of its own; once
    # answered, the next frame hides it (a connection never shown one is sent nothing).
    if isinstance(notice, RealityCheckNotice):
        bring("reality-check", _render("reality_check", mine.view(), viewer, check=notice))
    elif sent.pieces.get("reality-check"):
        bring("reality-check", table.kept_piece("no reality check", lambda: _render("reality_check", mine.view(), viewer)))
    if first:
        # The #seats box itself, around every seat: a page may have lost some (a reconnect).
        box = table.kept_piece("seats", lambda: _render("seats", mine.view(), viewer, seat_pieces=[PIECES_SLOT]))
        before, after = box.split(PIECES_SLOT)
        parts.append(before + "".join(seats) + after)
    parts.append(_log(table, mine, viewer, sent, whole=first))
    sent.version = max(sent.version, table.version)
    if not any(parts):
        return ""
    # Which version the page now shows (tests and the load test's bots read it).
    parts.append(table.piece("version", lambda: format_html('<i id="version" data-version="{}"></i>', table.version)))
    return "".join(parts)


def _bring_table(
    table: Rendered, mine: _Mine, sent: Sent, bring: Callable[[str, str], None], parts: list[str]
) -> None:
    """The status, the turn, the dealer and the seats, as the viewer sees them now, where they changed.

    The viewer's own (their seats, the free seats) are compared one by one.
    The others are as every viewer sees them: when the viewer was last sent
    the version before (or any version) with the same own pieces, what
    changed among them since is worked out once for every such viewer.
    """
    shared = table.piece("shared", lambda: _shared(table))
    own = _own_seats(table, mine, shared)
    before = sent.shared
    if before is None or sent.own != tuple(own) or len(before) != len(shared):
        for index, (piece_id, html) in enumerate(shared):
            bring(piece_id, own.get(index, html))
    else:
        changes = _shared_changes(table, before, shared)
        for index in sorted({*own, *changes}) if own else changes:
            if index in own:
                bring(shared[index][0], own[index])
            else:
                piece_id, html, part = changes[index]
                sent.pieces[piece_id] = html
                parts.append(part)
    sent.shared, sent.own = shared, tuple(own)


def _own_seats(table: Rendered, mine: _Mine, shared: list[tuple[str, str | None]]) -> dict[int, str]:
    """The viewer's own pieces among the shared ones, by their place: the free seats, then their seats."""
    free, places = table.piece("seat places", lambda: _seat_places(table, shared))
    own = {index: _free_seat(table, index - 3, mine) for index in free}  # after the status, the turn and the dealer
    for number in mine.position.my_seats:
        index = places[number]
        own[index] = _seat_piece(table, index - 3, True, lambda i=index - 3: (mine.view().seats[i], mine.view()))
    return own


def _seat_places(table: Rendered, shared: list[tuple[str, str | None]]) -> tuple[tuple[int, ...], dict[int, int]]:
    """Where the free seats are among the shared pieces, and where each seat is, by its number."""
    free = tuple(index for index, (_, html) in enumerate(shared) if index >= 3 and html is None)
    return free, {seat.number: index for index, seat in enumerate(table.state.seats, start=3)}


def _shared_changes(
    table: Rendered, before: list[tuple[str, str | None]], shared: list[tuple[str, str | None]]
) -> dict[int, tuple[str, str, str]]:
    """The shared pieces that changed since `before` (a version's `_shared`), by place: id, HTML, and what brings it.

    The same for every viewer who was last sent `before`: worked out once per version.
    """
    key = ("shared changes", id(before))
    found = table.piece(key, lambda: (before, _changes_between(before, shared)))
    if found[0] is not before:  # another list now has that id: not cached
        return _changes_between(before, shared)
    return found[1]


def _changes_between(
    before: list[tuple[str, str | None]], shared: list[tuple[str, str | None]]
) -> dict[int, tuple[str, str, str]]:
    changes = {}
    for index, ((piece_id, old), (_, html)) in enumerate(zip(before, shared)):
        if old is html or old == html or old is None or html is None:
            continue  # the same; or a free seat, which each viewer sees their own way (`_own_seats`)
        changes[index] = (piece_id, html, changed_parts(old, html) if piece_id.startswith("seat-") else html)
    return changes


class _Mine:
    """What of one version is the viewer's own: their position and buttons; their whole view only if a piece needs rendering.

    A frame is mostly pieces every viewer shares, rendered once per version
    (`_shared`); a viewer's own (their seats, buttons, bankroll, banner) are
    found by keys made from their position, so the whole view
    (tables.live.viewer.view_for) is built only when one of them is new.
    """

    __slots__ = ("table", "who", "bankroll", "position", "controls", "_view")

    def __init__(self, table: Rendered, viewer: User | None, bankroll: int | None) -> None:
        self.table, self.who, self.bankroll = table, viewer_id(viewer), bankroll
        self.position = table.piece(("position", self.who), lambda: position_of(table.state, self.who))
        self.controls = _controls(table, self.position.my_seats)
        self._view: TableView | None = None

    def view(self) -> TableView:
        if self._view is None:
            table = self.table
            self._view = view_for(table.state, self.who, self.bankroll, functools.partial(_controls, table), self.position)
        return self._view


def _shared(table: Rendered) -> list[tuple[str, str | None]]:
    """The pieces every viewer sees alike at this version, in the page's order; None for a free seat (each viewer's own)."""
    view = view_for(table.state, None, None, functools.partial(_controls, table))

    def render(name: str) -> Callable[[], str]:
        return lambda: _render(name, view, None)

    pieces: list[tuple[str, str | None]] = []
    status = ("status", view.phase_label, view.round_number, None if view.playing else view.deadline)
    pieces.append(("status", table.kept_piece(status, render("status"))))
    turn = ("turn", view.turn, view.turn_name, view.deadline if view.turn else None)
    pieces.append(("turn", table.kept_piece(turn, render("turn"))))
    dealer = (tuple(card.code for card in view.dealer), view.dealer_total)
    pieces.append(("dealer", table.kept_piece(("dealer", *dealer), render("dealer"))))
    for index, seat in enumerate(view.seats):
        # A taken seat looks the same to all but its player (`_own_seat`).
        html = None if seat.player is None else _seat_piece(table, index, False, lambda s=seat: (s, view))
        pieces.append((f"seat-{seat.number}", html))
    return pieces


def _render(name: str, view: TableView, viewer: User | None, **extra: object) -> str:
    """A piece of the table (templates/tables/pieces/, Jinja2: tables/live/templating.py), as sent."""
    return compact(render_piece(name, {"view": view, "user": viewer, "notice": None, **extra}))


def _hint(table: Rendered, mine: _Mine, viewer: User | None) -> coach.Hint | None:
    """The coach's hint, for a player who asked for hints and whose decision it is (nobody else).

    In the players' turn, the hand to act; while insurance is offered, the viewer's first seat still to answer.
    """
    if not (mine.controls and getattr(viewer, "coach_hints", False)):
        return None
    turn = table.state.turn
    if turn:
        return coach.hint_for(table.state, *turn) if turn[0] in mine.position.my_seats else None
    insuring = next((c.seat for c in mine.controls if any(a.name == "no_insurance" for a in c.actions)), None)
    return coach.hint_for(table.state, insuring, 0) if insuring is not None else None


def _hint_html(hint: coach.Hint | None) -> str:
    """The coach's hint, for the viewer's controls (only a player with Hints on, at their decision, has one)."""
    return mark_safe(render_to_string("tables/coach/hints.html", {"hint": hint})) if hint is not None else ""


def _renderer(mine: _Mine, viewer: User | None, name: str, **extra: object) -> Callable[[], str]:
    return lambda: _render(name, mine.view(), viewer, **extra)


def _own_pieces(
    table: Rendered, mine: _Mine, viewer: User | None, notice: str | None, hint: coach.Hint | None = None
) -> list[tuple[str, str]]:
    """The viewer's banner, notice, buttons and Hints switch, after the table in the page."""
    state, position, who = table.state, mine.position, mine.who
    my_seats = position.my_seats
    pieces: list[tuple[str, str]] = []
    # The viewer's result banner: empty except while their settled round is shown.
    result = result_of(state, my_seats) if state.results else {}
    pieces.append(("result", table.kept_piece(("result", result.get("result"), result.get("result_kind", "")), _renderer(mine, viewer, "result"))))
    # A notice answers one click: never kept.
    notice_html = _renderer(mine, viewer, "notice", notice=notice)() if notice else table.kept_piece("no notice", _renderer(mine, viewer, "notice"))
    pieces.append(("notice", notice_html))
    if mine.controls:
        # A decision looks the same from version to version: its buttons carry the version it was offered at.
        # The viewer's hint, if they asked for hints, shows with their buttons.
        key = ("controls", tuple(my_seats), tuple(mine.controls), hint)
    else:
        # No decision to make: the same few words for everyone in the viewer's position.
        key = ("no controls", bool(my_seats), who is not None, position.can_sit)
    pieces.append(("controls", table.kept_piece(key, _renderer(mine, viewer, "controls", hint_html=_hint_html(hint)))))
    # A seated player's Hints switch: a piece of its own, sent when it changes, not with every decision.
    switch = ("hints switch", bool(my_seats) and who is not None, bool(getattr(viewer, "coach_hints", False)))
    pieces.append(("hints-switch", table.kept_piece(switch, _renderer(mine, viewer, "hints_switch"))))
    return pieces


def _controls(table: Rendered, seats: list[int]) -> list[Control]:
    """The buttons of these seats at this version: worked out once, for whoever holds them."""
    return table.piece(("controls of", tuple(seats)), lambda: controls_of(table.state, seats))


def _log(table: Rendered, mine: _Mine, viewer: User | None, sent: Sent, *, whole: bool) -> str:
    """The round's log: whole for a new round (or a new connection), else only its new lines."""
    lines = table.state.log
    count = len(sent.log_lines)
    if not whole and sent.log_round == table.state.round_id and lines[:count] == sent.log_lines:
        sent.log_lines = lines
        if count == len(lines):
            return ""
        # The same new lines for every viewer who had the version before: made once.
        return table.piece(("log-lines", count), lambda: format_html(
            '<ol id="log-lines" hx-swap-oob="beforeend">{}</ol>',
            format_html_join("", "<li>{}</li>", ((line,) for line in lines[count:])),
        ))
    sent.log_round, sent.log_lines = table.state.round_id, lines
    return table.piece("log", lambda: _render("log", mine.view(), viewer))


def _free_seat(table: Rendered, index: int, mine: _Mine) -> str:
    """A free seat offers "Sit here" (from the minimum bet), "Move here" (from the viewer's seat) or nothing."""
    state, position = table.state, mine.position
    seat = state.seats[index]
    move_version, moves_from = seat.move_version, None
    if position.can_change_seat:
        moves_from = position.my_seats[0]
        own = next(s for s in state.seats if s.number == moves_from)
        move_version = max(seat.changed_version, own.changed_version)
    key = ("seat body", table.seat_shows[index], position.can_sit, moves_from, move_version, state.table.min_bet)
    shell = _shell_key(seat, False)
    return table.piece((key, False), lambda: _seat_html(table, key, shell, lambda: (mine.view().seats[index], mine.view())))


def _seat_piece(table: Rendered, index: int, is_mine: bool, seat_and_view: Callable[[], tuple[SeatView, TableView]]) -> str:
    """A taken seat: its body, the same for every viewer and version that shows it alike, in its shell."""
    key = ("seat body", table.seat_shows[index])
    shell = _shell_key(table.state.seats[index], is_mine)
    return table.piece((key, is_mine), lambda: _seat_html(table, key, shell, seat_and_view))


def _shell_key(seat: SeatView, is_mine: bool) -> Hashable:
    """All a seat's shell (the <article> around its body) shows."""
    return ("seat shell", seat.number, is_mine, seat.player is None, seat.leaving, seat.changed_version)


def _seat_html(
    table: Rendered, key: Hashable, shell_key: Hashable, seat_and_view: Callable[[], tuple[SeatView, TableView]]
) -> str:
    """The seat: its body, the same for every viewer, in the viewer's own shell (theirs: "mine", Leave).

    The seat's view and the viewer's are made only if the body or the shell is new.
    """

    def body() -> str:
        seat, view = seat_and_view()
        return compact(render_piece("seat_body", {"view": view, "seat": seat}))

    def shell() -> str:
        seat, view = seat_and_view()
        return compact(render_piece("seat", {"view": view, "seat": seat, "seat_body": BODY_SLOT}))

    # The <article> around the body: all it shows is in its key, so it is rendered once or twice a table.
    before_body, after_body = table.kept_piece(shell_key, shell).split(BODY_SLOT)
    return before_body + table.kept_piece(key, body) + after_body


def whole_table(
    table_id: int, viewer: User | None, notice: str | None = None, *, version: int | None = None
) -> tuple[str, int]:
    """The whole table for a viewer who has nothing of it yet, and the version it shows (page loads, tests).

    `version` is one the caller knows exists: a held version at least as new
    is used without asking the database which is newest.
    """
    table = rendered(table_id, version)
    return frame_for(table, viewer, bankroll_in(table.state, viewer_id(viewer)), notice, Sent()), table.version
