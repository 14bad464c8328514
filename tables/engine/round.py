"""The round: one explicit state machine from the betting window to settlement.

Every decision is a triad (STYLE.md, as in pokerkit): ``verify_x`` raises
:class:`IllegalAction`, ``can_x`` answers yes or no, ``x`` applies it, appends
its frozen event and returns that event. Between decisions the round runs by
itself through everything nobody decides (the deal, the peek, paying naturals,
the second card of a split hand, the dealer's play, settlement) and rests only
in ``betting``, ``insurance``, ``players`` or ``settled``.

:class:`GameRound` puts the layers together (``round_state`` <- ``round_flow``
<- ``round_betting`` and ``round_play``) and adds what names an action: the
registry's names (``actions.py``) in ``act``, ``legal_actions`` and
``amount_range``.
"""

from __future__ import annotations

from typing import Any, Self

from .actions import BY_NAME, AmountKind, ActionSpec, actions_in
from .errors import ErrorCode, IllegalAction
from .events import Event, check_actor
from .results import RoundResult
from .round_betting import RoundBetting
from .round_play import RoundPlay
from .serialize import round_from_json, round_to_json
from .state import Phase

#: The decisions on a hand, in button order (from the registry).
PLAYER_ACTIONS: tuple[str, ...] = tuple(spec.name for spec in actions_in(Phase.PLAYERS))

_OFFERED_IN: dict[Phase, tuple[ActionSpec, ...]] = {phase: actions_in(phase) for phase in Phase}


class GameRound(RoundBetting, RoundPlay):
    """One round at one table. Build it with :meth:`new`; resume it with :meth:`from_json`."""

    __slots__ = ()

    # -- any action by its registry name ---------------------------------------------

    def _dispatch(
        self, name: str, seat: int, hand: int, amount: int | None, actor: str, apply: bool
    ) -> Event | None:
        """Verify (``apply`` False) or apply one action: the only place a name picks a method."""
        spec = self._check_arguments(name, hand, amount)
        match spec.name:
            case "bet":
                assert amount is not None  # AmountKind.REQUIRED: _check_arguments saw to it
                if apply:
                    return self.bet(seat=seat, amount=amount, actor=actor)
                self.verify_bet(seat=seat, amount=amount)
            case "pass":
                if apply:
                    return self.pass_bet(seat=seat, actor=actor)
                self.verify_pass_bet(seat=seat)
            case "insurance":
                if apply:
                    return self.insurance(seat=seat, amount=amount, actor=actor)
                self.verify_insurance(seat=seat, amount=amount)
            case "no_insurance":
                if apply:
                    return self.decline_insurance(seat=seat, actor=actor)
                self.verify_decline_insurance(seat=seat)
            case "hit":
                if apply:
                    return self.hit(seat=seat, hand=hand, actor=actor)
                self.verify_hit(seat=seat, hand=hand)
            case "stand":
                if apply:
                    return self.stand(seat=seat, hand=hand, actor=actor)
                self.verify_stand(seat=seat, hand=hand)
            case "double":
                if apply:
                    return self.double(seat=seat, hand=hand, amount=amount, actor=actor)
                self.verify_double(seat=seat, hand=hand, amount=amount)
            case "split":
                if apply:
                    return self.split(seat=seat, hand=hand, actor=actor)
                self.verify_split(seat=seat, hand=hand)
            case "surrender":
                if apply:
                    return self.surrender(seat=seat, hand=hand, actor=actor)
                self.verify_surrender(seat=seat, hand=hand)
            case _:
                raise AssertionError(f"the registry names {name!r} but GameRound._dispatch does not")
        return None

    @staticmethod
    def _check_arguments(name: str, hand: int, amount: int | None) -> ActionSpec:
        spec = BY_NAME.get(name) if isinstance(name, str) else None
        if spec is None:
            raise IllegalAction(ErrorCode.UNKNOWN_ACTION, f"There is no action called {name!r}.")
        if amount is not None and spec.amount is AmountKind.NONE:
            raise IllegalAction(ErrorCode.BAD_AMOUNT, f"{spec.label} takes no amount of chips.")
        if amount is None and spec.amount is AmountKind.REQUIRED:
            raise IllegalAction(ErrorCode.BAD_AMOUNT, f"Say how many chips to {spec.name}.")
        if hand != 0 and not spec.takes_hand:
            raise IllegalAction(ErrorCode.ILLEGAL_ACTION, f"{spec.label} is for the whole seat, not one hand.")
        return spec

    def verify_act(self, name: str, *, seat: int, hand: int = 0, amount: int | None = None) -> None:
        """Raise unless the action called ``name`` may be applied with these arguments."""
        self._dispatch(name, seat, hand, amount, "player", apply=False)

    def can_act(self, name: str, *, seat: int, hand: int = 0, amount: int | None = None) -> bool:
        try:
            self._dispatch(name, seat, hand, amount, "player", apply=False)
        except IllegalAction:
            return False
        return True

    def act(self, name: str, *, seat: int, hand: int = 0, amount: int | None = None, actor: str = "player") -> Event:
        """Apply the action called ``name`` (a registry name, as the browser sends it)."""
        check_actor(actor)
        event = self._dispatch(name, seat, hand, amount, actor, apply=True)
        assert event is not None
        return event

    def amount_range(self, name: str, *, seat: int, hand: int = 0) -> range | None:
        """The amounts the action called ``name`` may take now (None: none, or not legal now)."""
        match name:
            case "bet":
                return self.bet_range(seat)
            case "insurance":
                return self.insurance_range(seat)
            case "double":
                return self.double_range(seat, hand)
        return None

    # -- queries ------------------------------------------------------------------

    def legal_actions(self, seat: int, hand: int = 0) -> tuple[str, ...]:
        """Exactly the actions the UI should offer ``seat`` (for ``hand``) now, in button order."""
        legal = []
        for spec in _OFFERED_IN[self.phase]:
            on = hand if spec.takes_hand else 0
            if spec.amount is AmountKind.REQUIRED:
                # Offered when some amount would do.
                offered = self.amount_range(spec.name, seat=seat, hand=on) is not None
            else:
                offered = self.can_act(spec.name, seat=seat, hand=on)
            if offered:
                legal.append(spec.name)
        return tuple(legal)

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

    def result(self) -> RoundResult:
        return RoundResult.of(self)

    # -- JSON ---------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return round_to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self:
        return round_from_json(cls, data)
