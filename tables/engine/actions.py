"""The one registry of the players' actions (STYLE.md "One place for each thing").

An action's ``name`` is the word the browser sends over the websocket, the name
``GameRound.legal_actions()`` returns and the verb ``GameRound.act()`` takes; the
rest says how the table shows it and what it does to the round and the ledger.

Adding an action touches this registry, the round's triad for it and
``GameRound.act``, and the engine's tests; nothing else repeats the list.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from .events import EventKind
from .state import Phase


class AmountKind(StrEnum):
    """Whether an action takes a number of chips."""

    NONE = "none"
    REQUIRED = "required"
    #: The player may name a stake (internet: any stake up to the limit); without
    #: one, or where the rules fix it, the engine takes the largest allowed.
    OPTIONAL = "optional"


@dataclass(frozen=True, slots=True, kw_only=True)
class ActionSpec:
    """One player action."""

    #: The name sent over the websocket = the engine's legal-action name = the service's verb.
    name: str
    #: The button's text.
    label: str
    #: The keyboard shortcut.
    key: str
    #: Whether it acts on one of the seat's hands (``hand`` index).
    takes_hand: bool
    amount: AmountKind
    #: The event it appends.
    event: EventKind
    #: What the chips it stakes are called in the ledger; None when it stakes nothing.
    stake: str | None
    #: The phase in which it is offered.
    phase: Phase
    #: What it does, in a sentence a new player understands (the help page; the same at every profile).
    description: str


#: Every action, in the order of the buttons.
ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(name="bet", label="Deal", key="d", takes_hand=False, amount=AmountKind.REQUIRED,
               event=EventKind.BET, stake="bet", phase=Phase.BETTING,
               description=(
                   "Bet the chips in the Bet field and ask for cards; at a shared table the cards "
                   "come once every seated player has bet or passed, or the betting window closes.")),
    ActionSpec(name="pass", label="Pass", key="p", takes_hand=False, amount=AmountKind.NONE,
               event=EventKind.PASS, stake=None, phase=Phase.BETTING,
               description="Sit this round out and keep your seat."),
    ActionSpec(name="insurance", label="Insurance", key="i", takes_hand=False, amount=AmountKind.OPTIONAL,
               event=EventKind.INSURANCE_TAKEN, stake="insurance", phase=Phase.INSURANCE,
               description=(
                   "When the dealer shows an ace: a side bet of up to half your bet that the dealer "
                   "has blackjack; it pays 2:1.")),
    ActionSpec(name="no_insurance", label="No insurance", key="n", takes_hand=False, amount=AmountKind.NONE,
               event=EventKind.INSURANCE_DECLINED, stake=None, phase=Phase.INSURANCE,
               description="Turn insurance down and play on."),
    ActionSpec(name="hit", label="Hit", key="h", takes_hand=True, amount=AmountKind.NONE,
               event=EventKind.HIT, stake=None, phase=Phase.PLAYERS,
               description="Take one more card."),
    ActionSpec(name="stand", label="Stand", key="s", takes_hand=True, amount=AmountKind.NONE,
               event=EventKind.STAND, stake=None, phase=Phase.PLAYERS,
               description="Keep the total you have; play moves on to the next hand."),
    ActionSpec(name="double", label="Double", key="x", takes_hand=True, amount=AmountKind.OPTIONAL,
               event=EventKind.DOUBLE, stake="double", phase=Phase.PLAYERS,
               description=(
                   "Raise your bet (usually by as much again), take exactly one more card, and "
                   "finish the hand.")),
    ActionSpec(name="split", label="Split", key="t", takes_hand=True, amount=AmountKind.NONE,
               event=EventKind.SPLIT, stake="split", phase=Phase.PLAYERS,
               description="Make two hands of a pair, each with its own bet as large as the first."),
    ActionSpec(name="surrender", label="Surrender", key="r", takes_hand=True, amount=AmountKind.NONE,
               event=EventKind.SURRENDER, stake=None, phase=Phase.PLAYERS,
               description="Give the hand up and take half your bet back."),
)

BY_NAME: Mapping[str, ActionSpec] = MappingProxyType({spec.name: spec for spec in ACTIONS})


def action_named(name: str) -> ActionSpec:
    """The action called ``name``; ``KeyError`` for a name no action has."""
    return BY_NAME[name]


def actions_in(phase: Phase) -> tuple[ActionSpec, ...]:
    """The actions offered in ``phase``, in button order."""
    return tuple(spec for spec in ACTIONS if spec.phase is phase)
