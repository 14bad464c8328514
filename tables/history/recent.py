"""A table's last settled rounds, as its "Last 10 rounds" page lists them (game recall)."""

from __future__ import annotations

from dataclasses import dataclass

from tables.engine import GameRound
from tables.history.queries import HandLine, hand_lines
from tables.live.cards import CardView
from tables.models import Round


@dataclass(frozen=True)
class SeatLine:
    seat: int
    hands: list[HandLine]
    net: int
    insurance: int


@dataclass(frozen=True)
class RoundSummary:
    round: Round
    dealer: list[CardView]
    dealer_total: int
    seats: list[SeatLine]


def summarise(round_row: Round) -> RoundSummary:
    result = GameRound.from_json(round_row.state).result()
    return RoundSummary(
        round=round_row,
        dealer=[CardView(card) for card in result.dealer.cards],
        dealer_total=result.dealer.total,
        seats=[
            SeatLine(
                seat=seat.seat,
                hands=hand_lines(hand.to_json() for hand in seat.hands),
                net=seat.net,
                insurance=seat.insurance,
            )
            for seat in result.seats
        ],
    )
