"""The tables' part of `audit_ledger`: every round's chips add up."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Q

from accounts.models import AccountKind, Transfer, TransferKind
from tables import rounds
from tables.models import Round, RoundPhase

# Chips that came from outside the game (a top-up grant) are not the round's result.
GAME_KINDS = [TransferKind.BET, TransferKind.DOUBLE, TransferKind.SPLIT, TransferKind.INSURANCE, TransferKind.PAYOUT]


def check_rounds() -> list[str]:
    """For each settled round: what the ledger moved for each seat equals the engine's net."""
    problems: list[str] = []
    moved: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    transfers = Transfer.objects.filter(round__phase=RoundPhase.SETTLED, kind__in=GAME_KINDS).filter(
        Q(source__kind=AccountKind.HOUSE) | Q(destination__kind=AccountKind.HOUSE)
    )
    for round_id, kind, amount, source_kind, source_label, destination_label in transfers.values_list(
        "round_id", "kind", "amount", "source__kind", "source__label", "destination__label"
    ).iterator(chunk_size=5000):
        if source_kind == AccountKind.HOUSE:
            moved[round_id][destination_label] += amount
        else:
            moved[round_id][source_label] -= amount
    for round_row in Round.objects.filter(phase=RoundPhase.SETTLED).iterator(chunk_size=500):
        engine = rounds.load(round_row)
        engine_total = sum(seat.net for seat in engine.seats.values())
        ledger_total = sum(moved[round_row.pk].values())
        if engine_total != ledger_total:
            problems.append(
                f"Round #{round_row.pk} ({round_row}): the seats' results add up to {engine_total} "
                f"but its transfers to and from the house add up to {ledger_total}."
            )
    return problems
