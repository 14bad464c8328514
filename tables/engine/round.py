"""The round: one explicit state machine from the betting window to settlement.

Every decision is a triad (STYLE.md, as in pokerkit): ``verify_x`` raises
:class:`IllegalAction`, ``can_x`` answers yes or no, ``x`` applies it, appends
its frozen event and returns that event. Between decisions the round runs by
itself through everything nobody decides (the deal, the peek, paying naturals,
the second card of a split hand, the dealer's play, settlement) and rests only
in ``betting``, ``insurance``, ``players`` or ``settled``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .errors import ErrorCode, IllegalAction
from .events import Event, EventKind, check_actor
from .hand import Hand
from .round_flow import FlowMixin
from .round_play import PlayMixin
from .rules import InsuranceRule, RuleSet
from .serialize import round_from_json, round_to_json
from .shoe import CardShoe
from .state import InsuranceStatus, Phase, SeatState, SeatStatus
from .results import RoundResult

_new_tuple = tuple.__new__
PLAYER_ACTIONS = ("hit", "stand", "double", "split", "surrender")


class GameRound(PlayMixin, FlowMixin):
    """One round at one table. Build it with :meth:`new`; resume it with :meth:`from_json`."""

    __slots__ = (
        "rules", "shoe", "min_bet", "max_bet", "phase", "seats", "order", "dealer",
        "hole_revealed", "dealer_blackjack", "_turn_index", "_turn_hand", "events",
    )

    rules: RuleSet
    shoe: CardShoe
    min_bet: int
    max_bet: int | None
    phase: Phase
    seats: dict[int, SeatState]
    order: list[int]
    dealer: Hand
    hole_revealed: bool
    dealer_blackjack: bool | None
    events: list[Event]

    @classmethod
    def new(
        cls,
        *,
        rules: RuleSet,
        shoe: CardShoe,
        seats: Mapping[int, int],
        min_bet: int = 1,
        max_bet: int | None = None,
    ) -> GameRound:
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
        return self

    # -- small helpers ------------------------------------------------------------

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

    # -- betting ------------------------------------------------------------------

    def verify_bet(self, seat: int, amount: int) -> None:
        if self.phase is not Phase.BETTING:
            raise self._closed("Betting is closed for this round.")
        place = self._seat(seat)
        if place.status is not SeatStatus.WAITING:
            raise IllegalAction(ErrorCode.ILLEGAL_ACTION, f"Seat {seat} has already answered this betting window.")
        if type(amount) is not int:
            raise IllegalAction(ErrorCode.BAD_AMOUNT, "A bet is a whole number of chips.")
        if amount < self.min_bet or (self.max_bet is not None and amount > self.max_bet):
            limit = f"from {self.min_bet} to {self.max_bet}" if self.max_bet is not None else f"at least {self.min_bet}"
            raise IllegalAction(ErrorCode.BAD_AMOUNT, f"Bets at this table are {limit} chips.")
        if amount > place.stack:
            raise IllegalAction(ErrorCode.BAD_AMOUNT, f"You hold {place.stack} chips and cannot bet {amount}.")

    def can_bet(self, seat: int, amount: int) -> bool:
        return self._can(self.verify_bet, seat, amount)

    def bet(self, seat: int, amount: int, *, actor: str = "player") -> Event:
        check_actor(actor)
        self.verify_bet(seat, amount)
        place = self.seats[seat]
        place.stack -= amount
        place.bet = amount
        place.status = SeatStatus.BETTING
        event = self._emit(EventKind.BET, actor, seat, chips=-amount)
        self._deal_if_everyone_answered()
        return event

    def verify_pass_bet(self, seat: int) -> None:
        if self.phase is not Phase.BETTING:
            raise self._closed("Betting is closed for this round.")
        if self._seat(seat).status is not SeatStatus.WAITING:
            raise IllegalAction(ErrorCode.ILLEGAL_ACTION, f"Seat {seat} has already answered this betting window.")

    def can_pass_bet(self, seat: int) -> bool:
        return self._can(self.verify_pass_bet, seat)

    def pass_bet(self, seat: int, *, actor: str = "player") -> Event:
        check_actor(actor)
        self.verify_pass_bet(seat)
        self.seats[seat].status = SeatStatus.PASSED
        event = self._emit(EventKind.PASS, actor, seat)
        self._deal_if_everyone_answered()
        return event

    def verify_close_betting(self) -> None:
        if self.phase is not Phase.BETTING:
            raise self._closed("Betting is already closed.")

    def can_close_betting(self) -> bool:
        return self._can(self.verify_close_betting)

    def close_betting(self, *, actor: str = "timer") -> list[Event]:
        """End the betting window: silent seats are left out, and the deal starts."""
        check_actor(actor)
        self.verify_close_betting()
        start = len(self.events)
        for number, place in self.seats.items():
            if place.status is SeatStatus.WAITING:
                place.status = SeatStatus.LEFT_OUT
                self._emit(EventKind.LEFT_OUT, actor, number)
        self._deal()
        return self.events[start:]

    def pending_bets(self) -> list[int]:
        if self.phase is not Phase.BETTING:
            return []
        return [n for n, place in self.seats.items() if place.status is SeatStatus.WAITING]

    def _deal_if_everyone_answered(self) -> None:
        for place in self.seats.values():
            if place.status is SeatStatus.WAITING:
                return
        self._deal()

    # -- insurance ----------------------------------------------------------------

    def verify_insurance(self, seat: int, amount: int | None = None) -> int:
        """Raise unless ``seat`` may insure for ``amount``; return the stake it would place."""
        if self.phase is not Phase.INSURANCE:
            raise self._closed("Insurance is offered only right after the deal, when the dealer shows an ace.")
        place = self._check_insurance_pending(seat)
        half = place.bet // 2
        if self.rules.insurance is InsuranceRule.HALF_BET:
            if amount is None:
                amount = half
            elif type(amount) is not int or amount != half:
                raise IllegalAction(
                    ErrorCode.BAD_AMOUNT, f"Insurance at this table is exactly half your bet: {half} chips."
                )
        else:
            if amount is None:
                amount = min(half, place.stack)
            elif type(amount) is not int or not 1 <= amount <= half:
                raise IllegalAction(
                    ErrorCode.BAD_AMOUNT, f"Insurance is from 1 to {half} chips (half your bet)."
                )
        if amount > place.stack:
            raise IllegalAction(
                ErrorCode.BAD_AMOUNT, f"You hold {place.stack} chips: not enough for {amount} chips of insurance."
            )
        return amount

    def _check_insurance_pending(self, seat: int) -> SeatState:
        place = self._seat(seat)
        status = place.insurance_status
        if status is InsuranceStatus.NOT_OFFERED:
            raise IllegalAction(ErrorCode.ILLEGAL_ACTION, f"Insurance is not offered to seat {seat}.")
        if status is not InsuranceStatus.PENDING:
            raise IllegalAction(ErrorCode.ILLEGAL_ACTION, "You have already answered the insurance offer.")
        return place

    def can_insurance(self, seat: int, amount: int | None = None) -> bool:
        return self._can(self.verify_insurance, seat, amount)

    def insurance(self, seat: int, amount: int | None = None, *, actor: str = "player") -> Event:
        check_actor(actor)
        stake = self.verify_insurance(seat, amount)
        place = self.seats[seat]
        place.stack -= stake
        place.insurance = stake
        place.insurance_status = InsuranceStatus.TAKEN
        event = self._emit(EventKind.INSURANCE_TAKEN, actor, seat, chips=-stake)
        self._play_on_if_insurance_answered()
        return event

    def verify_decline_insurance(self, seat: int) -> None:
        if self.phase is not Phase.INSURANCE:
            raise self._closed("Insurance is not on offer now.")
        self._check_insurance_pending(seat)

    def can_decline_insurance(self, seat: int) -> bool:
        return self._can(self.verify_decline_insurance, seat)

    def decline_insurance(self, seat: int, *, actor: str = "player") -> Event:
        check_actor(actor)
        self.verify_decline_insurance(seat)
        self.seats[seat].insurance_status = InsuranceStatus.DECLINED
        event = self._emit(EventKind.INSURANCE_DECLINED, actor, seat)
        self._play_on_if_insurance_answered()
        return event

    def verify_close_insurance(self) -> None:
        if self.phase is not Phase.INSURANCE:
            raise self._closed("Insurance is not on offer now.")

    def can_close_insurance(self) -> bool:
        return self._can(self.verify_close_insurance)

    def close_insurance(self, *, actor: str = "timer") -> list[Event]:
        """Silence counts as no insurance (RULES.md timers); then play goes on."""
        check_actor(actor)
        self.verify_close_insurance()
        start = len(self.events)
        for number in self.pending_insurance():
            self.seats[number].insurance_status = InsuranceStatus.DECLINED
            self._emit(EventKind.INSURANCE_DECLINED, actor, number)
        self._after_insurance()
        return self.events[start:]

    def pending_insurance(self) -> list[int]:
        if self.phase is not Phase.INSURANCE:
            return []
        return [n for n in self.order if self.seats[n].insurance_status is InsuranceStatus.PENDING]

    def _play_on_if_insurance_answered(self) -> None:
        if not self.pending_insurance():
            self._after_insurance()

    # -- queries ------------------------------------------------------------------

    def to_act(self) -> tuple[int, int] | None:
        """The (seat, hand) whose decision the round waits for, if any."""
        if self.phase is not Phase.PLAYERS:
            return None
        return self.order[self._turn_index], self._turn_hand

    def legal_actions(self, seat: int, hand: int = 0) -> tuple[str, ...]:
        """Exactly the actions the UI should offer ``seat`` (for ``hand``) now."""
        phase = self.phase
        if phase is Phase.BETTING:
            return ("bet", "pass") if self.can_pass_bet(seat) else ()
        if phase is Phase.INSURANCE:
            if seat in self.seats and self.seats[seat].insurance_status is InsuranceStatus.PENDING:
                return ("insurance", "decline_insurance") if self.can_insurance(seat) else ("decline_insurance",)
            return ()
        if phase is Phase.PLAYERS and self.to_act() == (seat, hand):
            checks = (self.can_hit, self.can_stand, self.can_double, self.can_split, self.can_surrender)
            return tuple(name for name, can in zip(PLAYER_ACTIONS, checks) if can(seat, hand))
        return ()

    def expire(self, *, actor: str = "timer") -> list[Event]:
        """Apply the default for whatever is pending (the tables' timer calls this)."""
        start = len(self.events)
        if self.phase is Phase.BETTING:
            self.close_betting(actor=actor)
        elif self.phase is Phase.INSURANCE:
            self.close_insurance(actor=actor)
        elif self.phase is Phase.PLAYERS:
            seat, hand = self.order[self._turn_index], self._turn_hand
            self.stand(seat, hand, actor=actor)
        else:
            raise IllegalAction(ErrorCode.EXTRA_ACTION, "The round is over: nothing is pending.")
        return self.events[start:]

    @property
    def up_card(self) -> str | None:
        return self.dealer.cards[0] if self.dealer.cards else None

    def dealer_cards(self) -> list[str]:
        """The dealer's cards as the players see them: the hole card only once revealed."""
        cards = self.dealer.cards
        return list(cards) if self.hole_revealed else cards[:1] + cards[2:]

    def result(self) -> RoundResult:
        return RoundResult.of(self)

    # -- JSON ---------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return round_to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRound:
        return round_from_json(cls, data)

