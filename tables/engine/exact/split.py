"""The expected value of splitting a pair, re-splits included (CDZ-).

Each split hand is played by a policy that looks only at its own cards, so by
linearity the split is worth the sum of its hands' values, and a hand's value
depends on the other hands only through what is known of their cards: how many
pair cards came out (the re-splits) and how many second cards were *not* pair
cards (the hands that were closed before the limit). Cards the other hands
drew later are unseen, and an unseen card taken out of the shoe changes no
probability (exchangeability).

1. Walk the sequence of second cards: while the seat holds fewer hands than
   the limit, a pair card re-splits (one more hand) and any other card closes
   a hand as an *N* hand; once the limit is reached, the hands still waiting
   take any card (*X* hands). Each pattern has a probability, ``B`` N hands
   and ``h - B`` X hands, and ``A`` pair cards drawn.
2. An N hand is then valued with ``1 + A`` other pair cards out and ``B - 1``
   known non-pair cards out; an X hand with ``1 + A`` and ``B``.
3. A known non-pair card out is removed by inclusion-exclusion: an unseen card
   out leaves the value unchanged, and it is a pair card with probability
   ``v``, so ``EV[a, b] = (EV[a, b-1] - v EV[a+1, b-1]) / (1 - v)``. Only
   values with pair cards out remain: ``EV[X; a]`` (any second card) and
   ``EV[P; a]`` (a pair card, played without splitting), from which
   ``EV[N; a]`` follows.
4. Every hand loses its bet on the dealer's blackjack paths, but the seat
   loses only its initial bet (the peek, or OBO): add back
   ``P(blackjack) * (E[hands | blackjack] - 1)``.

Eric Farmer's analyser (github.com/possibly-wrong/blackjack) uses the same
decomposition; this is an independent derivation of it.
"""

from __future__ import annotations

from collections import defaultdict

from ..rules import SplitAces, SplitBy
from .hands import STEP, UpCardSolver

Context = tuple[str, bool, int, int]


def split_limit(solver: UpCardSolver, pair: int) -> int:
    """Hands a seat may end with after splitting this pair."""
    rules = solver.rules
    if pair == 0 and not rules.resplit_aces:
        return 2
    if pair == 9 and rules.split_by is SplitBy.RANK:
        # Re-splitting tens by rank needs the count of one rank, which a value
        # composition does not hold: tens are valued as split once (docs/engine.md).
        return 2
    return rules.max_hands


def _patterns(shoe_pairs: int, shoe_size: int, limit: int) -> tuple[dict[tuple[str, int, int], float], float]:
    """Weights of the hand kinds ``(kind, other pair cards out, known non-pair cards out)``
    and the expected number of hands, for a shoe after the first pair was taken out."""
    terms: dict[tuple[str, int, int], float] = defaultdict(float)
    expected_hands = 0.0

    def walk(hands: int, waiting: int, drawn: int, closed: int, chance: float) -> None:
        nonlocal expected_hands
        if waiting == 0 or hands == limit:
            expected_hands += chance * hands
            if closed:
                terms[("N", 1 + drawn, closed - 1)] += chance * closed
            if hands - closed:
                terms[("X", 1 + drawn, closed)] += chance * (hands - closed)
            return
        left = shoe_size - drawn - closed
        pairs = shoe_pairs - drawn
        pair_chance = pairs / left if left > 0 and pairs > 0 else 0.0
        if pair_chance > 0.0:
            walk(hands + 1, waiting + 1, drawn + 1, closed, chance * pair_chance)
        if pair_chance < 1.0:
            walk(hands, waiting - 1, drawn, closed + 1, chance * (1.0 - pair_chance))

    walk(2, 2, 0, 0, 1.0)
    return terms, expected_hands


def _expand(kind: str, out: int, known: int, pairs: int, size: int, into: dict[tuple[str, int], float],
            weight: float) -> None:
    """Add ``weight * EV[kind; out, known]`` to ``into`` as a sum of ``EV[kind; out', 0]``.

    ``pairs``/``size``: pair cards and all cards of the shoe with the up card out.
    """
    if known == 0:
        into[(kind, out)] += weight
        return
    left = size - 1 - out - (known - 1) - (1 if kind == "N" else 0)
    pair_chance = (pairs - 1 - out) / left if left > 0 else 0.0
    if pair_chance >= 1.0:
        return  # no non-pair card could have been drawn: the pattern has no weight
    scale = weight / (1.0 - pair_chance)
    _expand(kind, out, known - 1, pairs, size, into, scale)
    if pair_chance > 0.0:
        _expand(kind, out + 1, known - 1, pairs, size, into, -pair_chance * scale)


