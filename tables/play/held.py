"""The round each table's last play in this process stored, kept so the next play need not read it back.

Every play locks its table's row and reads the round it plays on, the
round's whole state as JSON. When the locked row's version is the one this
process's own play committed, nothing has changed the table since, in any
process: every change bumps the version, under that same lock
(tables.play.services). So the round as that play stored it is the round
the database holds, and the next play takes it from here instead of
decoding the row's JSON again (docs/performance.md, issue 12).

What is kept is a copy of the round's row (the state the play wrote) and a
copy of its engine as the play left it: the next play plays on that engine
instead of decoding the state (tables.play.rounds.load), and the play's own
engine goes on to its viewers' frames untouched. Both are kept only once the
play's transaction commits, and taken out by the next play that finds them
current, so a play that fails and rolls back leaves nothing held that the
database does not have; any other version drops them.
"""

from __future__ import annotations

import threading
from functools import partial

from django.db import connection, transaction
from django.db.models.base import ModelState

from casino import rows
from tables.engine import GameRound
from tables.models import Round, Table

# Table id -> (the version a play of this process committed, that play's round row).
_held: dict[int, tuple[int, Round]] = {}
_lock = threading.Lock()


def keep(table_id: int, version: int, round_row: Round, engine: GameRound | None = None) -> None:
    """Once the current transaction commits: `round_row`, as just written, is the table's round at `version`.

    `engine` is the round as the play left it (its state is what the row holds): the next play takes a
    copy of it (`take_engine`) instead of decoding the row's state.
    """
    transaction.on_commit(partial(_keep, table_id, version, _copy(round_row, engine)))


def _copy(round_row: Round, engine: GameRound | None = None) -> Round:
    """A row of its own with the same field values (a play replaces a field's value, never changes it in place).

    Its own state, with no related rows, as a round read by its own query (casino.rows
    makes rows the same way): not Django's copy, which pickles the state to copy it.
    With a copy of `engine`: the play's own goes on to its viewers' frames (tables.live.frames).
    """
    clone = Round.__new__(Round)
    clone.__dict__.update(round_row.__dict__)
    clone.__dict__.pop(_ENGINE, None)
    state = clone._state = ModelState()
    state.adding, state.db = False, round_row._state.db
    if engine is not None:
        clone.__dict__[_ENGINE] = engine.copy()
    return clone


# Where a held row carries its round's engine until a play takes it.
_ENGINE = "_held_engine"


def take_engine(round_row: Round) -> GameRound | None:
    """The engine kept with a held round row, once: the play that takes it changes it."""
    return round_row.__dict__.pop(_ENGINE, None)


def _keep(table_id: int, version: int, round_row: Round) -> None:
    with _lock:
        held = _held.get(table_id)
        if held is None or held[0] < version:
            _held[table_id] = (version, round_row)


def locked_table(table_id: int) -> Table | None:
    """The table's row, locked, with its round: the one held here when it is current, else read.

    Taken on every play: SQL built once (casino.rows), not by the ORM each time.
    """
    with _lock:
        held = _held.pop(table_id, None)
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
        params = [held[0], table_id] if held is not None else [table_id]
        found = rows.select(Table, "t0.id = %s", params, join=("current_round",), join_on=narrowed)
    if not found:
        return None
    table = found[0]
    field = Table.current_round.field
    if held is not None and held[0] == table.version and held[1].pk == table.current_round_id:
        field.set_cached_value(table, held[1])  # nobody changed the table since this process's play stored it
    elif table.current_round_id is None:
        field.set_cached_value(table, None)
    elif not field.is_cached(table):
        round_rows = rows.select(Round, "t0.id = %s", [table.current_round_id])
        field.set_cached_value(table, round_rows[0] if round_rows else None)
    return table


def forget() -> None:
    """Drop every round held (tests: ids start again in each test database)."""
    with _lock:
        _held.clear()
