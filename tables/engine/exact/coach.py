"""The coach's arithmetic: a decision at a table, priced for the cards its player cannot see.

A player at a shoe game has seen every card dealt since the last shuffle,
except the dealer's hole card (seen.py says which cards those are: the
earlier rounds of the shoe, seeded or stacked, read from its order; this
round's face-up cards; after a mid-round reshuffle, only the cards kept on
the table and those dealt since). The cards they cannot see are the ones the
analyser draws from: the shoe's undealt cards and the hole card. So a
decision is priced with the composition "fresh shoe minus every card seen",
this hand's cards and the up card included (the analyser takes those out
itself).

    decision_now(round_, seat, hand) -> Decision      the decision a live round waits for
    recorded_decisions(state) -> list[Decision]       every decision of a recorded round
    price(rules, decision) -> Pricing                  the EV of each legal action and the best
    review(rules, decision) -> dict                    what the decision cost, for the history

Two kinds of decision are priced: a hand's play in the players' turn (hit,
stand, double, split, surrender) and a seat's answer to the insurance offer
(insurance, no insurance). Values are per unit of the hand's bet
(docs/engine.md "The exact analyser"); insurance is the side bet's value at
the largest stake the table allows (half the bet, rounded down), a smaller
stake scaled linearly, against 0 for declining.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..events import Event, EventKind
from ..replay import apply_recorded
from ..round import GameRound
from ..round_state import RoundState
from ..rules import RuleSet
from ..state import Phase
from .analysis import action_evs, dealer_probabilities, insurance_value
from .composition import Composition
from .seen import ReplayShoe, seen_before_round, seen_now, shoe_json

#: The plays a hand can be reviewed on (the players' turn), by the event each records.
PLAY_EVENTS = {
    EventKind.HIT: "hit", EventKind.STAND: "stand", EventKind.DOUBLE: "double",
    EventKind.SPLIT: "split", EventKind.SURRENDER: "surrender",
}
#: A seat's answer to the insurance offer, by the event it records.
INSURANCE_EVENTS = {EventKind.INSURANCE_TAKEN: "insurance", EventKind.INSURANCE_DECLINED: "no_insurance"}


@dataclass(frozen=True)
class Decision:
    """One hand's decision: what the player knew, what was allowed, and (for a recorded one) what was done."""

    seat: int
    hand: int
    cards: tuple[str, ...]
    up_card: str
    bet: int  # the hand's stake before the decision
    split_hands: int  # 0 for an unsplit hand, else the hands the seat holds
    legal: tuple[str, ...]
    seen: tuple[str, ...]  # every other card seen since the shuffle
    decks: int
    double_max: int = 0  # the most the hand may double for (0: no double)
    insurance_max: int = 0  # an insurance decision: the largest stake the table allows
    seq: int = -1  # the recorded event of the decision
    action: str | None = None
    actor: str | None = None
    amount: int = 0  # a double's extra stake, or the insurance stake taken

    @property
    def is_insurance(self) -> bool:
        return "no_insurance" in self.legal


@dataclass(frozen=True)
class Pricing:
    evs: tuple[tuple[str, float], ...]  # (action, EV per unit of the hand's bet), in button order
    best: str

    def value(self, action: str) -> float:
        return dict(self.evs)[action]


def _seen(engine: RoundState, before: Sequence[str], cards: Sequence[str], up_card: str) -> tuple[str, ...]:
    """Every card seen but the hand's own and the up card (the analyser takes those out itself)."""
    face_up = seen_now(engine, before)
    face_up.subtract(cards)
    face_up.subtract([up_card])
    return tuple(sorted(face_up.elements()))


