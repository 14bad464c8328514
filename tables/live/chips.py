"""The players at a table: their bankrolls and their chips at the other tables, read with a version of the table.

The top bar's two numbers (`Bankroll 965 · at tables 35`) follow play at a
table live (tables.live.pieces). A seated player's chips at the tables are
their stacks here, as each version has them, plus what they hold at other
tables, read with the version (tables.live.state.snapshot) and kept by the
versions this process writes after it (tables.live.frames.offer): a play here
moves chips at this table only.
"""

from __future__ import annotations

from functools import lru_cache

from django.db import connection

from accounts.models import AccountKind, LedgerAccount
from casino import sql
from tables.models import Seat


def chips_elsewhere(table_id: int, player_ids: set[int]) -> tuple[dict[int, int], dict[int, int]]:
    """The players' bankrolls, and their chips at every table but this one (0 for none), by user id: one read.

    Their stacks at this table are the version's own (its seats' accounts), so
    a play here between this read and the seats' changes nothing of it.
    """
    if not player_ids:
        return {}, {}
    bankrolls, elsewhere = {}, dict.fromkeys(player_ids, 0)
    found = sql.fetch(_chips_sql(connection.vendor, len(player_ids)), [
        AccountKind.BANKROLL.value, AccountKind.SEAT.value, *player_ids, table_id,
    ])
    for user_id, kind, total in found:
        # int(): PostgreSQL's SUM of a bigint column is a numeric.
        (bankrolls if kind == AccountKind.BANKROLL else elsewhere)[user_id] = int(total)
    return bankrolls, elsewhere


@lru_cache(maxsize=64)
def _chips_sql(vendor: str, players: int) -> str:
    accounts, seats, quote = LedgerAccount._meta, Seat._meta, sql.quote

    def column(meta, name: str) -> str:
        return quote(meta.get_field(name).column)

    user, kind, balance = column(accounts, "user"), column(accounts, "kind"), column(accounts, "balance")
    places = ", ".join(["%s"] * players)
    here = (
        f"SELECT {column(seats, 'account')} FROM {quote(seats.db_table)} "
        f"WHERE {column(seats, 'table')} = %s AND {column(seats, 'account')} IS NOT NULL"
    )
    return (
        f"SELECT {user}, {kind}, SUM({balance}) FROM {quote(accounts.db_table)} "
        f"WHERE {kind} IN (%s, %s) AND {user} IN ({places}) AND {column(accounts, 'id')} NOT IN ({here}) "
        f"GROUP BY {user}, {kind}"
    )
