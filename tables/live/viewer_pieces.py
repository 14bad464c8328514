"""Each piece of one version of a table as one viewer sees it, rendered once for everyone who sees it alike.

The status, the turn, the dealer and the seats others hold are the same for
every viewer (`shared_pieces`); a viewer's own are their seats, the free seats
(Sit here, Move here), their banner, notice, buttons and Hints switch
(`own_seats`, `own_pieces`). Each is found by a key made of all it shows, so a
piece that looks the same as at another version, or to another viewer, is
rendered once (tables.live.frames: `Rendered.piece` and `kept_piece`).
tables.live.pieces makes each viewer's frame of them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from accounts.models import User
from tables.live import coach
from tables.live.controls import Control
from tables.live.frames import Rendered
from tables.live.parts import SeatPiece, compact
from tables.live.state import SeatView
from tables.live.templating import render_piece
from tables.live.viewer import TableView, controls_of, position_of, result_of, view_for
from tables.models import Table
from tables.play.access import viewer_id

# Where a seat's body goes in its shell. A raw "<" can only come from the
# template: everything a player typed is escaped.
BODY_SLOT = mark_safe("<!--seat body-->")


class Mine:
    """What of one version is the viewer's own: their position and buttons; their whole view only if a piece needs rendering.

    A frame is mostly pieces every viewer shares, rendered once per version
    (`shared_pieces`); a viewer's own (their seats, buttons, bankroll, banner) are
    found by keys made from their position, so the whole view
    (tables.live.viewer.view_for) is built only when one of them is new.
    """

    __slots__ = ("table", "who", "bankroll", "at_tables", "position", "_controls", "_view", "_own")

    def __init__(self, table: Rendered, viewer: User | None, bankroll: int | None, at_tables: int | None = None) -> None:
        self.table, self.who, self.bankroll, self.at_tables = table, viewer_id(viewer), bankroll, at_tables
        # The same from version to version while nobody sits down or stands up: kept by all it is made from.
        key = ("position", self.who, table.piece("position of all", lambda: _position_key(table)))
        self.position = table.kept_piece(key, lambda: position_of(table.state, self.who))
        self._controls: list[Control] | None = None
        self._view: TableView | None = None
        self._own: TableView | OwnView | None = None

    @property
    def controls(self) -> list[Control]:
        """The viewer's buttons at this version (worked out when a frame needs them)."""
        if self._controls is None:
            self._controls = controls_of_seats(self.table, self.position.my_seats)
        return self._controls

    def own_view(self) -> TableView | OwnView:
        """All the viewer's own pieces but their seats show (`OwnView`): not their whole view, unless it is made."""
        if self._own is None:
            if self._view is not None:
                self._own = self._view
            else:
                state, position = self.table.state, self.position
                result = result_of(state, position.my_seats) if state.results else {}
                self._own = OwnView(state.table, self.controls, position.my_seats, position.can_sit, **result)
        return self._own

    def view(self) -> TableView:
        if self._view is None:
            table = self.table
            self._view = view_for(table.state, self.who, self.bankroll, functools.partial(controls_of_seats, table), self.position)
        return self._view


def _position_key(table: Rendered) -> Hashable:
    """All of a version a viewer's position is made from (tables.live.viewer.position_of), but the viewer."""
    state = table.state
    row = state.table
    return (tuple(state.players.items()), tuple(state.free_seats), state.playing, row.owner_id, row.profile, row.seat_count)


@dataclass(frozen=True, slots=True)
class OwnView:
    """What the viewer's banner, notice, buttons and Hints switch show, by the names of their whole view (TableView).

    Their whole view holds every seat as they see it; these pieces need none of them.
    """

    table: Table
    controls: list[Control]
    my_seats: list[int]
    can_sit: bool
    result: str | None = None
    result_kind: str = ""


