"""The table each table's last play in this process stored, kept so the next play need not read it back.

Every play locks its table's row and reads the table, the round it plays on
(the round's whole state as JSON) and the seats with their stacks. When the
locked row's version is the one this process's own play committed, nothing
has changed the table since, in any process: every change to the table, its
round, its seats or their stacks bumps the version, under that same lock
(tables.play.services). So the table as that play stored it is the table the
database holds, and the next play takes it from here: under the lock it
reads only the row's version and deadline (tests move a deadline by hand),
not the table, the round or the seats.

What is kept is a copy of each row as the play wrote it (the table's, the
round's, the taken seats' with their accounts) and a copy of the round's
engine as the play left it: the next play plays on that engine instead of
decoding the state (tables.play.rounds.load), and the play's own engine and
seats go on to its viewers' frames untouched. The players are not kept: a
player's breaks and limits change without the table (issue 14), so a play
reads its player anew (`take_seats`). A change that settles its round keeps
the table and the round, not the engine nor the seats (the settlement
changed them): the next betting window reads only the version and deadline,
then the seats. Everything is kept only once the play's transaction
commits, and taken out by the next play, so a play that fails and rolls
back leaves nothing held that the database does not have; any other
version drops it.
"""

from __future__ import annotations

import datetime as dt
import threading
from dataclasses import dataclass
from functools import partial

from django.db import connection, transaction
from django.db.models import Model
from django.db.models.base import ModelState

from accounts.models import User
from casino import rows, sql
from tables.engine import GameRound
from tables.models import Round, Seat, Table


@dataclass(frozen=True, slots=True)
class _Held:
    """What a play of this process committed at `version`, as written: copies of its own, taken by the next play."""

    version: int
    round_row: Round  # with a copy of its engine (`take_engine`)
    table: Table  # the table's row
    seated: list[Seat] | None  # its taken seats, with their accounts (not their players)


_held: dict[int, _Held] = {}
_lock = threading.Lock()


def keep(table: Table, round_row: Round, engine: GameRound | None, seated: list[Seat] | None) -> None:
    """Once the current transaction commits: `table`, `round_row` and `seated`, as just written, are the table at its version.

    `engine` is the round as the play left it (its state is what the row holds): the next play takes a
    copy of it (`take_engine`) instead of decoding the row's state; None for a settled round. `seated`
    are the table's taken seats with their accounts as the play left them, when the play read them all
    and the round is still played (else None).
    """
    held = _Held(
        table.version,
        _copy(round_row, engine),
        _copy(table),
        [_seat_copy(seat) for seat in seated] if seated is not None else None,
    )
    transaction.on_commit(partial(_keep, table.pk, held))


def _copy(row: Model, engine: GameRound | None = None) -> Model:
    """A row of its own with the same field values (a play replaces a field's value, never changes it in place).

    Its own state, with no related rows, as a row read by its own query (casino.rows
    makes rows the same way): not Django's copy, which pickles the state to copy it.
    With a copy of `engine` (a round's): the play's own goes on to its viewers' frames (tables.live.frames).
    """
    clone = row.__class__.__new__(row.__class__)
    clone.__dict__.update(row.__dict__)
    clone.__dict__.pop(_ENGINE, None)
    clone.__dict__.pop(_SEATS, None)
    state = clone._state = ModelState()
    state.adding, state.db = False, row._state.db
    if engine is not None:
        clone.__dict__[_ENGINE] = engine.copy()
    return clone


def _seat_copy(seat: Seat) -> Seat:
    """A seat of its own with a copy of its account (its balance as the play's transfers left it), and no player."""
    clone = _copy(seat)
    if seat.account_id is not None:
        Seat.account.field.set_cached_value(clone, _copy(seat.account))
    return clone


# Where a held row carries what a play takes from it: a round its engine, a table its seats.
_ENGINE = "_held_engine"
_SEATS = "_held_seats"


def take_engine(round_row: Round) -> GameRound | None:
    """The engine kept with a held round row, once: the play that takes it changes it."""
    return round_row.__dict__.pop(_ENGINE, None)


