"""The whole game off the top of a shoe: house edge with optimal and with basic-strategy play."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..rules import InsuranceRule, RuleSet, SplitBy
from .analysis import check_rules, solver_for
from .composition import Composition
from .hands import STEP, UpCardSolver
from .moments import Moments
from .split import best_split_value, split_limit, split_value

POLICIES = ("optimal", "basic")
Choice = tuple[float, str, int]  # value, play, hand limit of a split


def _choose(solver: UpCardSolver, code: int, legal: tuple[str, ...], policy: str, pair: int | None) -> Choice:
    """The policy's first play for a two-card hand and its unconditional value."""
    context = (policy, False, 0, 0)
    if policy == "basic":
        action = solver.chart(code, legal + (("split",) if pair is not None else ()))
        if action == "split":
            limit = split_limit(solver, pair)
            return split_value(solver, pair, "basic"), "split", limit
        return solver.action_values(code, (action,), context)[action], action, 0
    values = solver.action_values(code, legal, context)
    action = max(values, key=values.__getitem__)
    best: Choice = (values[action], action, 0)
    if pair is not None:
        value, limit = best_split_value(solver, pair)
        if value > best[0]:
            best = (value, "split", limit)
    return best


def _second(moments: Moments, code: int, choice: Choice, policy: str, pair: int) -> float:
    if choice[1] == "split":
        return moments.split_second(pair, policy, choice[2])
    return moments.second(code, (policy, False, 0, 0), choice[1])


def up_card_moments(rules: RuleSet, shoe: tuple[int, ...], up: int, policy: str,
                    squares: bool = True) -> tuple[float, float]:
    """The player's unconditional E[X] and E[X^2] (0 unless ``squares``) given the dealer's up card."""
    solver = solver_for(rules, shoe, up)
    solver.prefetch(solver.reachable(0))
    moments = Moments(solver)
    left, size = solver.shoe, solver.size
    insure = policy == "optimal" and up == 0 and rules.insurance is not InsuranceRule.NONE
    mean = second = 0.0
    for first in range(10):
        for card in range(first, 10):
            ways = left[first] * (left[card] - (first == card))
            if ways <= 0:
                continue
            chance = ways * (1 if first == card else 2) / (size * (size - 1))
            code = STEP[first] + STEP[card]
            blackjack = solver.blackjack_chance(code)
            if (first, card) == (0, 9):
                pays = float(rules.blackjack_pays)
                value, square = pays * (1.0 - blackjack), pays * pays * (1.0 - blackjack)
            else:
                legal = solver.legal(first + card + 2, first == 0, 2, False, 0)
                pair = first if first == card and rules.max_hands >= 2 else None
                choice = _choose(solver, code, legal, policy, pair)
                value = choice[0]
                square = _second(moments, code, choice, policy, first) if squares else 0.0
                if pair == 9 and rules.split_by is SplitBy.RANK:
                    # Only two tens of one rank split; the shoe's tens are taken as evenly ranked.
                    tens = left[9]
                    same = max(tens / 4 - 1, 0.0) / (tens - 1) if tens > 1 else 0.0
                    keep = _choose(solver, code, legal, policy, None)
                    value = same * value + (1 - same) * keep[0]
                    if squares:
                        square = same * square + (1 - same) * _second(moments, code, keep, policy, first)
            if insure:
                # Insure whenever it pays (never off the top of a full shoe); left out of E[X^2].
                value += max(0.0, 0.5 * (3.0 * blackjack - 1.0))
            mean += chance * value
            second += chance * square
    return mean, second


@dataclass(frozen=True)
class GameAnalysis:
    """The game off the top of a shoe, per initial bet (edges positive when the house is ahead)."""

    rules: RuleSet
    house_edge: float
    basic_strategy_edge: float
    #: Standard deviation of one round's result with optimal play (basic: ``basic_sd_per_round``).
    sd_per_round: float
    basic_sd_per_round: float


def edge_and_sd(rules: RuleSet, composition: Composition | None = None, *,
                strategy: str = "optimal") -> tuple[float, float]:
    """The house edge per initial bet and the standard deviation of one round's result."""
    return _game(rules, composition, strategy, squares=True)


def _game(rules: RuleSet, composition: Composition | None, policy: str, squares: bool) -> tuple[float, float]:
    if policy not in POLICIES:
        raise ValueError(f"strategy is one of {POLICIES}")
    check_rules(rules)
    shoe = (composition or Composition.full(rules.decks)).counts
    size = sum(shoe)
    mean = second = 0.0
    for up in range(10):
        if shoe[up]:
            up_mean, up_second = up_card_moments(rules, shoe, up, policy, squares)
            mean += shoe[up] / size * up_mean
            second += shoe[up] / size * up_second
    return -mean, math.sqrt(max(second - mean * mean, 0.0)) if squares else 0.0


def house_edge(rules: RuleSet, composition: Composition | None = None, *, strategy: str = "optimal") -> float:
    """Exact house edge per initial bet off the top of ``composition`` (a fresh shoe by default).

    ``strategy``: ``"optimal"`` (composition-dependent, CDZ- splits) or
    ``"basic"`` (the profile's chart, played as the simulator plays it).
    """
    return _game(rules, composition, strategy, squares=False)[0]


def analyse(rules: RuleSet, composition: Composition | None = None) -> GameAnalysis:
    """House edges and standard deviations with optimal and with basic-strategy play."""
    edge, sd = _game(rules, composition, "optimal", squares=True)
    basic_edge, basic_sd = _game(rules, composition, "basic", squares=True)
    return GameAnalysis(rules=rules, house_edge=edge, basic_strategy_edge=basic_edge,
                        sd_per_round=sd, basic_sd_per_round=basic_sd)