def _decision(engine: GameRound, seat: int, hand: int, before: Sequence[str]) -> Decision:
    place = engine.seats[seat]
    played = place.hands[hand]
    up_card = engine.dealer.cards[0]
    doubles = engine.double_range(seat, hand)
    return Decision(
        seat=seat,
        hand=hand,
        cards=tuple(played.cards),
        up_card=up_card,
        bet=played.bet,
        split_hands=len(place.hands) if played.from_split else 0,
        legal=tuple(engine.legal_actions(seat, hand)),
        seen=_seen(engine, before, played.cards, up_card),
        decks=engine.shoe.decks,
        double_max=doubles[-1] if doubles else 0,
    )


def _insurance_decision(engine: GameRound, seat: int, before: Sequence[str]) -> Decision:
    played = engine.seats[seat].hands[0]
    up_card = engine.dealer.cards[0]
    stakes = engine.insurance_range(seat)
    return Decision(
        seat=seat,
        hand=0,
        cards=tuple(played.cards),
        up_card=up_card,
        bet=played.bet,
        split_hands=0,
        legal=tuple(engine.legal_actions(seat)),
        seen=_seen(engine, before, played.cards, up_card),
        decks=engine.shoe.decks,
        insurance_max=stakes[-1] if stakes else 0,
    )


def decision_now(round_: RoundState, seat: int, hand: int = 0) -> Decision:
    """The decision a live round waits for from ``seat``'s ``hand``: its play, or its answer to insurance."""
    before = seen_before_round(shoe_json(round_.shoe), round_.events)
    if round_.phase is Phase.INSURANCE and hand == 0 and seat in round_.pending_insurance():
        return _insurance_decision(round_, seat, before)
    if round_.phase is not Phase.PLAYERS or round_.to_act() != (seat, hand):
        raise ValueError("that hand has no decision to make now")
    return _decision(round_, seat, hand, before)


def recorded_decisions(state: dict[str, Any]) -> list[Decision]:
    """Every decision of a recorded round (``Round.state``), each as its player saw it, in order.

    The round is rebuilt from its record: the cards it dealt, in order, as a
    stacked shoe that runs out where the round's did (seen.ReplayShoe), and its
    recorded decisions applied again, so each decision's legal actions are
    exactly those the table offered. The house's own moves are not decisions;
    the timer's, made for a silent player, are (``actor`` "timer").
    """
    rules = RuleSet.from_json(state["rules"])
    events = [Event.from_json(data) for data in state["events"]]
    before = seen_before_round(state["shoe"], events)
    engine = GameRound.new(
        rules=rules,
        shoe=ReplayShoe.of(events, state["shoe"]["decks"]),
        seats={seat["seat"]: seat["stack_before"] for seat in state["seats"]},
        min_bet=state["min_bet"],
        max_bet=state["max_bet"],
    )
    found = []
    while len(engine.events) < len(events):
        at = len(engine.events)
        event = events[at]
        actor = str(event.actor)
        action = PLAY_EVENTS.get(event.kind)
        if action is not None and engine.phase is Phase.PLAYERS and actor != "house":
            decision = _decision(engine, event.seat, event.hand, before)
            found.append(replace(
                decision, seq=event.seq, action=action, actor=actor,
                amount=-event.chips if event.kind is EventKind.DOUBLE else 0,
            ))
        elif event.kind in INSURANCE_EVENTS and engine.phase is Phase.INSURANCE and actor != "house":
            answers = [event]
            if event.kind is EventKind.INSURANCE_DECLINED and actor != "player":
                # The timer declines every silent seat at once (replay.apply_recorded): each is a decision.
                silent = engine.pending_insurance()
                answers = [answer for answer in events[at: at + len(silent)]
                           if answer.kind is EventKind.INSURANCE_DECLINED and answer.seat in silent]
            for answer in answers:
                decision = _insurance_decision(engine, answer.seat, before)
                found.append(replace(
                    decision, seq=answer.seq, action=INSURANCE_EVENTS[answer.kind], actor=str(answer.actor),
                    amount=-answer.chips,
                ))
        apply_recorded(engine, event)
    return found


