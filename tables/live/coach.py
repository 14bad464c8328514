"""The coach at the table: a player's hints, worked out off the event loop and never waited for.

A player who switched Hints on (`User.coach_hints`) sees, at each of their
decisions, every legal play's expected value in chips for their bet, for the
cards left in the shoe (tables/engine/exact/coach.py). The analyser takes
tens of milliseconds, so it runs on this process's coach thread: a frame
never waits for it. Until the figures are in (or if they cannot be had) the
hint shows the basic-strategy play, labelled so, and the viewer's consumer
sends the figures in a frame of their own once they are ready
(`Hint.pending`).

The same goes for the insurance offer: a seat with an insurance decision
pending sees insurance's value (at the largest stake the table allows)
against declining (0); basic strategy never insures.

A hint is made only for the viewer whose decision it is, and only in that
viewer's own controls piece (tables/live/pieces.py): nobody else's frame
ever holds it.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace

from tables.engine import BY_NAME, GameRound, Phase, basic_strategy
from tables.engine.exact.coach import Decision, Pricing, decision_now, price
from tables.live.state import TableState

log = logging.getLogger(__name__)

# One thread: hints come one decision at a time per table, and a second thread would only
# contend for the interpreter with the event loop.
_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="coach-hints")
_futures: OrderedDict[tuple, Future[tuple[Decision, Pricing]]] = OrderedDict()
_lock = threading.Lock()
KEPT = 256  # decisions remembered, across every table of the process


@dataclass(frozen=True)
class Play:
    name: str
    label: str
    chips: float  # expected value in chips for the hand's bet
    per_unit: float
    best: bool


@dataclass(frozen=True)
class Hint:
    seat: int
    hand: int
    bet: int
    basic: str  # the basic-strategy play's label
    plays: tuple[Play, ...] = ()  # empty until the exact figures are in
    cards_left: int = 0
    insurance: int = 0  # the insurance stake priced, for an insurance decision (0: a play)
    failed: bool = False
    # The computation still running: the consumer sends a frame when it is done (not part of what shows).
    pending: Future | None = field(default=None, compare=False, repr=False)

    @property
    def ready(self) -> bool:
        return bool(self.plays)


def hint_for(state: TableState, seat: int, hand: int) -> Hint | None:
    """The hint for the decision ``state`` waits for from ``seat``'s ``hand``; None if there is none.

    In the insurance phase the decision is the seat's answer to the offer (``hand`` 0).
    """
    engine = state.engine
    if engine is None or state.round_id is None:
        return None
    if engine.phase is Phase.INSURANCE:
        if hand != 0 or seat not in engine.pending_insurance():
            return None
        played = engine.seats[seat].hands[0]
        stakes = engine.insurance_range(seat)
        base = Hint(seat=seat, hand=0, bet=played.bet, basic=BY_NAME["no_insurance"].label,
                    insurance=stakes[-1] if stakes else 0)
    else:
        if engine.to_act() != (seat, hand):
            return None
        played = engine.seats[seat].hands[hand]
        legal = engine.legal_actions(seat, hand)
        if not legal:
            return None
        basic = BY_NAME[basic_strategy(engine.rules, list(played.cards), engine.up_card, legal)].label
        base = Hint(seat=seat, hand=hand, bet=played.bet, basic=basic)
    # One moment of one round: the same decision in every version until the hand acts.
    future = _future((state.round_id, seat, hand, len(engine.events)), engine, seat, hand)
    if not future.done():
        return replace(base, pending=future)
    if future.cancelled() or future.exception() is not None:
        return replace(base, failed=True)
    return _with_figures(base, *future.result())


def _future(key: tuple, engine: GameRound, seat: int, hand: int) -> Future[tuple[Decision, Pricing]]:
    with _lock:
        future = _futures.get(key)
        if future is None:
            future = _futures[key] = _executor.submit(_price, engine, seat, hand)
            while len(_futures) > KEPT:
                _futures.popitem(last=False)
        return future


def _price(engine: GameRound, seat: int, hand: int) -> tuple[Decision, Pricing]:
    """On the coach thread: the decision as its player sees it, priced (the round is a shared, frozen version)."""
    try:
        decision = decision_now(engine, seat, hand)
        return decision, price(engine.rules, decision)
    except Exception:
        log.exception("A hint for seat %s, hand %s could not be priced", seat, hand)
        raise


def _with_figures(base: Hint, decision: Decision, pricing: Pricing) -> Hint:
    plays = tuple(
        Play(
            name=name,
            label=BY_NAME[name].label,
            chips=round(value * decision.bet, 2),
            per_unit=round(value, 3),
            best=name == pricing.best,
        )
        for name, value in pricing.evs
    )
    unseen = 52 * decision.decks - len(decision.seen) - len(decision.cards) - 1
    return replace(base, plays=plays, cards_left=unseen)


def forget() -> None:
    """Drop every remembered hint (tests)."""
    with _lock:
        _futures.clear()
