"""The tables' part of `audit_ledger`: every round's chips add up, seat by seat."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Exists, OuterRef, Q

from accounts.models import AccountKind, LedgerAccount, Transfer, TransferKind
from tables.models import RoundSeat
from tables.play.rounds import STAKE_KINDS

# Chips that came from outside the game (a top-up grant) are not the round's result.
GAME_KINDS = [*STAKE_KINDS.values(), TransferKind.PAYOUT]


def check_rounds() -> list[str]:
    """For each settled round and seat: the chips the ledger moved equal the recorded result.

    Keyed by ledger account, so a payout to the wrong seat shows even when the
    round's total is right.
    """
    problems: list[str] = []
    moved: dict[tuple[int, int], int] = defaultdict(int)
    transfers = Transfer.objects.filter(round__phase="settled", kind__in=GAME_KINDS).filter(
        Q(source__kind=AccountKind.HOUSE) | Q(destination__kind=AccountKind.HOUSE)
    )
    for round_id, amount, source_id, destination_id, source_kind in transfers.values_list(
        "round_id", "amount", "source_id", "destination_id", "source__kind"
    ).iterator(chunk_size=5000):
        if source_kind == AccountKind.HOUSE:
            moved[(round_id, destination_id)] += amount
        else:
            moved[(round_id, source_id)] -= amount
    recorded = RoundSeat.objects.values_list("round_id", "account_id", "net", "seat").iterator(chunk_size=5000)
    for round_id, account_id, net, seat in recorded:
        ledger_net = moved.pop((round_id, account_id), 0)
        if ledger_net != net:
            problems.append(
                f"Round #{round_id}, seat {seat}: the round's result is {net:+} "
                f"but the ledger moved {ledger_net:+} for that seat."
            )
    for (round_id, account_id), amount in moved.items():
        if amount:
            problems.append(
                f"Round #{round_id}: the ledger moved {amount:+} for account #{account_id}, which played no hand in it."
            )
    return problems


def check_top_up_credit() -> list[str]:
    """Issue 14: no seat's outstanding top-up credit has left the table.

    An open seat owes at most what it holds: its stack plus its stakes still
    on the table in a round not yet settled. A seat that has cashed out owes nothing.
    """
    problems: list[str] = []
    # (A seat account that never played at a table, one the ledger's own tests open, is no seat's.)
    at_a_table = Transfer.objects.filter(Q(source=OuterRef("pk")) | Q(destination=OuterRef("pk")), round__isnull=False)
    owing = list(
        LedgerAccount.objects.filter(kind=AccountKind.SEAT, credit__gt=0)
        .filter(Exists(at_a_table))
        .values_list("pk", "label", "credit", "balance", "seat__id")
    )
    if not owing:
        return problems
    ids = {row[0] for row in owing}
    at_stake: dict[int, int] = defaultdict(int)
    unsettled = Transfer.objects.exclude(round__phase="settled").filter(round__isnull=False, kind__in=GAME_KINDS)
    for source_id, destination_id, amount in unsettled.filter(
        Q(source_id__in=ids) | Q(destination_id__in=ids)
    ).values_list("source_id", "destination_id", "amount"):
        if source_id in ids:  # a stake; else a payout to the seat
            at_stake[source_id] += amount
        else:
            at_stake[destination_id] -= amount
    for pk, label, credit, balance, seat_id in owing:
        if seat_id is None:
            problems.append(f"Account #{pk} ({label}) has cashed out but still owes a top-up of {credit}.")
        elif credit > balance + at_stake[pk]:
            problems.append(
                f"Account #{pk} ({label}) owes a top-up of {credit} but holds only {balance + at_stake[pk]}."
            )
    return problems
