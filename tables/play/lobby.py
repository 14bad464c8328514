"""The tables players open from the lobby: their own solo table, and Rocket Academy tables."""

from __future__ import annotations

from django.db import IntegrityError, transaction

from accounts.models import User
from tables.models import RuleProfile, Table
from tables.play.access import private_tables_of


def solo_table_for(user: User) -> Table:
    """The player's private atlantic-city table: one seat, a fresh shoe every hand."""
    table = private_tables_of(user).filter(profile=RuleProfile.ATLANTIC_CITY).first()
    if table is not None:
        return table
    return Table.objects.create(
        name=f"{user.username}'s solo table",
        profile=RuleProfile.ATLANTIC_CITY,
        seat_count=1,
        min_bet=1,
        max_bet=100,
        owner=user,
        created_by=user,
    )


def create_rocket_table(user: User, *, seats: int) -> Table:
    """A public rocket-academy table with 1 to 7 seats; its creator may hold several of them."""
    base = f"{user.username}'s Rocket Academy"
    for n in range(1, 100):
        name = base if n == 1 else f"{base} #{n}"
        try:
            with transaction.atomic():
                return Table.objects.create(
                    name=name,
                    profile=RuleProfile.ROCKET_ACADEMY,
                    seat_count=seats,
                    min_bet=1,
                    max_bet=100,
                    created_by=user,
                )
        except IntegrityError:
            continue
    raise RuntimeError("Could not name the new table.")
