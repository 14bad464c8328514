"""Tables as the lobby lists them, and the tables players create there."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction

from accounts.models import User
from tables import rounds
from tables.models import Round, RoundPhase, RuleProfile, Table


@dataclass(frozen=True)
class LobbyTable:
    table: Table
    rules: list[str]
    taken: int
    free: int
    round_on: bool


def describe(table: Table) -> LobbyTable:
    """`table` must carry the `taken` annotation (seats with a player)."""
    round_on = table.current_round is not None and table.current_round.phase != RoundPhase.SETTLED
    return LobbyTable(
        table=table,
        rules=rounds.rules_of(table).describe(),
        taken=table.taken,
        free=table.seat_count - table.taken,
        round_on=round_on,
    )


def solo_table_for(user: User) -> Table:
    """The player's private atlantic-city table: one seat, a fresh shoe every hand."""
    table = Table.objects.filter(owner=user, profile=RuleProfile.ATLANTIC_CITY).first()
    if table is not None:
        return table
    return Table.objects.create(
        name=f"{user.username}'s solo table",
        profile=RuleProfile.ATLANTIC_CITY,
        seat_count=1,
        min_bet=1,
        max_bet=100,
        owner=user,
    )


def create_rocket_table(user: User, *, seats: int) -> Table:
    """A public rocket-academy table with 1 to 7 seats; its creator may hold several of them."""
    base = f"{user.username}'s Rocket Academy"
    for n in range(1, 100):
        name = base if n == 1 else f"{base} #{n}"
        try:
            with transaction.atomic():
                return Table.objects.create(
                    name=name, profile=RuleProfile.ROCKET_ACADEMY, seat_count=seats, min_bet=1, max_bet=100
                )
        except IntegrityError:
            continue
    raise RuntimeError("Could not name the new table.")


@dataclass(frozen=True)
class RoundSummary:
    round: Round
    dealer: list[str]
    dealer_total: int
    seats: list[dict]


def summarise(round_row: Round) -> RoundSummary:
    result = rounds.load(round_row).result()
    return RoundSummary(
        round=round_row,
        dealer=list(result.dealer.cards),
        dealer_total=result.dealer.total,
        seats=[seat.to_json() for seat in result.seats],
    )
