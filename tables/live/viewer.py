"""One viewer's table: the shared version of it, with their seats, their buttons and their bankroll."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import ClassVar

from django.conf import settings

from accounts import balances
from accounts.models import User
from tables.engine import ACTIONS, ActionSpec
from tables.live.cards import CardView
from tables.live.controls import Control, controls_for
from tables.live.outcomes import round_words
from tables.live.state import SeatView, TableState, deadline_ms, snapshot
from tables.models import Table
from tables.play import access


@dataclass
class TableView:
    table: Table
    version: int
    phase: str
    phase_label: str
    playing: bool  # a round between its betting window and its settlement
    round_number: int | None
    dealer: list[CardView]
    dealer_total: int | None
    seats: list[SeatView]
    controls: list[Control]
    free_seats: list[int]
    my_seats: list[int]
    can_sit: bool
    can_change_seat: bool
    deadline: str | None
    log: list[str]
    commitment: str | None
    rules: list[str]
    default_buy_in: int
    bankroll: int | None
    turn: tuple[int, int] | None = None
    turn_name: str | None = None
    dealer_natural: bool = False
    shoe_id: int | None = None
    # The viewer's settled round over all their seats, for the banner ("You win +10"); None if they did not play it.
    result: str | None = None
    result_kind: str = ""

    @property
    def felt_print(self) -> str:
        """What the felt says, as printed on a real table: the blackjack payout and the dealer's rule."""
        rules = self.table.rules
        pays = rules.blackjack_pays
        dealer = "Dealer hits soft 17" if rules.dealer_hits_soft_17 else "Dealer stands on all 17s"
        return f"Blackjack pays {pays.numerator} to {pays.denominator} · {dealer}"

    # Every action with its key, for the page's shortcut help (not a field: the same for everyone).
    actions: ClassVar[tuple[ActionSpec, ...]] = ACTIONS


def build(table_id: int, viewer: User | None) -> TableView:
    state = snapshot(table_id)
    who = access.viewer_id(viewer)
    return view_for(state, who, chips_in(state, who)[0])


@dataclass(frozen=True)
class Position:
    """Where one viewer stands at one version: their seats, and whether they may sit or move. No queries."""

    my_seats: list[int]
    can_sit: bool
    can_change_seat: bool


def position_of(state: TableState, user_id: int | None) -> Position:
    my_seats = sorted(number for number, player in state.players.items() if user_id is not None and player == user_id)
    free = state.free_seats
    table = state.table
    return Position(
        my_seats=my_seats,
        can_sit=bool(free) and access.may_sit(user_id, table, len(my_seats)),
        can_change_seat=bool(my_seats) and bool(free) and not state.playing and table.seat_count > 1,
    )


def view_for(
    state: TableState,
    user_id: int | None,
    bankroll_chips: int | None,
    controls: Callable[[list[int]], list[Control]] | None = None,
    position: Position | None = None,
) -> TableView:
    """One viewer's table: their seats, their buttons, their bankroll. No queries.

    `controls` gives the buttons of a set of seats, if the caller keeps them
    (tables.live.pieces: once per version for every viewer of those seats);
    `position` is the viewer's `position_of`, if the caller has it.
    """
    table = state.table
    position = position or position_of(state, user_id)
    my_seats = position.my_seats
    can_change_seat = position.can_change_seat
    seats = [replace(seat, is_mine=True) if seat.number in my_seats else seat for seat in state.seats]
    if can_change_seat:
        mine = next(seat for seat in seats if seat.is_mine)
        seats = [
            replace(seat, move_version=max(seat.changed_version, mine.changed_version)) if seat.player is None else seat
            for seat in seats
        ]
    return TableView(
        table=table,
        version=state.version,
        phase=state.phase,
        phase_label=state.phase_label,
        playing=state.playing,
        round_number=state.round_number,
        dealer=state.dealer,
        dealer_total=state.dealer_total,
        seats=seats,
        controls=(controls or functools.partial(controls_of, state))(my_seats),
        free_seats=state.free_seats,
        my_seats=my_seats,
        can_sit=position.can_sit,
        can_change_seat=can_change_seat,
        deadline=deadline_ms(table.deadline),
        log=state.log,
        commitment=state.commitment,
        rules=state.rules,
        default_buy_in=settings.DEFAULT_BUY_IN_CHIPS,
        bankroll=bankroll_chips,
        turn=state.turn,
        turn_name=state.turn_name,
        dealer_natural=state.dealer_natural,
        shoe_id=state.shoe_id,
        **result_of(state, my_seats),
    )


def controls_of(state: TableState, seats: list[int]) -> list[Control]:
    """The buttons of these seats at this version of the table."""
    if state.engine is None or not seats:
        return []
    return controls_for(state.table, state.engine, seats, state.round_number, state.last_bets)


def result_of(state: TableState, my_seats: list[int]) -> dict[str, object]:
    """The banner's words and kind (win, lose, push, blackjack) for the viewer's seats in a settled round."""
    mine = [state.results[number] for number in my_seats if number in state.results]
    if not mine:
        return {}
    net = sum(result[0] for result in mine)
    blackjack = any(result[1] for result in mine)
    kind = "push" if net == 0 else ("blackjack" if blackjack else "win") if net > 0 else "lose"
    return {"result": round_words(net, blackjack=blackjack), "result_kind": kind}


def chips_in(state: TableState, user_id: int | None) -> tuple[int | None, int | None]:
    """The viewer's bankroll and chips at the tables: as read with the table if they sit at it, else read now."""
    if user_id in state.bankrolls:
        return state.bankrolls[user_id], state.at_tables.get(user_id, 0)
    return balances.chips_of(user_id) if user_id is not None else (None, None)
