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
own pieces (their seats, buttons, bankroll: tables.live.viewer_pieces) are
compared one by one, and not even made when all they show is as in the
viewer's last frame (another player acted): most viewers, most versions.

Forms carry the version they are valid from, not the table's latest: a seat's
forms the version at which it last changed hands, a decision's buttons the
version at which it was offered. So a piece stays the same while others play,
and is not sent again (tables.play.services: check_seat_not_stale,
check_not_stale). htmx's ws extension swaps every top-level element of a
frame by its id.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from concurrent.futures import Future
from dataclasses import dataclass, field

from django.utils.safestring import SafeString, mark_safe
from markupsafe import escape

from accounts.models import User
from tables.live.frames import Rendered, rendered
from tables.live.parts import changed_parts
from tables.live.viewer import chips_in
from tables.live.viewer_pieces import (
    Mine,
    hint_for_viewer,
    own_pieces,
    own_seats,
    render,
    seat_places,
    shared_pieces,
    shell_key,
)
from tables.play.access import viewer_id
from tables.play.errors import RealityCheckNotice

# Where the seats go in the #seats box. A raw "<" can only come from the
# template: everything a player typed is escaped.
PIECES_SLOT = mark_safe("<!--seats-->")


@dataclass
class Sent:
    """What one connection has been sent: each piece's HTML by id, and the log so far."""

    pieces: dict[str, str] = field(default_factory=dict)
    log_round: int | None = None
    log_lines: list[str] = field(default_factory=list)
    version: int = -1
    # The viewer's hint still being worked out (tables/live/coach.py): the consumer sends it when ready.
    pending_hint: Future | None = None
    # The pieces every viewer sees alike (`shared_pieces`) as of the version last sent, and which of
    # them were the viewer's own then (their seats, the free seats): `pieces` holds the others as
    # they are in `shared`, so the next frame brings what changed among them without comparing each.
    shared: list[tuple[str, str | None]] | None = None
    own: tuple[int, ...] = ()
    # All the viewer's own pieces showed in the last frame (`_own_key`): the same key, the same pieces.
    own_key: Hashable | None = None


def frame_for(
    table: Rendered,
    viewer: User | None,
    bankroll: int | None,
    notice: str | None,
    sent: Sent,
    *,
    at_tables: int | None = None,
) -> str:
    """The frame that brings this connection up to `table`'s version, and remember it as sent.

    Empty when nothing changed for this viewer. A notice (the answer to one
    click) is always sent when given, and cleared with the next frame after.
    `bankroll` and `at_tables` are the top bar's numbers (None: not shown).
    """
    mine = Mine(table, viewer, bankroll, at_tables)
    hint = hint_for_viewer(table, mine, viewer)
    sent.pending_hint = hint.pending if hint is not None else None
    first = not sent.pieces
    shared = table.piece("shared", lambda: shared_pieces(table))
    # Most versions change nothing of a viewer's own (another player acted): then only the
    # table's changes are brought. A notice, a first frame or the coach's hints: all of it.
    own_key = None if (notice or first or getattr(viewer, "coach_hints", False)) else _own_key(table, mine, shared)
    unchanged = own_key is not None and own_key == sent.own_key and sent.shared is not None
    sent.own_key = own_key
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

    if unchanged:
        _bring_shared(table, sent, shared, parts)
        return _finish_frame(table, mine, viewer, sent, parts, first=False)
    if mine.bankroll is not None:
        bring("bankroll", top_bar_number("bankroll", mine.bankroll))
    if mine.at_tables is not None:
        # The top bar's chips at the tables: theirs at every table, their stacks here as this version has them.
        bring("at-tables", top_bar_number("at-tables", mine.at_tables))
    _bring_table(table, mine, sent, bring, parts, shared)
    # A reality check is shown as its popup, not as a notice too.
    for piece_id, html in own_pieces(table, mine, viewer, None if isinstance(notice, RealityCheckNotice) else notice, hint):
        bring(piece_id, html)
    # Issue 14: a due reality check comes as the answer to a bet, a piece of its own; once
    # answered, the next frame hides it (a connection never shown one is sent nothing).
    if isinstance(notice, RealityCheckNotice):
        bring("reality-check", render("reality_check", mine.view(), viewer, check=notice))
    elif sent.pieces.get("reality-check"):
        bring("reality-check", table.kept_piece("no reality check", lambda: render("reality_check", mine.view(), viewer)))
    if first:
        # The #seats box itself, around every seat: a page may have lost some (a reconnect).
        box = table.kept_piece("seats", lambda: render("seats", mine.view(), viewer, seat_pieces=[PIECES_SLOT]))
        before, after = box.split(PIECES_SLOT)
        parts.append(before + "".join(seats) + after)
    return _finish_frame(table, mine, viewer, sent, parts, first=first)


