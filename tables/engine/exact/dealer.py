"""The dealer's final totals for a shoe composition, exactly and in batches.

Method (the multiset enumeration of exact analysers such as Eric Farmer's): for
each up card, list once every multiset ``D`` of cards the dealer can draw after
it (hole card included) before standing on 17 to 21, with ``m(D)``, the number
of orders in which drawing those cards is a legal dealer sequence. Each such
order is equally likely in a shoe ``c`` of ``N`` cards, so

    P(D) = m(D) * prod_i ff(c_i, d_i) / ff(N, |D|)        (ff: falling factorial)

and the probability of a final total is the sum over its multisets; the bust
probability is one minus the rest. Blackjack (the hole card completing an ace
or a ten up) is an outcome of its own.

A batch of compositions is scored together with numpy, one vector entry per
composition. The multisets are sorted into a trie (one level per card value),
so a product shared by many multisets is computed once: about 1,100
vector multiplications and 1,000 additions for the up card with the most
multisets (a 2), whatever the batch size.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

#: Outcome columns of every dealer distribution.
OUTCOMES = ("17", "18", "19", "20", "21", "bust", "blackjack")
BUST = 5
BLACKJACK = 6
#: More cards than the dealer ever draws after the up card (at most 11).
_LONGEST = 12
#: Trie levels: ten-values first, then 9 down to aces (fewest multiplications).
_ORDER = (9, 8, 7, 6, 5, 4, 3, 2, 1, 0)


def _total(hard: int, aces: bool) -> tuple[int, bool]:
    if aces and hard <= 11:
        return hard + 10, True
    return hard, False


@lru_cache(maxsize=40)
def dealer_hands(up: int, hits_soft_17: bool) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    """For up-card index ``up`` (0 = ace .. 9 = ten): ``(draws, orders, outcome)`` per multiset.

    ``draws`` counts the cards drawn after the up card by value index,
    ``orders`` is m(D), ``outcome`` the column in ``OUTCOMES``; bust multisets
    are not listed.
    """
    found: dict[tuple[int, ...], list[int]] = {}
    counts = [0] * 10

    def draw(hard: int, aces: bool, cards: int) -> None:
        total, soft = _total(hard, aces)
        if cards == 2 and total == 21:
            outcome = BLACKJACK
        elif total > 21:
            return
        elif total >= 17 and not (hits_soft_17 and total == 17 and soft):
            outcome = total - 17
        else:
            for index in range(10):
                counts[index] += 1
                draw(hard + index + 1, aces or index == 0, cards + 1)
                counts[index] -= 1
            return
        entry = found.setdefault(tuple(counts), [0, outcome])
        entry[0] += 1

    draw(up + 1, up == 0, 1)
    return tuple((key, orders, outcome) for key, (orders, outcome) in sorted(found.items()))


@lru_cache(maxsize=40)
def _program(up: int, hits_soft_17: bool) -> tuple[tuple[tuple[tuple[int, int, int], ...], int, int], ...]:
    """The trie walk: per multiset, the levels to (re)compute and where its product goes."""
    walk = []
    previous: list[int] | None = None
    for draws, orders, outcome in sorted(dealer_hands(up, hits_soft_17),
                                         key=lambda hand: tuple(hand[0][i] for i in _ORDER)):
        levels = [draws[i] for i in _ORDER]
        start = 0
        if previous is not None:
            while levels[start] == previous[start]:
                start += 1
        steps = tuple((level, _ORDER[level], levels[level]) for level in range(start, 10))
        walk.append((steps, outcome * _LONGEST + sum(levels), orders))
        previous = levels
    return tuple(walk)


def dealer_outcomes(up: int, compositions: np.ndarray, hits_soft_17: bool = False) -> np.ndarray:
    """Dealer outcome probabilities (columns ``OUTCOMES``), one row per row of ``compositions``.

    ``compositions`` (shape ``(M, 10)``) are the cards the dealer draws from,
    the up card already taken out. Unconditional: blackjack is an outcome.
    """
    compositions = np.asarray(compositions, dtype=np.float64).reshape(-1, 10)
    size = len(compositions)
    # falling[i][h] = c_i (c_i - 1) ... (c_i - h + 1): zero once h exceeds c_i.
    falling = []
    for index in range(10):
        column = compositions[:, index]
        powers = [np.ones(size)]
        for h in range(1, _LONGEST):
            powers.append(powers[-1] * (column - (h - 1)))
        falling.append(powers)
    sums = np.zeros((len(OUTCOMES) * _LONGEST, size))
    stack: list[np.ndarray] = [np.ones(size)] + [np.ones(size)] * 10
    for steps, slot, orders in _program(up, hits_soft_17):
        for level, index, count in steps:
            stack[level + 1] = stack[level] * falling[index][count] if count else stack[level]
        sums[slot] += stack[10] * orders if orders != 1 else stack[10]
    # Divide each |D| group by ff(N, |D|).
    cards = compositions.sum(axis=1)
    scale = np.ones(size)
    result = np.zeros((size, len(OUTCOMES)))
    for drawn in range(1, _LONGEST):
        scale = scale / np.where(cards - (drawn - 1) > 0, cards - (drawn - 1), np.inf)
        result += (sums[drawn::_LONGEST] * scale).T
    result[:, BUST] = np.maximum(1.0 - result.sum(axis=1), 0.0)
    return result