def shared_pieces(table: Rendered) -> list[tuple[str, str | None]]:
    """The pieces every viewer sees alike at this version, in the page's order; None for a free seat (each viewer's own)."""
    view = view_for(table.state, None, None, functools.partial(controls_of_seats, table))

    def watchers(name: str) -> Callable[[], str]:
        return lambda: render(name, view, None)

    pieces: list[tuple[str, str | None]] = []
    status = ("status", view.phase_label, view.round_number, None if view.playing else view.deadline)
    pieces.append(("status", table.kept_piece(status, watchers("status"))))
    turn = ("turn", view.turn, view.turn_name, view.deadline if view.turn else None)
    pieces.append(("turn", table.kept_piece(turn, watchers("turn"))))
    dealer = (tuple(card.code for card in view.dealer), view.dealer_total)
    pieces.append(("dealer", table.kept_piece(("dealer", *dealer), watchers("dealer"))))
    for index, seat in enumerate(view.seats):
        # A taken seat looks the same to all but its player (`own_seats`).
        html = None if seat.player is None else seat_piece(table, index, False, lambda s=seat: (s, view))
        pieces.append((f"seat-{seat.number}", html))
    return pieces


def render(name: str, view: TableView | OwnView, viewer: User | None, **extra: object) -> str:
    """A piece of the table (templates/tables/pieces/, Jinja2: tables/live/templating.py), as sent."""
    return compact(render_piece(name, {"view": view, "user": viewer, "notice": None, **extra}))


def renderer(mine: Mine, viewer: User | None, name: str, **extra: object) -> Callable[[], str]:
    """One of the viewer's own pieces but their seats, when it must be rendered (`Mine.own_view`)."""
    return lambda: render(name, mine.own_view(), viewer, **extra)


def hint_for_viewer(table: Rendered, mine: Mine, viewer: User | None) -> coach.Hint | None:
    """The coach's hint, for a player who asked for hints and whose decision it is (nobody else).

    In the players' turn, the hand to act; while insurance is offered, the viewer's first seat still to answer.
    """
    if not (getattr(viewer, "coach_hints", False) and mine.controls):
        return None
    turn = table.state.turn
    if turn:
        return coach.hint_for(table.state, *turn) if turn[0] in mine.position.my_seats else None
    insuring = next((c.seat for c in mine.controls if any(a.name == "no_insurance" for a in c.actions)), None)
    return coach.hint_for(table.state, insuring, 0) if insuring is not None else None


def hint_html(hint: coach.Hint | None) -> str:
    """The coach's hint, for the viewer's controls (only a player with Hints on, at their decision, has one)."""
    return mark_safe(render_to_string("tables/coach/hints.html", {"hint": hint})) if hint is not None else ""


def own_pieces(
    table: Rendered, mine: Mine, viewer: User | None, notice: str | None, hint: coach.Hint | None = None
) -> list[tuple[str, str]]:
    """The viewer's banner, notice, buttons and Hints switch, after the table in the page."""
    state, position, who = table.state, mine.position, mine.who
    my_seats = position.my_seats
    pieces: list[tuple[str, str]] = []
    # The viewer's result banner: empty except while their settled round is shown.
    result = result_of(state, my_seats) if state.results else {}
    pieces.append(("result", table.kept_piece(("result", result.get("result"), result.get("result_kind", "")), renderer(mine, viewer, "result"))))
    # A notice answers one click: never kept.
    notice_html = renderer(mine, viewer, "notice", notice=notice)() if notice else table.kept_piece("no notice", renderer(mine, viewer, "notice"))
    pieces.append(("notice", notice_html))
    if mine.controls:
        # A decision looks the same from version to version: its buttons carry the version it was offered at.
        # The viewer's hint, if they asked for hints, shows with their buttons.
        key = ("controls", tuple(my_seats), tuple(mine.controls), hint)
    else:
        # No decision to make: the same few words for everyone in the viewer's position.
        key = ("no controls", bool(my_seats), who is not None, position.can_sit)
    pieces.append(("controls", table.kept_piece(key, renderer(mine, viewer, "controls", hint_html=hint_html(hint)))))
    # A seated player's Hints switch: a piece of its own, sent when it changes, not with every decision.
    switch = ("hints switch", bool(my_seats) and who is not None, bool(getattr(viewer, "coach_hints", False)))
    pieces.append(("hints-switch", table.kept_piece(switch, renderer(mine, viewer, "hints_switch"))))
    return pieces


def controls_of_seats(table: Rendered, seats: list[int]) -> list[Control]:
    """The buttons of these seats at this version: worked out once, for whoever holds them."""
    return table.piece(("controls of", tuple(seats)), lambda: controls_of(table.state, seats))


