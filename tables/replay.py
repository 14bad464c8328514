"""A settled round, step by step: the table as it stood after each of its events.

Built from the round's stored events alone (Round.state["events"]), so a
replay shows exactly what was recorded. The hole card stays face down until
the step that turned it, as it did at the table.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from tables.engine import Event, EventKind
from tables.engine.hand import hand_value
from tables.presenter import CardView, describe


@dataclass
class HandStep:
    cards: list[str] = field(default_factory=list)
    bet: int = 0
    outcome: str | None = None

    @property
    def total(self) -> int:
        return hand_value(self.cards)[0] if self.cards else 0

    @property
    def card_views(self) -> list[CardView]:
        return [CardView(card) for card in self.cards]


@dataclass
class SeatStep:
    number: int
    player: str
    stack: int
    bet: int = 0
    insurance: int = 0
    hands: list[HandStep] = field(default_factory=list)
    acting: bool = False


@dataclass
class Step:
    index: int  # 0: before the first event; n: after event n
    caption: str
    actor: str | None
    time: str | None
    dealer: list[CardView]
    dealer_total: int | None
    seats: list[SeatStep]


def steps(state: dict, event_times: list[str], names: dict[int, str]) -> list[Step]:
    """Every step of the round: the opening position, then one per event."""
    events = [Event.from_json(data) for data in state["events"]]
    seats = {
        data["seat"]: SeatStep(number=data["seat"], player=names.get(data["seat"], f"Seat {data['seat']}"),
                               stack=data["stack_before"])
        for data in state["seats"]
    }
    dealer: list[str] = []
    revealed = False
    result = [_snapshot(0, "The round opens: place your bets.", None, None, dealer, revealed, seats)]
    for n, event in enumerate(events, start=1):
        seat = seats.get(event.seat) if event.seat is not None else None
        if seat is not None:
            seat.stack += event.chips
        kind = event.kind
        if kind is EventKind.BET:
            seat.bet = -event.chips
        elif kind is EventKind.DEAL_CARD:
            if seat is None:
                dealer.append(event.card)
            else:
                while len(seat.hands) <= event.hand:
                    seat.hands.append(HandStep(bet=seat.bet))
                seat.hands[event.hand].cards.append(event.card)
        elif kind is EventKind.SPLIT:
            source = seat.hands[event.hand]
            source.cards.remove(event.card)
            seat.hands.insert(event.hand + 1, HandStep(cards=[event.card], bet=-event.chips))
        elif kind is EventKind.DOUBLE:
            seat.hands[event.hand].bet += -event.chips
        elif kind is EventKind.INSURANCE_TAKEN:
            seat.insurance = -event.chips
        elif kind is EventKind.SETTLE:
            seat.hands[event.hand].outcome = event.outcome
        elif kind is EventKind.HOLE_CARD_REVEALED:
            revealed = True
        for other in seats.values():
            other.acting = other is seat and kind not in (EventKind.DEAL_CARD, EventKind.SETTLE)
        caption = _caption(event, names)
        time = event_times[n - 1] if n - 1 < len(event_times) else None
        result.append(_snapshot(n, caption, str(event.actor), time, dealer, revealed, seats))
    return result


def _caption(event: Event, names: dict[int, str]) -> str:
    if event.kind is EventKind.DEAL_CARD:
        card = CardView(event.card)
        if event.seat is None:
            return f"Dealer {'takes the hole card' if not event.face_up else 'draws ' + card.label}."
        return f"{names.get(event.seat, f'Seat {event.seat}')}, hand {event.hand + 1}: {card.label}."
    return describe(event, names) or str(event.kind).replace("_", " ").capitalize() + "."


def _snapshot(index, caption, actor, time, dealer, revealed, seats) -> Step:
    if revealed or len(dealer) < 2:
        shown = [CardView(card) for card in dealer]
        total = hand_value(dealer)[0] if dealer else None
    else:
        shown = [CardView(dealer[0]), CardView("??", face_up=False)] + [CardView(c) for c in dealer[2:]]
        total = hand_value(dealer[:1])[0]
    return Step(
        index=index,
        caption=caption,
        actor=actor,
        time=time,
        dealer=shown,
        dealer_total=total,
        seats=[copy.deepcopy(seat) for seat in sorted(seats.values(), key=lambda s: s.number)],
    )
