"""Where a table's shoes come from.

Production shoes come from a fresh secret seed (tables.engine.Shoe.new).
Tests replace `shoe_source` with rigged shoes; nothing else decides a card.
"""

from __future__ import annotations

from collections.abc import Callable

from tables.engine import RuleSet, Shoe

ShoeSource = Callable[[RuleSet], Shoe]


def _fresh_shoe(rules: RuleSet) -> Shoe:
    return Shoe.new(rules.decks)


shoe_source: ShoeSource = _fresh_shoe


def new_shoe(rules: RuleSet) -> Shoe:
    return shoe_source(rules)
