"""Recorded decisions, applied again: a round rebuilt from its record while the engine deals every card.

The events a person (or the timer, on their behalf) decides are each action's
event (the action registry) and a betting window closing on the silent seats;
the engine produces every other event by itself. Shoe verification
(tables/fairness/verification.py) and the coach's review of a round
(exact/coach.py) both replay rounds this way.
"""

from __future__ import annotations

from .actions import ACTIONS, AmountKind
from .events import Event, EventKind
from .round import GameRound

BY_EVENT = {spec.event: spec for spec in ACTIONS}
DECISIONS = frozenset({*BY_EVENT, EventKind.LEFT_OUT})


def apply_recorded(engine: GameRound, event: Event) -> None:
    """Replay one recorded decision; the engine deals any card that follows it itself."""
    actor = str(event.actor)
    if event.kind is EventKind.LEFT_OUT:
        # One close of the window leaves out every silent seat at once.
        engine.close_betting(actor=actor)
        return
    if event.kind is EventKind.INSURANCE_DECLINED and actor != "player":
        # The timer closes the question for every seat still silent.
        engine.close_insurance(actor=actor)
        return
    spec = BY_EVENT[event.kind]
    engine.act(
        spec.name,
        seat=event.seat,
        hand=event.hand if spec.takes_hand else 0,
        amount=None if spec.amount is AmountKind.NONE else -event.chips,
        actor=actor,
    )
