"""Second moments of a round's result, for its standard deviation.

Exact for every round without a split: the same recursion as the values, with
squared payoffs (a double pays 4 squared units, a dealer blackjack always
costs exactly the initial bet). A split round needs the cross terms of its
hands, which share the dealer's cards; they are approximated by taking the
hands as independent given the dealer's final outcome ``d``:

    E[X_i X_j] ~ sum over d of e(d)^2 / P(d),   e(d) = E[X 1{dealer ends on d}]

with ``e`` the outcome-split value of one split hand (its bust paths split by
the dealer's distribution before the busting card) and the number of hands
from the re-split walk. Split rounds are a few percent of all rounds, so the
approximation moves the standard deviation in its third decimal at most.
"""

from __future__ import annotations

from .dealer import BLACKJACK, BUST, OUTCOMES
from .hands import STEP, UpCardSolver, hand_state
from .split import split_limit

Context = tuple[str, bool, int, int]
_N = len(OUTCOMES)


def _payoff(total: int, outcome: int) -> float:
    if outcome == BLACKJACK:
        return -1.0
    if outcome == BUST:
        return 1.0
    dealer = 17 + outcome
    return 1.0 if total > dealer else (-1.0 if total < dealer else 0.0)


class Moments:
    """Second moments and outcome-split values of hands, following a solver's policy."""

    def __init__(self, solver: UpCardSolver) -> None:
        self.solver = solver
        self._second: dict[tuple[Context, int, str], float] = {}
        self._split_values: dict[tuple[Context, int, str], tuple[float, ...]] = {}

    def _children(self, code: int, context: Context):
        """(chance, child code, child hard total, child holds an ace) per card; child None on a bust."""
        solver = self.solver
        _, _, pair, level = context
        hard, aces, ncards = hand_state(code)
        removed = code + (level * STEP[pair] if level else 0)
        left = solver.size - ncards - level
        for index in range(10):
            count = solver.shoe[index] - ((removed >> (6 * index)) & 63)
            if count <= 0:
                continue
            new_hard = hard + index + 1
            if new_hard > 21:
                yield count / left, None, new_hard, aces
            else:
                yield count / left, code + STEP[index], new_hard, aces or index == 0

    def _key(self, code: int, context: Context) -> int:
        _, _, pair, level = context
        return code + (level * STEP[pair] if level else 0)

    def second(self, code: int, context: Context, action: str | None = None) -> float:
        """E[X^2] of a hand (two or more cards) played by the policy, or by ``action`` first."""
        solver = self.solver
        action = action or solver.decide(code, context)
        memo = (context, code, action)
        if memo in self._second:
            return self._second[memo]
        key = self._key(code, context)
        blackjack = solver.blackjack_chance(key)
        hard, aces, _ = hand_state(code)
        if action == "stand":
            total = hard + 10 if aces and hard <= 11 else hard
            value = 1.0 - (solver.outcomes[key][total - 17] if total >= 17 else 0.0)
        elif action == "surrender":
            value = 0.25 * (1.0 - blackjack) + blackjack
        elif action == "double":
            value = -3.0 * blackjack  # the double comes back against a blackjack: 1, not 4
            for chance, child, _, _ in self._children(code, context):
                value += 4.0 * chance * (1.0 if child is None else self.second(child, context, "stand"))
        else:
            value = 0.0
            for chance, child, child_hard, child_aces in self._children(code, context):
                if child is None:
                    value += chance
                else:
                    total = child_hard + 10 if child_aces and child_hard <= 11 else child_hard
                    follow = "stand" if total == 21 else solver.decide(child, context)
                    value += chance * self.second(child, context, follow)
        self._second[memo] = value
        return value

    def split_values(self, code: int, context: Context, action: str | None = None) -> tuple[float, ...]:
        """``e(d)`` for each dealer outcome: the hand's value earned on that outcome."""
        solver = self.solver
        action = action or solver.decide(code, context)
        memo = (context, code, action)
        if memo in self._split_values:
            return self._split_values[memo]
        key = self._key(code, context)
        dealer = solver.outcomes[key]
        hard, aces, _ = hand_state(code)
        if action == "stand":
            total = hard + 10 if aces and hard <= 11 else hard
            value = [dealer[d] * _payoff(total, d) for d in range(_N)]
        elif action == "surrender":
            value = [-0.5 * p for p in dealer]
            value[BLACKJACK] = -dealer[BLACKJACK]
        else:
            stake = 2.0 if action == "double" else 1.0
            value = [0.0] * _N
            for chance, child, child_hard, child_aces in self._children(code, context):
                if child is None:
                    part = [-stake * p for p in dealer]
                elif action == "double":
                    part = [stake * x for x in self.split_values(child, context, "stand")]
                else:
                    total = child_hard + 10 if child_aces and child_hard <= 11 else child_hard
                    part = self.split_values(child, context, "stand" if total == 21 else None)
                value = [v + chance * x for v, x in zip(value, part)]
            if action == "double":
                value[BLACKJACK] = -dealer[BLACKJACK]
        result = tuple(value)
        self._split_values[memo] = result
        return result

    def split_second(self, pair: int, policy: str, limit: int) -> float:
        """Approximate E[X^2] of a split round (see the module's docstring)."""
        solver = self.solver
        limit = min(limit, split_limit(solver, pair))
        hands, pairs_of_hands = _hand_moments(solver.shoe[pair] - 2, solver.size - 2, limit)
        context: Context = (policy, True, pair, 1)
        root = STEP[pair]
        key = root + STEP[pair]
        blackjack = solver.blackjack_chance(key)
        dealer = solver.outcomes[key]
        second = 0.0
        values = [0.0] * _N
        for chance, child, _, _ in self._children(root, context):
            second += chance * self.second(child, context)
            values = [v + chance * x for v, x in zip(values, self.split_values(child, context))]
        cross = sum(values[d] ** 2 / dealer[d] for d in range(_N) if d != BLACKJACK and dealer[d] > 0)
        return blackjack + hands * (second - blackjack) + pairs_of_hands * cross


def _hand_moments(shoe_pairs: int, shoe_size: int, limit: int) -> tuple[float, float]:
    """E[h] and E[h (h - 1)] for the number of hands ``h`` a split ends with."""
    first = second = 0.0

    def walk(hands: int, waiting: int, drawn: int, closed: int, chance: float) -> None:
        nonlocal first, second
        if waiting == 0 or hands == limit:
            first += chance * hands
            second += chance * hands * (hands - 1)
            return
        left = shoe_size - drawn - closed
        pairs = shoe_pairs - drawn
        pair_chance = pairs / left if left > 0 and pairs > 0 else 0.0
        if pair_chance > 0.0:
            walk(hands + 1, waiting + 1, drawn + 1, closed, chance * pair_chance)
        if pair_chance < 1.0:
            walk(hands, waiting - 1, drawn, closed + 1, chance * (1.0 - pair_chance))

    walk(2, 2, 0, 0, 1.0)
    return first, second
