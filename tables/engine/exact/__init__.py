"""The exact analyser: dealer probabilities, action values and house edges by combinatorics.

Pure Python and numpy, no Django (docs/engine.md, "The exact analyser").

    dealer_probabilities(rules, up_card, composition=None, removed=()) -> {"17": p, ..., "bust", "blackjack"}
    action_evs(rules, composition, hand_cards, up_card) -> {"stand": ev, "hit": ev, ...}
    best_action(evs) -> "hit" | "stand" | "double" | "split" | "surrender"
    insurance_value(composition, hand_cards, up_card) -> ev of insurance at half the bet
    house_edge(rules, composition=None, *, strategy="optimal" | "basic") -> float
    edge_and_sd(rules, composition=None, *, strategy=...) -> (house edge, sd of one round)
    analyse(rules, composition=None) -> GameAnalysis

Values are per unit of initial bet; house edges are positive when the house is ahead.
"""

from __future__ import annotations

from .analysis import (
    ACTIONS,
    PLAY_ACTIONS,
    action_evs,
    best_action,
    clear_caches,
    dealer_probabilities,
    describe_hand,
    insurance_value,
    legal_actions,
)
from .composition import Composition, card_index
from .dealer import OUTCOMES
from .game import GameAnalysis, analyse, edge_and_sd, house_edge

__all__ = [
    "ACTIONS", "OUTCOMES", "PLAY_ACTIONS",
    "Composition", "GameAnalysis",
    "action_evs", "analyse", "best_action", "card_index", "clear_caches", "dealer_probabilities", "edge_and_sd",
    "describe_hand", "house_edge", "insurance_value", "legal_actions",
]