def _double_for(rules: RuleSet, decision: Decision, composition: Composition, full: float, stake: int) -> float:
    """A double for ``stake`` extra chips, from the full double's value (docs/engine.md: linear in the stake)."""
    if stake >= decision.bet:
        return full
    scale = 1 + stake / decision.bet
    if rules.dealer_peek or decision.split_hands:
        return scale * full / 2
    p = dealer_probabilities(rules, decision.up_card, composition, removed=decision.cards)["blackjack"]
    return scale * (full + p) / 2 - p


def _insurance_at(decision: Decision, half_bet_value: float, stake: int) -> float:
    """Insurance for ``stake`` chips, per unit of the bet, from its value at half the bet (linear in the stake)."""
    return half_bet_value * stake / (decision.bet / 2)


def _price_insurance(decision: Decision, composition: Composition) -> Pricing:
    """Insurance at the largest stake allowed against declining (0): the best is to insure only when it gains."""
    value = _insurance_at(
        decision, insurance_value(composition, decision.cards, decision.up_card), decision.insurance_max,
    )
    evs = tuple((action, value if action == "insurance" else 0.0) for action in decision.legal)
    return Pricing(evs=evs, best="insurance" if value > 0 and "insurance" in decision.legal else "no_insurance")


def price(rules: RuleSet, decision: Decision) -> Pricing:
    """The exact value of each play the table offers for this decision, and the best one.

    Raises ValueError when the analyser cannot price it (a shoe too small, say).
    """
    composition = Composition.full(decision.decks).without(decision.seen)
    if decision.is_insurance:
        return _price_insurance(decision, composition)
    evs = action_evs(rules, composition, decision.cards, decision.up_card, split_hands=decision.split_hands)
    plays = [(action, evs[action]) for action in decision.legal if action in evs]
    if not plays:
        raise ValueError("no play of this hand can be priced")
    if "double" in evs and 0 < decision.double_max < decision.bet:
        # The hand cannot double for the full bet (its stack is short): the most it can.
        plays = [
            (action, _double_for(rules, decision, composition, value, decision.double_max) if action == "double" else value)
            for action, value in plays
        ]
    best = max(plays, key=lambda play: play[1])[0]
    return Pricing(evs=tuple(plays), best=best)


def review(rules: RuleSet, decision: Decision) -> dict[str, Any]:
    """A recorded decision priced against the best action for that shoe (hand-history-format.md, "review")."""
    pricing = price(rules, decision)
    values = dict(pricing.evs)
    chosen = values[decision.action]
    if decision.action == "double" and decision.amount and decision.amount < decision.bet:
        composition = Composition.full(decision.decks).without(decision.seen)
        full = action_evs(rules, composition, decision.cards, decision.up_card,
                          split_hands=decision.split_hands)["double"]
        chosen = _double_for(rules, decision, composition, full, decision.amount)
    if decision.action == "insurance" and decision.amount != decision.insurance_max:
        chosen = chosen * decision.amount / decision.insurance_max  # a smaller stake: linear
    cost = max(0.0, values[pricing.best] - chosen)
    verdict = {
        "seq": decision.seq,
        "seat": decision.seat,
        "hand": decision.hand,
        "cards": list(decision.cards),
        "dealer": decision.up_card,
        "bet": decision.bet,
        "action": decision.action,
        "actor": decision.actor,
        "ev": round(chosen, 6),
        "best": pricing.best,
        "best_ev": round(values[pricing.best], 6),
        "evs": {action: round(value, 6) for action, value in pricing.evs},
        "cost_chips": round(cost * decision.bet, 4),
        "cost_pct": round(100 * cost, 4),
        # Best when no play beats it by more than rounding (two plays may be worth the same).
        "is_best": cost < 1e-9,
    }
    if decision.is_insurance:
        verdict["stake"] = decision.amount  # the insurance stake taken (0: declined)
    return verdict
