"""The blackjack engine: pure Python, deterministic, no Django (DESIGN.md "The engine")."""

from __future__ import annotations

from .actions import ACTIONS, BY_NAME, ActionSpec, AmountKind, action_named
from .cards import DECK, RANKS, SUITS, VALUE, parse_card
from .errors import ErrorCode, IllegalAction
from .events import Actor, Event, EventKind
from .hand import Hand, hand_total, hand_value, is_natural
from .results import DealerResult, HandResult, RoundResult, SeatOutcome
from .round import GameRound
from .rules import PROFILES, InsuranceRule, RuleSet, SplitAces, SplitBy, Surrender
from .shoe import CardShoe, derive_seed
from .state import InsuranceStatus, Phase, SeatState, SeatStatus
from .strategy import basic_strategy

__all__ = [
    "ACTIONS", "BY_NAME", "ActionSpec", "AmountKind", "action_named",
    "DECK", "RANKS", "SUITS", "VALUE", "parse_card",
    "ErrorCode", "IllegalAction",
    "Actor", "Event", "EventKind",
    "Hand", "hand_total", "hand_value", "is_natural",
    "DealerResult", "HandResult", "RoundResult", "SeatOutcome",
    "GameRound", "Phase", "SeatState", "SeatStatus", "InsuranceStatus",
    "PROFILES", "InsuranceRule", "RuleSet", "SplitAces", "SplitBy", "Surrender",
    "CardShoe", "derive_seed",
    "basic_strategy",
]
