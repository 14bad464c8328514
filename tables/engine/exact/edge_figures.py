"""Each profile's exact edges off the top of a fresh shoe, as the site shows them.

The analyser takes seconds per profile, so the figures are computed once, by
``manage.py blackjack edges --write``, and kept here; the lobby, the table and
the strategy pages read them and never compute. Run it again after changing a
profile's rules or the analyser (tests/engine/test_edge_figures.py checks that
the figures here are the analyser's).

Per cent of the initial bet, positive when the house is ahead.
"""

from __future__ import annotations

import json

from ..rules import PROFILES, RuleSet

# BEGIN FIGURES (written by `manage.py blackjack edges --write`)
FIGURES: dict[str, dict[str, float]] = {
    "atlantic-city": {
        "basic_strategy_edge_pct": 0.48767,
        "house_edge_pct": 0.48578,
        "sd_per_round": 1.14695
    },
    "atlantic-city-multi": {
        "basic_strategy_edge_pct": 0.48767,
        "house_edge_pct": 0.48578,
        "sd_per_round": 1.14695
    },
    "internet-6": {
        "basic_strategy_edge_pct": 0.40592,
        "house_edge_pct": 0.40287,
        "sd_per_round": 1.15297
    },
    "internet-7": {
        "basic_strategy_edge_pct": 0.41354,
        "house_edge_pct": 0.41049,
        "sd_per_round": 1.15183
    },
    "rocket-academy": {
        "basic_strategy_edge_pct": -0.26907,
        "house_edge_pct": -0.3163,
        "sd_per_round": 1.14719
    }
}
# END FIGURES


def basic_strategy_edge_pct(rules: RuleSet) -> float | None:
    """The house edge of the profile's basic strategy, if ``rules`` are a profile's as published."""
    figures = FIGURES.get(rules.slug)
    if figures is None or PROFILES.get(rules.slug) != rules:
        return None  # other rules than the profile's: its figure would be wrong
    return figures["basic_strategy_edge_pct"]


def module_text(figures: dict[str, dict[str, float]]) -> str:
    """This module's source with ``figures`` in place of the ones it holds."""
    with open(__file__, encoding="utf-8") as source:
        text = source.read()
    head, rest = text.split("# BEGIN FIGURES", 1)
    _, tail = rest.split("# END FIGURES", 1)
    body = json.dumps(figures, indent=4, sort_keys=True)
    return (
        f"{head}# BEGIN FIGURES (written by `manage.py blackjack edges --write`)\n"
        f"FIGURES: dict[str, dict[str, float]] = {body}\n# END FIGURES{tail}"
    )
