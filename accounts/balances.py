"""What players hold, read only: bankrolls and chips at the tables, for pages, frames and the top bar.

Chips move only through accounts/ledger.py; these reads never move any.
"""

from __future__ import annotations

from django.db.models import Sum

from accounts.models import AccountKind, LedgerAccount


def at_tables_balance(user_id: int) -> int:
    """The chips a player has at the tables: the sum of their seat stacks (0 if none), one indexed read."""
    rows = LedgerAccount.objects.filter(kind=AccountKind.SEAT, user_id=user_id)
    return rows.aggregate(total=Sum("balance"))["total"] or 0


def chips_of(user_id: int) -> tuple[int | None, int]:
    """(bankroll, chips at the tables) for the top bar, in one read; the bankroll is None if there is none."""
    rows = (
        LedgerAccount.objects.filter(kind__in=[AccountKind.BANKROLL, AccountKind.SEAT], user_id=user_id)
        .values("kind")
        .annotate(total=Sum("balance"))
        .values_list("kind", "total")
    )
    totals = dict(rows)
    return totals.get(AccountKind.BANKROLL), totals.get(AccountKind.SEAT) or 0
