"""The round's state: its fields, how a new one is laid out, and the small helpers
every part of the round shares.

This is the bottom layer of the round. ``round_flow`` (what the round does by
itself), ``round_betting`` and ``round_play`` (the players' decisions) subclass
it, ``round.GameRound`` puts them together, and ``serialize`` and ``results``
read it; nothing here imports any of them back.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Self

from .errors import ErrorCode, IllegalAction
from .events import Event, EventKind
from .hand import Hand
from .rules import RuleSet
from .shoe import CardShoe
from .state import Phase, SeatState

_new_tuple = tuple.__new__


class RoundState:
    """The fields of one round at one table. Build a round with :meth:`new`."""

    __slots__ = (
        "rules", "shoe", "min_bet", "max_bet", "phase", "seats", "order", "dealer",
        "hole_revealed", "dealer_blackjack", "_turn_index", "_turn_hand", "events", "_events_read",
    )

    rules: RuleSet
    shoe: CardShoe
    #: The table's limits (table settings, not rules); ``max_bet`` None: no maximum.
    min_bet: int
    max_bet: int | None
    phase: Phase
    seats: dict[int, SeatState]
    #: The seats dealt in, in seat order (RULES.md: deal order).
    order: list[int]
    dealer: Hand
    hole_revealed: bool
    #: None while nobody knows (no peek yet, or no peek at this table).
    dealer_blackjack: bool | None
    _turn_index: int
    _turn_hand: int
    events: list[Event]
    #: The first events as JSON, as the round was read (serialize.py): written back as they were read.
    _events_read: tuple[dict, ...]

    @classmethod
    def new(
        cls,
        *,
        rules: RuleSet,
        shoe: CardShoe,
        seats: Mapping[int, int],
        min_bet: int = 1,
        max_bet: int | None = None,
    ) -> Self:
        """A round in its betting window; ``seats`` maps seat number to stack."""
        if type(min_bet) is not int or min_bet < 1:
            raise ValueError("min_bet is a whole number of chips, at least 1")
        if max_bet is not None and (type(max_bet) is not int or max_bet < min_bet):
            raise ValueError("max_bet is a whole number of chips, at least min_bet")
        if not seats:
            raise ValueError("a round needs at least one seat")
        self = cls.__new__(cls)
        self.rules = rules
        self.shoe = shoe
        self.min_bet = min_bet
        self.max_bet = max_bet
        self.phase = Phase.BETTING
        self.seats = {}
        for number in sorted(seats):
            stack = seats[number]
            if type(number) is not int or not 1 <= number <= rules.seats:
                raise ValueError(f"seats are numbered 1 to {rules.seats} at {rules.slug} tables, not {number!r}")
            if type(stack) is not int or stack < 0:
                raise ValueError(f"seat {number}: a stack is a whole number of chips, not {stack!r}")
            self.seats[number] = SeatState(number, stack)
        self.order = []
        self.dealer = Hand()
        self.hole_revealed = False
        self.dealer_blackjack = None
        self._turn_index = 0
        self._turn_hand = 0
        self.events = []
        self._events_read = ()
        return self

    def copy(self) -> Self:
        """A round of its own in the same state, that plays on exactly as this one would.

        Its seats, hands, dealer and shoe are copied; its events are shared, as
        events never change (the list is its own: new ones go to this copy only).
        """
        other = self.__class__.__new__(self.__class__)
        for name in RoundState.__slots__:
            setattr(other, name, getattr(self, name))
        other.shoe = self.shoe.copy()
        other.seats = {number: seat.copy() for number, seat in self.seats.items()}
        other.order = list(self.order)
        other.dealer = self.dealer.copy()
        other.events = list(self.events)
        return other

    # -- helpers shared by every part of the round -----------------------------------

    def _emit(
        self,
        kind: EventKind,
        actor: str = "house",
        seat: int | None = None,
        hand: int | None = None,
        card: str | None = None,
        face_up: bool = True,
        chips: int = 0,
        outcome: str | None = None,
    ) -> Event:
        events = self.events
        # tuple.__new__ skips NamedTuple's keyword wrapper: this is the hot path.
        event = _new_tuple(Event, (len(events), kind, actor, seat, hand, card, face_up, chips, outcome))
        events.append(event)
        return event

    def _seat(self, number: int) -> SeatState:
        seat = self.seats.get(number)
        if seat is None:
            raise IllegalAction(ErrorCode.ILLEGAL_ACTION, f"There is no seat {number} in this round.")
        return seat

    def _closed(self, what: str) -> IllegalAction:
        if self.phase is Phase.SETTLED:
            return IllegalAction(ErrorCode.EXTRA_ACTION, "The round is over: no more actions.")
        return IllegalAction(ErrorCode.ILLEGAL_ACTION, what)

    @staticmethod
    def _can(verify: Callable[..., Any], *args: Any) -> bool:
        try:
            verify(*args)
        except IllegalAction:
            return False
        return True

    # -- what anyone may see -----------------------------------------------------------

    def to_act(self) -> tuple[int, int] | None:
        """The (seat, hand) whose decision the round waits for, if any."""
        if self.phase is not Phase.PLAYERS:
            return None
        return self.order[self._turn_index], self._turn_hand

    @property
    def up_card(self) -> str | None:
        return self.dealer.cards[0] if self.dealer.cards else None

    def dealer_cards(self) -> list[str]:
        """The dealer's cards as the players see them: the hole card only once revealed."""
        cards = self.dealer.cards
        return list(cards) if self.hole_revealed else cards[:1] + cards[2:]
