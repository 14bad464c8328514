"""Recompute every balance from the transfers and check the ledger's invariants."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db.models import Count, Sum

from accounts.models import OVERDRAFT_KINDS, LedgerAccount, Transfer


@dataclass(frozen=True)
class AuditReport:
    accounts: int
    transfers: int
    chips_in_play: int  # held by bankrolls and seats, i.e. issued and not won by the house
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


# Other apps (the tables) register checks of their own, e.g. each round's
# conservation; each returns a list of problems in plain words.
EXTRA_CHECKS: list[Callable[[], list[str]]] = []


def register_check(check: Callable[[], list[str]]) -> Callable[[], list[str]]:
    if check not in EXTRA_CHECKS:
        EXTRA_CHECKS.append(check)
    return check


def audit_ledger() -> AuditReport:
    incoming = dict(Transfer.objects.values_list("destination").annotate(total=Sum("amount")))
    outgoing = dict(Transfer.objects.values_list("source").annotate(total=Sum("amount")))
    problems: list[str] = []
    total = 0
    in_play = 0
    accounts = 0
    for account in LedgerAccount.objects.all().iterator(chunk_size=2000):
        accounts += 1
        expected = incoming.get(account.pk, 0) - outgoing.get(account.pk, 0)
        if account.balance != expected:
            problems.append(
                f"Account #{account.pk} ({account.label}) has a balance of {account.balance} "
                f"but its transfers add up to {expected}."
            )
        if expected < 0 and account.kind not in OVERDRAFT_KINDS:
            problems.append(f"Account #{account.pk} ({account.label}) is below zero: {expected}.")
        total += account.balance
        if account.kind not in OVERDRAFT_KINDS:
            in_play += account.balance
    if total != 0:
        problems.append(f"The balances add up to {total}, not 0.")
    stats = Transfer.objects.aggregate(n=Count("id"))
    bad_amounts = Transfer.objects.filter(amount__lte=0).count()
    if bad_amounts:
        problems.append(f"{bad_amounts} transfers move zero or fewer chips.")
    for check in EXTRA_CHECKS:
        problems.extend(check())
    return AuditReport(accounts=accounts, transfers=stats["n"], chips_in_play=in_play, problems=problems)
