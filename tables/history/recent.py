"""A table's last settled rounds, as its "Last 10 rounds" page lists them (game recall)."""

from __future__ import annotations

from dataclasses import dataclass

from tables.engine import GameRound
from tables.models import Round


@dataclass(frozen=True)
class RoundSummary:
    round: Round
    dealer: list[str]
    dealer_total: int
    seats: list[dict]


def summarise(round_row: Round) -> RoundSummary:
    result = GameRound.from_json(round_row.state).result()
    return RoundSummary(
        round=round_row,
        dealer=list(result.dealer.cards),
        dealer_total=result.dealer.total,
        seats=[seat.to_json() for seat in result.seats],
    )