def own_seats(table: Rendered, mine: Mine, shared: list[tuple[str, str | None]]) -> dict[int, str]:
    """The viewer's own pieces among the shared ones, by their place: the free seats, then their seats."""
    free, places = table.piece("seat places", lambda: seat_places(table, shared))
    own = {index: free_seat(table, index - 3, mine) for index in free}  # after the status, the turn and the dealer
    for number in mine.position.my_seats:
        index = places[number]
        own[index] = seat_piece(table, index - 3, True, lambda i=index - 3: (mine.view().seats[i], mine.view()))
    return own


def seat_places(table: Rendered, shared: list[tuple[str, str | None]]) -> tuple[tuple[int, ...], dict[int, int]]:
    """Where the free seats are among the shared pieces, and where each seat is, by its number."""
    free = tuple(index for index, (_, html) in enumerate(shared) if index >= 3 and html is None)
    return free, {seat.number: index for index, seat in enumerate(table.state.seats, start=3)}


def free_seat(table: Rendered, index: int, mine: Mine) -> str:
    """A free seat offers "Sit here" (from the minimum bet), "Move here" (from the viewer's seat) or nothing."""
    state, position = table.state, mine.position
    seat = state.seats[index]
    move_version, moves_from = seat.move_version, None
    if position.can_change_seat:
        moves_from = position.my_seats[0]
        own = next(s for s in state.seats if s.number == moves_from)
        move_version = max(seat.changed_version, own.changed_version)
    key = ("seat body", table.seat_shows[index], position.can_sit, moves_from, move_version, state.table.min_bet)
    shell = shell_key(seat, False)
    return table.piece((key, False), lambda: seat_html(table, key, shell, lambda: (mine.view().seats[index], mine.view())))


def seat_piece(table: Rendered, index: int, is_mine: bool, seat_and_view: Callable[[], tuple[SeatView, TableView]]) -> str:
    """A taken seat: its body, the same for every viewer and version that shows it alike, in its shell."""
    key = ("seat body", table.seat_shows[index])
    shell = shell_key(table.state.seats[index], is_mine)
    return table.piece((key, is_mine), lambda: seat_html(table, key, shell, seat_and_view))


def shell_key(seat: SeatView, is_mine: bool) -> Hashable:
    """All a seat's shell (the <article> around its body) shows."""
    return ("seat shell", seat.number, is_mine, seat.player is None, seat.leaving, seat.changed_version)


def seat_html(
    table: Rendered, key: Hashable, shell_key: Hashable, seat_and_view: Callable[[], tuple[SeatView, TableView]]
) -> SeatPiece:
    """The seat: its body, the same for every viewer, in the viewer's own shell (theirs: "mine", Leave).

    The seat's view and the viewer's are made only if the body or the shell is new.
    """

    def shell() -> str:
        seat, view = seat_and_view()
        return compact(render_piece("seat", {"view": view, "seat": seat, "seat_body": BODY_SLOT}))

    def whole() -> SeatPiece:
        # The <article> around the body: all it shows is in its key, so it is rendered once or twice a table.
        before_body, after_body = table.kept_piece(shell_key, shell).split(BODY_SLOT)
        parts, rest = table.kept_piece(key, lambda: seat_body(table, *seat_and_view()))
        return SeatPiece(before_body, parts, rest, after_body)

    # Most seats show at a version what they showed at the one before: the same seat, not made again.
    return table.kept_piece(("seat", shell_key, key), whole)


def seat_body(table: Rendered, seat: SeatView, view: TableView) -> tuple[tuple[str, ...], str]:
    """A seat's body as templates/tables/pieces/seat_body.html draws it: its parts, and the rest.

    A taken seat's parts (head, play, stack) are each rendered once for all
    they show, so a play renders only the part it changed; its top-up loan is
    the rest. A free seat (its forms) is all rest.
    """
    context = {"view": view, "seat": seat}
    if seat.player is None:
        return (), compact(render_piece("seat_body", context))

    def part(name: str) -> Callable[[], str]:
        return lambda: compact(render_piece(name, context))

    number = seat.number
    hands = tuple(
        (tuple(card.code for card in hand.cards), hand.total, hand.soft, hand.bet, hand.outcome, hand.result)
        for hand in seat.hands
    )
    return (
        table.kept_piece(("seat head", number, seat.player, seat.deadline), part("seat_head")),
        table.kept_piece(("seat play", number, seat.status, seat.staked, seat.insurance, hands), part("seat_play")),
        table.kept_piece(("seat stack", number, seat.stack, seat.net), part("seat_stack")),
    ), table.kept_piece(("seat loan", seat.credit), part("seat_loan"))