def take_seats(table: Table, player_id: int) -> list[Seat] | None:
    """The held table's taken seats, once, with `player_id`'s own seats' player and limits read now; else None.

    Only the seats and their stacks are as the last play left them (nothing
    else changes them without a new version); a player's limits and breaks are
    theirs to change at any time (issue 14), so they are read for each play.
    """
    seats = table.__dict__.pop(_SEATS, None)
    if seats is None:
        return None
    for player in rows.select(User, "t0.id = %s", [player_id], join=("play_limits",)):
        for seat in seats:
            if seat.player_id == player_id:
                Seat.player.field.set_cached_value(seat, player)
    return seats


def _keep(table_id: int, held: _Held) -> None:
    with _lock:
        kept = _held.get(table_id)
        if kept is None or kept.version < held.version:
            _held[table_id] = held


# The table's version and next deadline, as a play locking it finds them.
_CURRENT = sql.statement(Table, "SELECT {version}, {deadline} FROM {table} WHERE {id} = %s")
_CURRENT_LOCKED = sql.statement(Table, "SELECT {version}, {deadline} FROM {table} WHERE {id} = %s FOR UPDATE")


def locked_table(table_id: int) -> Table | None:
    """The table's row, locked, with its round: the ones held here when they are current, else read.

    Taken on every play: SQL built once (casino.rows), not by the ORM each time.
    When this process holds the table's row at the version the database has
    (and the same deadline), nothing changed it since: only the version and
    deadline are read, under the lock, and the held row and seats are taken.
    """
    with _lock:
        held = _held.pop(table_id, None)
    if held is not None and _current(table_id, held.table):
        table = held.table
        Table.current_round.field.set_cached_value(table, held.round_row)
        if held.seated is not None:
            table.__dict__[_SEATS] = held.seated
        return table
    if connection.features.has_select_for_update:
        # On PostgreSQL the round is read by its own query once the row lock is
        # held: joined into the locking query, READ COMMITTED would return the
        # round as it stood before a racer's commit while the table row is current.
        found = rows.select(Table, "t0.id = %s", [table_id], for_update=True)
    else:
        # SQLite: the transaction began by taking the database's write lock
        # (BEGIN IMMEDIATE), so the round read with the table is current;
        # it is not read at all when the table is still at the held version.
        narrowed = {"current_round": "t0.version <> %s"} if held is not None else None
        params = [held.version, table_id] if held is not None else [table_id]
        found = rows.select(Table, "t0.id = %s", params, join=("current_round",), join_on=narrowed)
    if not found:
        return None
    table = found[0]
    field = Table.current_round.field
    if held is not None and held.version == table.version and held.round_row.pk == table.current_round_id:
        field.set_cached_value(table, held.round_row)  # nobody changed the table since this process's play stored it
    elif table.current_round_id is None:
        field.set_cached_value(table, None)
    elif not field.is_cached(table):
        round_rows = rows.select(Round, "t0.id = %s", [table.current_round_id])
        field.set_cached_value(table, round_rows[0] if round_rows else None)
    return table


def _current(table_id: int, held: Table) -> bool:
    """Lock the table's row (PostgreSQL; SQLite's transaction holds the database) and say whether `held` is it."""
    found = version_and_deadline(table_id, lock=True)
    return found is not None and found == (held.version, held.deadline)


def version_and_deadline(table_id: int, *, lock: bool = False) -> tuple[int, dt.datetime | None] | None:
    """The table's version and next deadline (aware), None if there is no such table; `lock`: its row locked (PostgreSQL)."""
    locking = lock and connection.features.has_select_for_update
    found = sql.fetch((_CURRENT_LOCKED if locking else _CURRENT)(), [table_id])
    if not found:
        return None
    version, deadline = found[0]
    if deadline is not None and deadline.tzinfo is None:
        deadline = deadline.replace(tzinfo=connection.timezone)  # SQLite keeps them naive, in UTC
    return version, deadline


def forget() -> None:
    """Drop every round held (tests: ids start again in each test database)."""
    with _lock:
        _held.clear()
