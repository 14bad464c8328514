"""A settled round, step by step: the table as it stood after each of its events.

Built from the round's stored events alone (Round.state["events"]), so a
replay shows exactly what was recorded. The dealer's face-down card stays a
back until the step that turned it, as it did at the table; the shoe and its
seed are never read.
"""

from __future__ import annotations

import copy
import datetime as dt
from dataclasses import dataclass, field

from tables.engine import Event, EventKind
from tables.engine.hand import hand_value, is_natural
from tables.live.cards import CardView
from tables.live.narration import display_names, narrate
from tables.live.outcomes import hand_words


@dataclass
class HandStep:
    cards: list[CardView] = field(default_factory=list)
    bet: int = 0
    outcome: str | None = None
    result: str = ""  # the settled hand in words with its chips, as the live table says it

    @property
    def total(self) -> int:
        return hand_value([card.code for card in self.cards])[0] if self.cards else 0

    @property
    def soft(self) -> bool:
        return bool(self.cards) and hand_value([card.code for card in self.cards])[1]


@dataclass
class SeatStep:
    number: int
    player: str
    stack: int
    stack_before: int
    bet: int = 0
    insurance: int = 0
    hands: list[HandStep] = field(default_factory=list)
    acting: bool = False

    @property
    def net(self) -> int:
        return self.stack - self.stack_before

    @property
    def staked(self) -> int:
        """The chips on the seat's hands, doubles and splits included (as the live table shows them)."""
        return sum(hand.bet for hand in self.hands) if self.hands else self.bet


@dataclass
class Step:
    index: int  # 0: before the first event; n: after event n
    caption: str
    actor: str | None
    time: dt.datetime | None
    dealer: list[CardView]
    dealer_total: int | None
    seats: list[SeatStep]


def steps(state: dict, event_times: list[str], names: dict[int, str]) -> list[Step]:
    """Every step of the round: the opening position, then one per event."""
    events = [Event.from_json(data) for data in state.get("events", [])]
    shown = display_names(names)  # the captions' names: a player with two seats told apart
    seats = {
        data["seat"]: SeatStep(
            number=data["seat"],
            player=names.get(data["seat"], ""),
            stack=data["stack_before"],
            stack_before=data["stack_before"],
        )
        for data in state.get("seats", [])
    }
    # The dealer's cards as dealt: (card, dealt face up). A face-down card
    # shows its back until the hole card is turned.
    dealer: list[tuple[str, bool]] = []
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
                dealer.append((event.card, event.face_up))
            else:
                while len(seat.hands) <= event.hand:
                    seat.hands.append(HandStep(bet=seat.bet))
                seat.hands[event.hand].cards.append(CardView(event.card))
        elif kind is EventKind.SPLIT:
            # RULES.md: hand i splits into hands i and i+1; its second card moves to the new hand.
            source = seat.hands[event.hand]
            source.cards.pop()
            seat.hands.insert(event.hand + 1, HandStep(cards=[CardView(event.card)], bet=-event.chips))
        elif kind is EventKind.DOUBLE:
            seat.hands[event.hand].bet += -event.chips
        elif kind is EventKind.INSURANCE_TAKEN:
            seat.insurance = -event.chips
        elif kind is EventKind.SETTLE:
            hand = seat.hands[event.hand]
            hand.outcome = event.outcome
            dealer_blackjack = revealed and is_natural([card for card, _ in dealer])
            hand.result = hand_words(event.outcome or "", event.chips - hand.bet, dealer_blackjack=dealer_blackjack)
        elif kind is EventKind.HOLE_CARD_REVEALED:
            revealed = True
        for other in seats.values():
            other.acting = other is seat and kind not in (EventKind.DEAL_CARD, EventKind.SETTLE)
        caption = _caption(event, shown)
        time = _parse_time(event_times[n - 1]) if n - 1 < len(event_times) else None
        result.append(_snapshot(n, caption, str(event.actor), time, dealer, revealed, seats))
    return result


def _parse_time(value: str | None) -> dt.datetime | None:
    try:
        return dt.datetime.fromisoformat(value) if value else None
    except ValueError:
        return None


def _caption(event: Event, names: dict[int, str]) -> str:
    if event.kind is EventKind.DEAL_CARD:
        if event.seat is None:
            if not event.face_up:
                return "Dealer takes the hole card."
            return f"Dealer draws {CardView(event.card).label}."
        return f"{names.get(event.seat, f'Seat {event.seat}')}, hand {event.hand + 1}: {CardView(event.card).label}."
    return narrate(event, names) or str(event.kind).replace("_", " ").capitalize() + "."


def _snapshot(
    index: int,
    caption: str,
    actor: str | None,
    time: dt.datetime | None,
    dealer: list[tuple[str, bool]],
    revealed: bool,
    seats: dict[int, SeatStep],
) -> Step:
    if revealed:
        shown = [CardView(card) for card, _ in dealer]
    else:
        # DESIGN.md: nothing hidden leaves the server; the hole card is a back.
        shown = [CardView(card) if face_up else CardView("??", face_up=False) for card, face_up in dealer]
    visible = [card.code for card in shown if card.face_up]
    return Step(
        index=index,
        caption=caption,
        actor=actor,
        time=time,
        dealer=shown,
        dealer_total=hand_value(visible)[0] if visible else None,
        seats=[copy.deepcopy(seat) for seat in sorted(seats.values(), key=lambda s: s.number)],
    )
