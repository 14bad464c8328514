"""The whole game off the top of a shoe: house edge with optimal and with basic-strategy play."""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import InsuranceRule, RuleSet, SplitBy
from .analysis import check_rules, solver_for
from .composition import Composition
from .hands import STEP, UpCardSolver
from .split import best_split_value, split_value

POLICIES = ("optimal", "basic")


def _initial_value(solver: UpCardSolver, first: int, second: int, policy: str) -> float:
    """Unconditional value of a first two-card hand, played by the policy."""
    rules = solver.rules
    code = STEP[first] + STEP[second]
    blackjack = solver.blackjack_chance(code)
    if (first, second) == (0, 9):
        return float(rules.blackjack_pays) * (1.0 - blackjack)
    legal = solver.legal(first + second + 2, first == 0, 2, False, 0)
    context = (policy, False, 0, 0)
    if first != second or rules.max_hands < 2:
        return _choose(solver, code, legal, context, None)
    splitting = _choose(solver, code, legal, context, first)
    if first == 9 and rules.split_by is SplitBy.RANK:
        # Only two tens of one rank split; the shoe's tens are taken as evenly ranked.
        tens = solver.shoe[9]
        same_rank = max(tens / 4 - 1, 0.0) / (tens - 1) if tens > 1 else 0.0
        return same_rank * splitting + (1 - same_rank) * _choose(solver, code, legal, context, None)
    return splitting


def _choose(solver: UpCardSolver, code: int, legal: tuple[str, ...], context: tuple[str, bool, int, int],
            pair: int | None) -> float:
    policy = context[0]
    if policy == "basic":
        action = solver.chart(code, legal + (("split",) if pair is not None else ()))
        if action == "split":
            return split_value(solver, pair, "basic")
        return solver.action_values(code, (action,), context)[action]
    values = solver.action_values(code, legal, context)
    best = max(values.values())
    if pair is not None:
        best = max(best, best_split_value(solver, pair))
    return best


def up_card_value(rules: RuleSet, shoe: tuple[int, ...], up: int, policy: str) -> float:
    """The player's unconditional expected value given the dealer's up card."""
    solver = solver_for(rules, shoe, up)
    solver.prefetch(solver.reachable(0))
    left, size = solver.shoe, solver.size
    value = 0.0
    for first in range(10):
        for second in range(first, 10):
            ways = left[first] * (left[second] - (first == second))
            if ways <= 0:
                continue
            chance = ways * (1 if first == second else 2) / (size * (size - 1))
            hand = _initial_value(solver, first, second, policy)
            if policy == "optimal" and up == 0 and rules.insurance is not InsuranceRule.NONE:
                # Insure whenever it pays (never off the top of a full shoe).
                hand += max(0.0, 0.5 * (3.0 * solver.blackjack_chance(STEP[first] + STEP[second]) - 1.0))
            value += chance * hand
    return value


@dataclass(frozen=True)
class GameAnalysis:
    """House edges per initial bet (positive: the house is ahead)."""

    rules: RuleSet
    house_edge: float
    basic_strategy_edge: float


def house_edge(rules: RuleSet, composition: Composition | None = None, *, strategy: str = "optimal") -> float:
    """Exact house edge per initial bet off the top of ``composition`` (a fresh shoe by default).

    ``strategy``: ``"optimal"`` (composition-dependent, CDZ- splits) or
    ``"basic"`` (the profile's chart, as the simulator plays it).
    """
    if strategy not in POLICIES:
        raise ValueError(f"strategy is one of {POLICIES}")
    check_rules(rules)
    shoe = (composition or Composition.full(rules.decks)).counts
    size = sum(shoe)
    return -sum(shoe[up] / size * up_card_value(rules, shoe, up, strategy) for up in range(10) if shoe[up])


def analyse(rules: RuleSet, composition: Composition | None = None) -> GameAnalysis:
    return GameAnalysis(
        rules=rules,
        house_edge=house_edge(rules, composition, strategy="optimal"),
        basic_strategy_edge=house_edge(rules, composition, strategy="basic"),
    )
