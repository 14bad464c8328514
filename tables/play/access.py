"""Who may see a table and who may sit at it: the one place these rules are written.

As in Zulip's `access_*` functions, views, consumers, services and history
ask here and get an answer (a table, or a refusal); templates are given the
answer, never the rule. A private table (one with an owner) is its owner's
alone: to anyone else it does not exist. Viewers are named by their user id,
None for a visitor who is not signed in (`viewer_id`).
"""

from __future__ import annotations

from django.db.models import Q, QuerySet

from accounts import pauses
from casino import sql
from tables.models import Table
from tables.play.errors import TableError


class NoSuchTable(TableError):
    """Refused: the table is missing (`code` "no_table") or someone else's private table ("private")."""


def viewer_id(user: object) -> int | None:
    """The signed-in user's id; None for a visitor (or no user at all)."""
    return user.pk if getattr(user, "is_authenticated", False) else None


def may_watch(user_id: int | None, owner_id: int | None) -> bool:
    """A public table (no owner) is everyone's to watch; a private one its owner's alone."""
    return owner_id is None or owner_id == user_id


def access_table(user: object, table_id: int) -> Table:
    """The table, if `user` may see it; NoSuchTable otherwise."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise NoSuchTable("This table does not exist.", "no_table")
    if not may_watch(viewer_id(user), table.owner_id):
        raise NoSuchTable("This is a private table.", "private")
    return table


# Every table socket's opening reads the owner: SQL built once (casino.sql), not by the ORM each time.
_OWNER = sql.statement(Table, "SELECT {owner} FROM {table} WHERE {id} = %s")


def check_may_watch(user: object, table_id: int) -> None:
    """access_table without loading the table: one indexed read of its owner."""
    owner = sql.fetch(_OWNER(), [table_id])
    if not owner:
        raise NoSuchTable("This table does not exist.", "no_table")
    if not may_watch(viewer_id(user), owner[0][0]):
        raise NoSuchTable("This is a private table.", "private")


def public_tables() -> QuerySet[Table]:
    """The tables everyone may watch (the lobby lists them)."""
    return Table.objects.filter(owner__isnull=True)


def private_tables_of(user: object) -> QuerySet[Table]:
    """The private tables `user` owns; none for a visitor."""
    who = viewer_id(user)
    return Table.objects.filter(owner_id=who) if who is not None else Table.objects.none()


def tables_created_by(user: object) -> QuerySet[Table]:
    """The tables `user` opened from the lobby (their solo table, their Rocket Academy tables) and may still see."""
    who = viewer_id(user)
    if who is None:
        return Table.objects.none()
    return Table.objects.filter(Q(owner__isnull=True) | Q(owner_id=who), created_by_id=who)


def is_paused(user: object) -> bool:
    """A player on a break or self-excluded (accounts.pauses) may neither sit, nor play, nor open a table's socket."""
    return pauses.is_paused(user)


def may_take_another_seat(table: Table, seats_held: int) -> bool:
    """RULES.md: one seat each, except where the profile lets one account hold several."""
    return seats_held < table.rules.seats_per_player


def may_sit(user_id: int | None, table: Table, seats_held: int) -> bool:
    """Whether this viewer, holding `seats_held` seats here, may take one more (if one is free)."""
    return user_id is not None and may_watch(user_id, table.owner_id) and may_take_another_seat(table, seats_held)
