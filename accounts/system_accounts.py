"""The system accounts (the house's, the grants'): the other side of every stake, payout and refill.

Made on first use and never deleted, so each is read once a process and then
remembered. Their balances are changed by accounts.ledger only.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction

from accounts.models import AccountKind, LedgerAccount
from casino import rows

# The system accounts by kind, (pk, label), once seen committed: they are never deleted.
_system: dict[str, tuple[int, str]] = {}


def _system_account(kind: AccountKind, label: str) -> LedgerAccount:
    known = _system.get(kind)
    if known is not None:
        # Its balance is not read: transfers change it in the database, never from here.
        return rows.new(LedgerAccount, stored=True, id=known[0], kind=kind, label=known[1])
    account = LedgerAccount.objects.filter(kind=kind).first()
    if account is None:
        try:
            with transaction.atomic():
                account = LedgerAccount.objects.create(kind=kind, label=label)
        except IntegrityError:
            # Another process created it between our read and our insert.
            account = LedgerAccount.objects.get(kind=kind)
    # Remembered once its row is committed (at once outside a transaction).
    found = (account.pk, account.label)
    transaction.on_commit(lambda: _system.setdefault(kind, found))
    return account


def forget_system_accounts() -> None:
    """Drop the remembered system accounts (tests: each test database makes its own)."""
    _system.clear()


def house_account() -> LedgerAccount:
    return _system_account(AccountKind.HOUSE, "House")


def grants_account() -> LedgerAccount:
    return _system_account(AccountKind.GRANTS, "Grants")