def top_bar_number(piece_id: str, chips: int) -> str:
    """One of the top bar's numbers as templates/base.html writes it (`intcomma`): a new one at most bets and payouts.

    Made here, not by a template: it holds a number alone.
    """
    return SafeString(f'<strong id="{piece_id}">{int(chips):,}</strong>')


def _finish_frame(table: Rendered, mine: Mine, viewer: User | None, sent: Sent, parts: list[str], *, first: bool) -> str:
    """The frame: its pieces, the log's new lines and the version it brings the page to ("" if nothing changed)."""
    parts.append(_log(table, mine, viewer, sent, whole=first))
    sent.version = max(sent.version, table.version)
    if not any(parts):
        return ""
    # Which version the page now shows (tests and the load test's bots read it).
    parts.append(table.piece("version", lambda: SafeString(f'<i id="version" data-version="{table.version:d}"></i>')))
    return "".join(parts)


def _bring_shared(table: Rendered, sent: Sent, shared: list[tuple[str, str | None]], parts: list[str]) -> None:
    """The shared pieces that changed since the viewer's last frame, their own pieces being as they were (`_own_key`)."""
    own = sent.own
    for index, (piece_id, html, part) in _shared_changes(table, sent.shared, shared).items():
        if index not in own:
            sent.pieces[piece_id] = html
            parts.append(part)
    sent.shared = shared


def _own_key(table: Rendered, mine: Mine, shared: list[tuple[str, str | None]]) -> tuple:
    """All the viewer's own pieces show: the top bar's chips, their seats and buttons, the free seats, their banner.

    A seat's decision (the key and version the table notes when it is first
    offered, tables.play.rounds.decision_key) stands for its buttons: while it
    is the same decision, the seat's cards, stack and choices are the same.
    """
    state, position = table.state, mine.position
    free, places = table.piece("seat places", lambda: seat_places(table, shared))
    shows, seats, row = table.seat_shows, state.seats, state.table
    decisions = row.decisions
    mine_shown = []
    for number in position.my_seats:
        decision = decisions.get(str(number))
        mine_shown.append((
            shows[places[number] - 3],
            shell_key(seats[places[number] - 3], True),
            # With a decision, its buttons' countdown: the table's deadline.
            (*decision, row.deadline) if decision else None,
            state.last_bets.get(number),
            state.results.get(number),
        ))
    return (
        mine.who, mine.bankroll, mine.at_tables, position.can_sit, position.can_change_seat, tuple(mine_shown),
        tuple(shows[index - 3] for index in free), row.min_bet, row.max_bet, row.default_bet,
    )


def _bring_table(
    table: Rendered,
    mine: Mine,
    sent: Sent,
    bring: Callable[[str, str], None],
    parts: list[str],
    shared: list[tuple[str, str | None]],
) -> None:
    """The status, the turn, the dealer and the seats, as the viewer sees them now, where they changed.

    The viewer's own (their seats, the free seats) are compared one by one.
    The others are as every viewer sees them: when the viewer was last sent
    the version before (or any version) with the same own pieces, what
    changed among them since is worked out once for every such viewer.
    """
    own = own_seats(table, mine, shared)
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


def _shared_changes(
    table: Rendered, before: list[tuple[str, str | None]], shared: list[tuple[str, str | None]]
) -> dict[int, tuple[str, str, str]]:
    """The shared pieces that changed since `before` (a version's `shared_pieces`), by place: id, HTML, and what brings it.

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
            continue  # the same; or a free seat, which each viewer sees their own way (`own_seats`)
        changes[index] = (piece_id, html, changed_parts(old, html) if piece_id.startswith("seat-") else html)
    return changes


def _log(table: Rendered, mine: Mine, viewer: User | None, sent: Sent, *, whole: bool) -> str:
    """The round's log: whole for a new round (or a new connection), else only its new lines."""
    lines = table.state.log
    count = len(sent.log_lines)
    if not whole and sent.log_round == table.state.round_id and lines[:count] == sent.log_lines:
        sent.log_lines = lines
        if count == len(lines):
            return ""
        # The same new lines for every viewer who had the version before: made once, escaped as the
        # log's template (log.html) escapes them.
        return table.piece(("log-lines", count), lambda: SafeString(
            '<ol id="log-lines" hx-swap-oob="beforeend">'
            + "".join([f"<li>{escape(line)}</li>" for line in lines[count:]])
            + "</ol>"
        ))
    sent.log_round, sent.log_lines = table.state.round_id, lines
    return table.piece("log", lambda: render("log", mine.view(), viewer))


def whole_table(
    table_id: int, viewer: User | None, notice: str | None = None, *, version: int | None = None
) -> tuple[str, int]:
    """The whole table for a viewer who has nothing of it yet, and the version it shows (page loads, tests).

    `version` is one the caller knows exists: a held version at least as new
    is used without asking the database which is newest.
    """
    table = rendered(table_id, version)
    bankroll, at_tables = chips_in(table.state, viewer_id(viewer))
    return frame_for(table, viewer, bankroll, notice, Sent(), at_tables=at_tables), table.version
