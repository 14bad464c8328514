"""Where a table's shoes come from.

Production shoes come from a fresh secret seed (tables.engine.CardShoe.new).
Tests replace `shoe_source` with rigged shoes; nothing else decides a card.
"""

from __future__ import annotations

from collections.abc import Callable

from tables.engine import RuleSet, CardShoe

ShoeSource = Callable[[RuleSet], CardShoe]


def _fresh_shoe(rules: RuleSet) -> CardShoe:
    return CardShoe.new(rules.decks)


shoe_source: ShoeSource = _fresh_shoe


def new_shoe(rules: RuleSet) -> CardShoe:
    return shoe_source(rules)
