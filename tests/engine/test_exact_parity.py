"""Two engines agree: the simulated house edge of basic strategy lands on the exact one.

The exact analyser values the game off the top of a fresh shoe, so the
simulator deals a fresh shoe every round (``fresh_shoe=True``; at a cut card
the edge moves by a few hundredths of a point). 100,000 rounds through the fast
path (held to GameRound in test_fastsim.py) take a second or two per profile; the
test allows four standard errors, 1.45 points: enough to catch a payout or a
rule played wrong (a natural paid 1:1 instead of 3:2 moves it 2.3 points),
not a subtle one, which the published figures of test_exact_published.py and
the round-by-round identity of test_fastsim.py are for.
"""

from __future__ import annotations

import pytest

from tables.engine import PROFILES
from tables.engine.exact import house_edge
from tables.engine.simulate import parse_seed, simulate

ROUNDS = 100_000


@pytest.mark.parametrize("slug", sorted(PROFILES))
def test_the_simulated_edge_is_within_four_standard_errors_of_the_exact_one(slug):
    edge_pct = 100 * house_edge(PROFILES[slug], strategy="basic")
    result = simulate(profile=slug, rounds=ROUNDS, seed=parse_seed(f"parity-{slug}"), fresh_shoe=True)
    standard_error_pct = result["ci95_pct"] / 1.96
    assert 1.1 < standard_error_pct * ROUNDS**0.5 / 100 < 1.2  # about 1.15 bets a round
    assert abs(result["house_edge_pct"] - edge_pct) < 4 * standard_error_pct
