"""Tables as the lobby lists them: rules, seats taken and free, a round on or not."""

from __future__ import annotations

from dataclasses import dataclass

from tables.models import RoundPhase, Table


@dataclass(frozen=True)
class LobbyTable:
    table: Table
    rules: list[str]
    taken: int
    free: int
    round_on: bool


def lobby_entry(table: Table) -> LobbyTable:
    """`table` must carry the `taken` annotation (seats with a player)."""
    round_on = table.current_round is not None and table.current_round.phase != RoundPhase.SETTLED
    return LobbyTable(
        table=table,
        rules=table.rules.rule_lines(),
        taken=table.taken,
        free=table.seat_count - table.taken,
        round_on=round_on,
    )
