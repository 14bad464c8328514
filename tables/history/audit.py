"""The tables' part of `audit_ledger`: every round's chips add up, seat by seat."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Q

from accounts.models import AccountKind, Transfer, TransferKind
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