def split_plan(solver: UpCardSolver, pair: int, limit: int) -> tuple[dict[tuple[str, int], float], float]:
    """The split value as weights on ``EV[X; a]``/``EV[N; a]``, and the blackjack correction."""
    shoe, size = solver.shoe, solver.size
    terms, _ = _patterns(shoe[pair] - 2, size - 2, limit)
    base: dict[tuple[str, int], float] = defaultdict(float)
    for (kind, out, known), weight in terms.items():
        _expand(kind, out, known, shoe[pair], size, base, weight)
    correction = 0.0
    hole = {0: 9, 9: 0}.get(solver.up)
    if hole is not None:
        left = list(shoe)
        left[pair] -= 2
        chance = left[hole] / (size - 2) if size > 2 else 0.0
        if chance > 0.0:
            left[hole] -= 1
            _, hands = _patterns(left[pair], size - 3, limit)
            correction = chance * (hands - 1.0)
    return dict(base), correction


def split_keys(solver: UpCardSolver, pair: int, levels: set[int], policy: str) -> set[int]:
    """Dealer keys the split hands need at these levels (and the unsplit table for CDZ-)."""
    root = STEP[pair]
    keys: set[int] = set()
    one_card = pair == 0 and solver.rules.split_aces is SplitAces.ONE_CARD
    for level in levels:
        extra = level * STEP[pair]
        if one_card:
            keys.update(root + STEP[index] + extra for index in range(10))
        else:
            keys |= solver.reachable(root, extra)
    if policy == "optimal" and not one_card:
        keys |= solver.reachable(root)
    return keys


def hand_value(solver: UpCardSolver, pair: int, kind: str, level: int, policy: str) -> float:
    """``EV[kind; level]``: a split hand of this pair, ``level`` other pair cards out."""
    shoe, size = solver.shoe, solver.size
    root = STEP[pair]
    left = size - 1 - level
    if shoe[pair] - 1 - level < 0 or left <= 0:
        return 0.0
    context: Context = (policy, True, pair, level)
    total = 0.0
    pair_value = 0.0
    for index in range(10):
        count = shoe[index] - (1 + level if index == pair else 0)
        if count <= 0:
            continue
        value = solver.play(root + STEP[index], context)
        total += count * value
        if index == pair:
            pair_value = value
    pair_chance = max(shoe[pair] - 1 - level, 0) / left
    total /= left
    if kind == "X":
        return total
    if pair_chance >= 1.0:
        return 0.0
    return (total - pair_chance * pair_value) / (1.0 - pair_chance)


def split_value(solver: UpCardSolver, pair: int, policy: str, limit: int | None = None) -> float:
    """Unconditional value of splitting a pair of index ``pair`` (per initial bet).

    Every pair card a split hand draws is split again while the seat holds
    fewer than ``limit`` hands (default: what the rules allow).
    """
    limit = split_limit(solver, pair) if limit is None else min(limit, split_limit(solver, pair))
    base, correction = split_plan(solver, pair, limit)
    levels = {level for _, level in base}
    solver.prefetch(split_keys(solver, pair, levels, policy))
    value = correction
    for (kind, level), weight in base.items():
        if weight:
            value += weight * hand_value(solver, pair, kind, level, policy)
    return value


def best_split_value(solver: UpCardSolver, pair: int, limit: int | None = None) -> tuple[float, int]:
    """The optimal split and its hand limit: re-splitting every pair card, or never.

    Under CDZ- a split hand is played as the same cards before the split, so a
    pair is split again exactly when splitting is the best first play; when it
    is not, a player who splits anyway does better declining the re-splits.
    ``limit``: hands this pair may end as (fewer when the seat holds others).
    """
    limit = split_limit(solver, pair) if limit is None else min(limit, split_limit(solver, pair))
    value = split_value(solver, pair, "optimal", limit)
    if limit > 2:
        once = split_value(solver, pair, "optimal", limit=2)
        if once > value:
            return once, 2
    return value, limit
