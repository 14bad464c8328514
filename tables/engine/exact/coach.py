"""The coach's arithmetic: a decision at a table, priced for the cards its player cannot see.

A player at a shoe game has seen every card dealt since the last shuffle,
except the dealer's hole card. The cards they cannot see are the ones the
analyser draws from: the shoe's undealt cards and the hole card. So a
decision is priced with the composition "fresh shoe minus every card seen
since the shuffle", this hand's cards and the up card included (the
analyser takes those out itself). The cards of earlier rounds of the shoe
are read from its seeded order (they were all face up once the hole card was
turned); a stacked shoe (tests, scenarios) or a shoe reshuffled mid-round
counts only the cards seen in this round, off a fresh shoe.

    decision_now(round_, seat, hand) -> Decision      the decision a live round waits for
    recorded_decisions(state) -> list[Decision]       every play decision of a recorded round
    price(rules, decision) -> Pricing                  the EV of each legal play and the best
    review(rules, decision) -> dict                    what the decision cost, for the history

Values are per unit of the hand's bet (docs/engine.md "The exact analyser");
insurance, a side bet decided before the players' turn, is not a play and is
not priced here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from ..events import Event, EventKind
from ..replay import apply_recorded
from ..round import GameRound
from ..round_state import RoundState
from ..rules import RuleSet
from ..shoe import CardShoe
from ..state import Phase
from .analysis import action_evs, dealer_probabilities
from .composition import Composition

#: The plays a hand can be reviewed on (the players' turn), by the event each records.
PLAY_EVENTS = {
    EventKind.HIT: "hit", EventKind.STAND: "stand", EventKind.DOUBLE: "double",
    EventKind.SPLIT: "split", EventKind.SURRENDER: "surrender",
}


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
    seq: int = -1  # the recorded event of the play
    action: str | None = None
    actor: str | None = None
    amount: int = 0  # a double's extra stake


@dataclass(frozen=True)
class Pricing:
    evs: tuple[tuple[str, float], ...]  # (play, EV per unit of the hand's bet), in button order
    best: str

    def value(self, action: str) -> float:
        return dict(self.evs)[action]


@lru_cache(maxsize=16)
def _order(seed: bytes, decks: int) -> tuple[str, ...]:
    return tuple(CardShoe.from_seed(seed, decks).order())


def seen_before_round(shoe: dict[str, Any], events: Sequence[Event]) -> tuple[str, ...]:
    """The cards dealt from the shoe before this round (``shoe``: its JSON, ``events``: the round's so far)."""
    if shoe.get("seed") is None or shoe.get("reshuffles"):
        return ()
    dealt_here = sum(1 for event in events if event.kind is EventKind.DEAL_CARD)
    start = shoe["dealt"] - dealt_here
    return _order(bytes.fromhex(shoe["seed"]), shoe["decks"])[:start] if start > 0 else ()


def _decision(engine: GameRound, seat: int, hand: int, before: Sequence[str]) -> Decision:
    place = engine.seats[seat]
    played = place.hands[hand]
    up_card = engine.dealer.cards[0]
    face_up = Counter(before)
    face_up.update(event.card for event in engine.events if event.kind is EventKind.DEAL_CARD and event.face_up)
    face_up.subtract(played.cards)
    face_up.subtract([up_card])
    doubles = engine.double_range(seat, hand)
    return Decision(
        seat=seat,
        hand=hand,
        cards=tuple(played.cards),
        up_card=up_card,
        bet=played.bet,
        split_hands=len(place.hands) if played.from_split else 0,
        legal=tuple(engine.legal_actions(seat, hand)),
        seen=tuple(sorted(face_up.elements())),
        decks=engine.shoe.decks,
        double_max=doubles[-1] if doubles else 0,
    )


def decision_now(round_: RoundState, seat: int, hand: int) -> Decision:
    """The decision a live round waits for from ``seat``'s ``hand`` (the players' turn)."""
    if round_.phase is not Phase.PLAYERS or round_.to_act() != (seat, hand):
        raise ValueError("that hand has no decision to make now")
    shoe = {
        "seed": round_.shoe.seed.hex() if round_.shoe.seed is not None else None,
        "decks": round_.shoe.decks, "reshuffles": round_.shoe.reshuffles, "dealt": round_.shoe.dealt,
    }
    return _decision(round_, seat, hand, seen_before_round(shoe, round_.events))


def recorded_decisions(state: dict[str, Any]) -> list[Decision]:
    """Every play decision of a recorded round (``Round.state``), each as its player saw it.

    The round is rebuilt from its record: the cards it dealt, in order, as a
    stacked shoe, and its recorded decisions applied again, so each decision's
    legal plays are exactly those the table offered. A round whose shoe ran
    out mid-round is not rebuilt (an empty list).
    """
    rules = RuleSet.from_json(state["rules"])
    events = [Event.from_json(data) for data in state["events"]]
    if any(event.kind is EventKind.SHOE_RESHUFFLED for event in events):
        return []
    cards = [event.card for event in events if event.kind is EventKind.DEAL_CARD]
    before = seen_before_round(state["shoe"], events)
    engine = GameRound.new(
        rules=rules,
        shoe=CardShoe.stacked(cards, state["shoe"]["decks"]),
        seats={seat["seat"]: seat["stack_before"] for seat in state["seats"]},
        min_bet=state["min_bet"],
        max_bet=state["max_bet"],
    )
    found = []
    while len(engine.events) < len(events):
        event = events[len(engine.events)]
        action = PLAY_EVENTS.get(event.kind)
        if action is not None and engine.phase is Phase.PLAYERS and str(event.actor) != "house":
            decision = _decision(engine, event.seat, event.hand, before)
            found.append(replace(
                decision, seq=event.seq, action=action, actor=str(event.actor),
                amount=-event.chips if event.kind is EventKind.DOUBLE else 0,
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


def price(rules: RuleSet, decision: Decision) -> Pricing:
    """The exact value of each play the table offers for this decision, and the best one.

    Raises ValueError when the analyser cannot price it (a shoe too small, say).
    """
    composition = Composition.full(decision.decks).without(decision.seen)
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
    """A recorded decision priced against the best play for that shoe (hand-history-format.md, "review")."""
    pricing = price(rules, decision)
    values = dict(pricing.evs)
    chosen = values[decision.action]
    if decision.action == "double" and decision.amount and decision.amount < decision.bet:
        composition = Composition.full(decision.decks).without(decision.seen)
        full = action_evs(rules, composition, decision.cards, decision.up_card,
                          split_hands=decision.split_hands)["double"]
        chosen = _double_for(rules, decision, composition, full, decision.amount)
    cost = max(0.0, values[pricing.best] - chosen)
    return {
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
