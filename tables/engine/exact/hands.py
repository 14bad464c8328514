"""Expected values of a player's hand against one up card: stand, hit, double, surrender.

A hand is a multiset of point values, coded as one integer with six bits per
value (``code + STEP[i]`` adds a card of index ``i``). Everything here is
*unconditional* on the hole card: a dealer blackjack is one of the dealer's
outcomes, and every path on which the dealer has blackjack costs the hand
exactly its initial bet (what OBO says, and what the peek amounts to).
``analysis.py`` turns these values into the ones conditioned on no blackjack.

Play after the first decision follows a *policy*:

* ``"optimal"``: the composition-dependent play maximising the value; a hand
  after a split is played the way the same cards would be played before the
  split (CDZ-: the decisions of the level-0 table, restricted to what the
  rules allow after a split).
* ``"basic"``: the profile's basic-strategy chart (``strategy.basic_strategy``).

A *level* is a number of extra pair cards out of the shoe: the hands of a
split are valued at level ``a`` = the other pair cards already out.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..rules import RuleSet, SplitAces, Surrender
from ..strategy import basic_strategy
from .composition import INDEX_RANK
from .dealer import OUTCOMES, dealer_outcomes

STEP = tuple(1 << (6 * index) for index in range(10))
_MASK = 63
#: Player total -> column of the stand table (16 and under share column 0).
_STAND_COLUMNS = 6
_CARD = tuple(f"{rank}S" for rank in INDEX_RANK)  # a card of each value, for the chart
_HIT_STAND = ("hit", "stand")
#: (policy, a hand of a split, pair index, level): which memo tables and rules a value uses.
Context = tuple[str, bool, int, int]


def decode(code: int) -> tuple[int, ...]:
    return tuple((code >> (6 * index)) & _MASK for index in range(10))


def encode(counts: Iterable[int]) -> int:
    return sum(count << (6 * index) for index, count in enumerate(counts))


_STATES: dict[int, tuple[int, bool, int]] = {}


def hand_state(code: int) -> tuple[int, bool, int]:
    """(hard total, holds an ace, number of cards) of a coded hand (memoised: codes recur)."""
    state = _STATES.get(code)
    if state is None:
        counts = decode(code)
        state = sum((index + 1) * n for index, n in enumerate(counts)), counts[0] > 0, sum(counts)
        if len(_STATES) < 1_000_000:
            _STATES[code] = state
    return state


def _stand_matrix() -> np.ndarray:
    """Columns: the stand value of totals <=16, 17, ..., 21 from the dealer outcomes."""
    matrix = np.zeros((len(OUTCOMES), _STAND_COLUMNS))
    for column, total in enumerate(range(16, 22)):
        for row, outcome in enumerate(OUTCOMES):
            if outcome == "bust":
                matrix[row, column] = 1.0
            elif outcome == "blackjack":
                matrix[row, column] = -1.0
            else:
                dealer = int(outcome)
                matrix[row, column] = 1.0 if total > dealer else (-1.0 if total < dealer else 0.0)
    return matrix


_STAND = _stand_matrix()


class UpCardSolver:
    """Hand values against one up card, from a shoe with that up card taken out.

    The dealer's distributions are cached by the cards removed (``prefetch``
    scores many at once); the hand values are memoised per (policy, split,
    pair, level).
    """

    def __init__(self, rules: RuleSet, shoe: tuple[int, ...], up: int) -> None:
        if shoe[up] < 1:
            raise ValueError(f"the shoe holds no {INDEX_RANK[up]} for the dealer's up card")
        if sum(shoe) < 4:
            raise ValueError("the shoe holds too few cards to deal a round")
        left = list(shoe)
        left[up] -= 1
        self.rules = rules
        self.up = up
        self.shoe = tuple(left)
        self.size = sum(left)
        self.outcomes: dict[int, tuple[float, ...]] = {}
        self.stands: dict[int, tuple[float, ...]] = {}
        self._memo: dict[Context, tuple[dict[int, float], dict[int, float]]] = {}
        self._trees: dict[int, list[int]] = {}
        self._charts: dict[tuple[int, bool, bool, int, tuple[str, ...]], str] = {}
        self._decisions: dict[tuple[str, bool, int, int], str] = {}  # (policy, split, pair, code)

    # -- the dealer -----------------------------------------------------------------

    def prefetch(self, removed: Iterable[int]) -> None:
        """Compute the dealer's distributions for every removed-cards code not cached yet."""
        missing = sorted({code for code in removed if code not in self.outcomes})
        if not missing:
            return
        codes = np.array(missing, dtype=np.int64)[:, None]
        counts = (codes >> (6 * np.arange(10, dtype=np.int64))) & _MASK
        compositions = np.array(self.shoe, dtype=np.int64) - counts
        chances = dealer_outcomes(self.up, compositions, self.rules.dealer_hits_soft_17)
        stands = chances @ _STAND
        for code, row, stand in zip(missing, chances.tolist(), stands.tolist()):
            self.outcomes[code] = tuple(row)
            self.stands[code] = tuple(stand)

    def blackjack_chance(self, removed: int) -> float:
        """P(the hole card makes a dealer blackjack) with ``removed`` out of the shoe."""
        if self.up == 0:
            wanted = 9
        elif self.up == 9:
            wanted = 0
        else:
            return 0.0
        left = self.size - hand_state(removed)[2]
        return (self.shoe[wanted] - ((removed >> (6 * wanted)) & _MASK)) / left if left > 0 else 0.0

    def reachable(self, root: int, extra: int = 0) -> set[int]:
        """Codes of every hand drawn from ``root`` without busting (``root`` included),
        each plus ``extra`` (a level's pair cards): the dealer keys a tree needs."""
        tree = self._trees.get(root)
        if tree is None:
            tree = self._trees[root] = self._grow(root)
        if not extra:
            return set(tree)
        shoe = self.shoe
        fields = [(index, n) for index, n in enumerate(decode(extra)) if n]
        if len(fields) == 1:
            (index, n), = fields
            shift, most = 6 * index, shoe[index] - n
            return {code + extra for code in tree if (code >> shift) & _MASK <= most}
        return {code + extra for code in tree
                if all(((code >> (6 * index)) & _MASK) + n <= shoe[index] for index, n in fields)}

    def _grow(self, root: int) -> list[int]:
        hard, _, _ = hand_state(root)
        shoe = self.shoe
        found = []

        def grow(code: int, hard: int, lowest: int, counts: list[int]) -> None:
            found.append(code)
            for index in range(lowest, 10):
                if hard + index + 1 > 21:
                    break
                if counts[index] < shoe[index]:
                    counts[index] += 1
                    grow(code + STEP[index], hard + index + 1, index, counts)
                    counts[index] -= 1

        grow(root, hard, 0, list(decode(root)))
        return found

    # -- values ---------------------------------------------------------------------

    def tables(self, policy: str, split: bool, pair: int, level: int) -> tuple[dict[int, float], dict[int, float]]:
        key = (policy, split, pair, level)
        memo = self._memo.get(key)
        if memo is None:
            memo = self._memo[key] = ({}, {})
        return memo

    def stand(self, code: int, hard: int, aces: bool, extra: int = 0) -> float:
        total = hard + 10 if aces and hard <= 11 else hard
        return self.stands[code + extra][max(total - 16, 0)]

    def surrender(self, code: int, extra: int = 0) -> float:
        # Half the bet back, only once the dealer is known not to hold blackjack.
        return -0.5 - 0.5 * self.blackjack_chance(code + extra)

    def double(self, code: int, hard: int, aces: bool, ncards: int, extra: int = 0, level: int = 0) -> float:
        shoe = self.shoe
        removed = code + extra
        left = self.size - ncards - level
        value = 0.0
        for index in range(10):
            count = shoe[index] - ((removed >> (6 * index)) & _MASK)
            if count <= 0:
                continue
            new_hard = hard + index + 1
            if new_hard > 21:
                value -= 2.0 * count
            else:
                value += 2.0 * count * self.stand(code + STEP[index], new_hard, aces or index == 0, extra)
        # A dealer blackjack takes only the initial bet (OBO; the peek): give back the double.
        return value / left + self.blackjack_chance(removed)

    def hit(self, code: int, hard: int, aces: bool, ncards: int, context: Context) -> float:
        """Value of drawing one card, then playing on by the policy (no double or surrender)."""
        policy, _, pair, level = context
        hits = self.tables(*context)[0]
        value = hits.get(code)
        if value is not None:
            return value
        extra = level * STEP[pair] if level else 0
        removed = code + extra
        shoe = self.shoe
        stands = self.stands
        hit = self.hit
        # Optimal play decides by the level-0 values; at level 0 that is this very table.
        unsplit = policy == "optimal" and level == 0
        basic = policy == "basic"
        level0 = ("optimal", False, 0, 0)
        value = 0.0
        for index in range(10):
            count = shoe[index] - ((removed >> (6 * index)) & _MASK)
            if count <= 0:
                continue
            new_hard = hard + index + 1
            if new_hard > 21:
                value -= count
                continue
            child = code + STEP[index]
            child_aces = aces or index == 0
            total = new_hard + 10 if child_aces and new_hard <= 11 else new_hard
            stand = stands[child + extra][total - 16 if total > 16 else 0]
            if total == 21:
                value += count * stand
            elif unsplit:
                drawn = hit(child, new_hard, child_aces, ncards + 1, context)
                value += count * (drawn if drawn > stand else stand)
            elif basic:
                if self.chart(child, _HIT_STAND) == "hit":
                    stand = hit(child, new_hard, child_aces, ncards + 1, context)
                value += count * stand
            else:
                unsplit_stand = stands[child][total - 16 if total > 16 else 0]
                if hit(child, new_hard, child_aces, ncards + 1, level0) > unsplit_stand:
                    stand = hit(child, new_hard, child_aces, ncards + 1, context)
                value += count * stand
        left = self.size - ncards - level
        if left <= 0:
            raise ValueError("the shoe runs out of cards: the analyser needs a shoe that lasts the round")
        value /= left
        hits[code] = value
        return value

    def chart(self, code: int, legal: tuple[str, ...]) -> str:
        """The basic-strategy play; the chart reads the total, softness and a splittable pair."""
        hard, aces, ncards = hand_state(code)
        total = hard + 10 if aces and hard <= 11 else hard
        pair = hard // 2 if "split" in legal else 0
        key = (total, aces and hard <= 11, ncards == 2, pair, legal)
        action = self._charts.get(key)
        if action is None:
            cards = [_CARD[index] for index, n in enumerate(decode(code)) for _ in range(n)]
            action = self._charts[key] = basic_strategy(self.rules, cards, _CARD[self.up], legal)
        return action

    # -- a hand's own decision --------------------------------------------------------

    def legal(self, hard: int, aces: bool, ncards: int, split: bool, pair: int) -> tuple[str, ...]:
        """The actions a two-or-more-card hand may take (splitting is handled by split.py)."""
        rules = self.rules
        total = hard + 10 if aces and hard <= 11 else hard
        if total >= 21:
            return ("stand",)
        if split and pair == 0 and rules.split_aces is SplitAces.ONE_CARD:
            return ("stand",)  # RULES.md: split aces take one card each
        actions = ["stand", "hit"]
        if ncards == 2:
            if not split or rules.double_after_split:
                actions.append("double")
            if rules.surrender is Surrender.LATE:
                actions.append("surrender")
        return tuple(actions)

    def action_values(self, code: int, legal: tuple[str, ...], context: Context) -> dict[str, float]:
        hard, aces, ncards = hand_state(code)
        _, _, pair, level = context
        extra = level * STEP[pair] if level else 0
        values = {}
        for action in legal:
            if action == "stand":
                values[action] = self.stand(code, hard, aces, extra)
            elif action == "hit":
                values[action] = self.hit(code, hard, aces, ncards, context)
            elif action == "double":
                values[action] = self.double(code, hard, aces, ncards, extra, level)
            elif action == "surrender":
                values[action] = self.surrender(code, extra)
        return values

    def play(self, code: int, context: Context) -> float:
        """Value of a hand of two or more cards played by the policy from its first decision.

        In a split context the hand is one of the split hands (its first card is
        the pair card); splitting again is not among its choices here.
        """
        plays = self.tables(*context)[1]
        value = plays.get(code)
        if value is None:
            action = self.decide(code, context)
            value = plays[code] = self.action_values(code, (action,), context)[action]
        return value

    def decide(self, code: int, context: Context) -> str:
        """The policy's play for a hand of two or more cards (splitting aside)."""
        policy, split, pair, _ = context
        key = (policy, split, pair, code)
        action = self._decisions.get(key)
        if action is not None:
            return action
        hard, aces, ncards = hand_state(code)
        legal = self.legal(hard, aces, ncards, split, pair)
        if len(legal) == 1:
            action = legal[0]
        elif policy == "basic":
            action = self.chart(code, legal)
        else:
            # CDZ-: the choice the level-0 (unsplit) table makes for these cards.
            choices = self.action_values(code, legal, ("optimal", False, 0, 0))
            action = max(choices, key=choices.__getitem__)
        self._decisions[key] = action
        return action
