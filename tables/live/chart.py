"""A profile's basic-strategy chart as a page shows it: read from the engine's chart (tables.engine.strategy).

Each cell is the play the engine's basic strategy makes for a two-card hand
at this profile: a code a profile cannot play (surrender where there is
none) is shown as its fallback, exactly as `basic_strategy` falls back.
"""

from __future__ import annotations

from dataclasses import dataclass

from tables.engine import RuleSet
from tables.engine.rules import Surrender
from tables.engine.strategy import chart_for

UP_CARDS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "A")

# What each code means, as the legend says it (the engine's codes: tables/engine/strategy.py).
LEGEND = {
    "H": "Hit",
    "S": "Stand",
    "D": "Double if allowed, otherwise hit",
    "Ds": "Double if allowed, otherwise stand",
    "P": "Split",
    "Rh": "Surrender if allowed, otherwise hit",
    "Rs": "Surrender if allowed, otherwise stand",
}


@dataclass(frozen=True)
class ChartRow:
    label: str
    cells: tuple[str, ...]


@dataclass(frozen=True)
class ChartView:
    name: str
    source: str
    hard: list[ChartRow]
    soft: list[ChartRow]
    pairs: list[ChartRow]
    legend: list[tuple[str, str]]


def _cells(row: tuple[str, ...], rules: RuleSet) -> tuple[str, ...]:
    if rules.surrender is Surrender.NONE:
        # No surrender at this table: basic_strategy plays the fallback.
        return tuple({"Rh": "H", "Rs": "S"}.get(code, code) for code in row)
    return row


def strategy_chart(rules: RuleSet) -> ChartView:
    chart = chart_for(rules)
    hard = [ChartRow("5–7", ("H",) * 10)]
    hard += [ChartRow(str(total), _cells(row, rules)) for total, row in sorted(chart.hard.items())]
    hard.append(ChartRow("17+", ("S",) * 10))
    soft = [ChartRow(f"A,{total - 11}", _cells(row, rules)) for total, row in sorted(chart.soft.items())]
    soft.append(ChartRow("A,9", ("S",) * 10))
    names = {1: "A", 10: "10"}
    pairs = [
        ChartRow(f"{names.get(value, value)},{names.get(value, value)}", _cells(row, rules))
        for value, row in sorted(chart.pairs.items(), reverse=True)
    ]
    used = {code for rows in (hard, soft, pairs) for row in rows for code in row.cells}
    legend = [(code, text) for code, text in LEGEND.items() if code in used]
    return ChartView(name=chart.name, source=chart.source, hard=hard, soft=soft, pairs=pairs, legend=legend)
