"""The decisions before play: the betting window (bet, pass) and the insurance
offer (insurance, no insurance), each a triad, with the stakes each allows."""

from __future__ import annotations

from .errors import ErrorCode, IllegalAction
from .events import Event, EventKind, check_actor
from .round_flow import RoundFlow
from .rules import InsuranceRule
from .state import InsuranceStatus, Phase, SeatState, SeatStatus


class RoundBetting(RoundFlow):
    """The ``betting`` and ``insurance`` phases."""

    __slots__ = ()

    # -- betting ------------------------------------------------------------------

    def _check_betting(self, seat: int) -> SeatState:
        if self.phase is not Phase.BETTING:
            raise self._closed("Betting is closed for this round.")
        place = self._seat(seat)
        if place.status is not SeatStatus.WAITING:
            raise IllegalAction(ErrorCode.ILLEGAL_ACTION, f"Seat {seat} has already answered this betting window.")
        return place

    def _bet_stakes(self, place: SeatState) -> range | None:
        # RULES.md: from the table minimum to the stack, capped at the table maximum.
        top = place.stack if self.max_bet is None else min(place.stack, self.max_bet)
        return range(self.min_bet, top + 1) if top >= self.min_bet else None

    def bet_range(self, seat: int) -> range | None:
        """The bets ``seat`` may place now; None when it may not bet (or holds less than the minimum)."""
        try:
            place = self._check_betting(seat)
        except IllegalAction:
            return None
        return self._bet_stakes(place)

    def default_bet(self, seat: int, preferred: int) -> int | None:
        """``preferred`` (the table's default bet) brought into :meth:`bet_range`."""
        allowed = self.bet_range(seat)
        if allowed is None:
            return None
        return min(max(preferred, allowed.start), allowed[-1])

    def verify_bet(self, seat: int, amount: int) -> None:
        place = self._check_betting(seat)
        if type(amount) is not int:
            raise IllegalAction(ErrorCode.BAD_AMOUNT, "A bet is a whole number of chips.")
        allowed = self._bet_stakes(place)
        if allowed is not None and amount in allowed:
            return
        # Say why: the table's limits first, then the stack.
        if amount < self.min_bet or (self.max_bet is not None and amount > self.max_bet):
            limit = f"from {self.min_bet} to {self.max_bet}" if self.max_bet is not None else f"at least {self.min_bet}"
            raise IllegalAction(ErrorCode.BAD_AMOUNT, f"Bets at this table are {limit} chips.")
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
        self._check_betting(seat)

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

    def _check_insurance_pending(self, seat: int) -> SeatState:
        place = self._seat(seat)
        status = place.insurance_status
        if status is InsuranceStatus.NOT_OFFERED:
            raise IllegalAction(ErrorCode.ILLEGAL_ACTION, f"Insurance is not offered to seat {seat}.")
        if status is not InsuranceStatus.PENDING:
            raise IllegalAction(ErrorCode.ILLEGAL_ACTION, "You have already answered the insurance offer.")
        return place

    def insurance_range(self, seat: int) -> range | None:
        """The insurance stakes ``seat`` may take now; None when it has no offer to answer."""
        if self.phase is not Phase.INSURANCE:
            return None
        place = self.seats.get(seat)
        if place is None or place.insurance_status is not InsuranceStatus.PENDING:
            return None
        return self._insurance_stakes(place)

    def verify_insurance(self, seat: int, amount: int | None = None) -> int:
        """Raise unless ``seat`` may insure for ``amount``; return the stake it would place.

        With no ``amount`` the stake is the most :meth:`insurance_range` allows.
        """
        if self.phase is not Phase.INSURANCE:
            raise self._closed("Insurance is offered only right after the deal, when the dealer shows an ace.")
        place = self._check_insurance_pending(seat)
        allowed = self._insurance_stakes(place)
        half = place.bet // 2
        if allowed is None:
            raise IllegalAction(
                ErrorCode.ILLEGAL_ACTION, f"You hold {place.stack} chips: not enough for any insurance."
            )
        if amount is None:
            return allowed[-1]
        if type(amount) is int and amount in allowed:
            return amount
        if self.rules.insurance is InsuranceRule.HALF_BET:
            raise IllegalAction(ErrorCode.BAD_AMOUNT, f"Insurance at this table is exactly half your bet: {half} chips.")
        if type(amount) is int and 1 <= amount <= half:
            raise IllegalAction(
                ErrorCode.BAD_AMOUNT, f"You hold {place.stack} chips: not enough for {amount} chips of insurance."
            )
        raise IllegalAction(ErrorCode.BAD_AMOUNT, f"Insurance is from 1 to {half} chips (half your bet).")

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
        """The ``no_insurance`` action (its event is ``insurance_declined``)."""
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
