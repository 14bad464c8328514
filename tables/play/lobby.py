"""The tables players open from the lobby: their own solo table, and Rocket Academy tables.

A player may hold settings.TABLES_PER_PLAYER Rocket Academy tables (their
solo table is one at most and not counted): a new one first reuses an empty
one of theirs (nobody seated), and at the limit nothing is made.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef

from accounts.models import User
from tables.models import RuleProfile, Seat, Table
from tables.play import services
from tables.play.access import private_tables_of, tables_created_by
from tables.play.errors import TableError

NAME_LENGTH = Table._meta.get_field("name").max_length
# Numbered names tried ("... #2", "... #3") before a random suffix, which cannot be taken in practice.
NUMBERED_NAMES = 20


class TableLimitReached(TableError):
    """The player holds as many Rocket Academy tables as they may, and none of them is empty."""


def solo_table_for(user: User) -> Table:
    """The player's private atlantic-city table: one seat, a fresh shoe every hand."""
    table = private_tables_of(user).filter(profile=RuleProfile.ATLANTIC_CITY).first()
    if table is not None:
        return table
    return _create_named(
        f"{user.username}'s solo table",
        profile=RuleProfile.ATLANTIC_CITY,
        seat_count=1,
        min_bet=1,
        max_bet=100,
        owner=user,
        created_by=user,
    )


def rocket_tables_of(user: User):
    """The Rocket Academy tables `user` opened, with `empty` set on those where nobody sits."""
    seated = Seat.objects.filter(table=OuterRef("pk"), player__isnull=False)
    return (
        tables_created_by(user)
        .filter(profile=RuleProfile.ROCKET_ACADEMY)
        .annotate(empty=~Exists(seated))
        .order_by("id")
    )


def create_rocket_table(user: User, *, seats: int) -> Table:
    """A public rocket-academy table with 1 to 7 seats; its creator may hold TABLES_PER_PLAYER of them.

    An empty table of theirs of that size is reused first; at the limit an
    empty one of another size is resized; with none empty, TableLimitReached.
    """
    with transaction.atomic():
        # One creation per player at a time: two quick clicks cannot both pass the count.
        list(User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True))
        tables = list(rocket_tables_of(user))
        empty = [table for table in tables if table.empty]
        same = next((table for table in empty if table.seat_count == seats), None)
        if same is not None:
            return same
        if len(tables) < settings.TABLES_PER_PLAYER:
            return _create_named(
                f"{user.username}'s Rocket Academy",
                profile=RuleProfile.ROCKET_ACADEMY,
                seat_count=seats,
                min_bet=1,
                max_bet=100,
                created_by=user,
            )
        if empty:
            services.do_resize_empty_table(empty[0].pk, seats)
            return Table.objects.get(pk=empty[0].pk)
    limit = settings.TABLES_PER_PLAYER
    raise TableLimitReached(
        f"You already have {limit} Rocket Academy table{'s' if limit != 1 else ''} with players at "
        "every one: play at one of them, or wait until one is empty and open it again.",
        "table_limit",
    )


def _create_named(base: str, **fields: object) -> Table:
    """Create a table named `base` (cut to fit), or "base #2", "#3" ..., or at worst with a random suffix.

    Never fails for want of a name (issue 15: the 100th table was a 500).
    """
    base = base[:NAME_LENGTH]
    taken = set(Table.objects.filter(name__startswith=base).values_list("name", flat=True))
    candidates = [_numbered(base, n) for n in range(1, NUMBERED_NAMES + 1)]
    for name in [name for name in candidates if name not in taken] + [_numbered(base, None) for _ in range(3)]:
        try:
            with transaction.atomic():
                return Table.objects.create(name=name, **fields)
        except IntegrityError:
            continue  # taken a moment ago by someone else: the next one
    raise RuntimeError("Could not name the new table.")  # three random suffixes taken: not in this universe


def _numbered(base: str, n: int | None) -> str:
    """`base`, "base #n", or with n None a random suffix, cut to fit the name's length."""
    if n == 1:
        return base
    suffix = f" #{n}" if n is not None else f" #{secrets.token_hex(4)}"
    return base[: NAME_LENGTH - len(suffix)] + suffix
