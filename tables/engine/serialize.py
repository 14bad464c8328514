"""A round to plain JSON and back, without loss (DESIGN.md: stored after every action)."""

from __future__ import annotations

from typing import Any, TypeVar

from .events import Event, parser
from .hand import Hand
from .round_state import RoundState
from .rules import RuleSet
from .shoe import CardShoe
from .state import InsuranceStatus, Phase, SeatState, SeatStatus

R = TypeVar("R", bound=RoundState)

_phase = parser(Phase)
_seat_status = parser(SeatStatus)
_insurance_status = parser(InsuranceStatus)

FORMAT_VERSION = 1

_HAND_FLAGS = ("doubled", "from_split", "one_card", "natural", "finished", "surrendered", "settled", "outcome")


def hand_to_json(hand: Hand) -> dict[str, Any]:
    data: dict[str, Any] = {"cards": list(hand.cards), "bet": hand.bet}
    for name in _HAND_FLAGS:
        data[name] = getattr(hand, name)
    return data


def hand_from_json(data: dict[str, Any]) -> Hand:
    hand = Hand(data["bet"], data["cards"])
    for name in _HAND_FLAGS:
        setattr(hand, name, data[name])
    return hand


def seat_to_json(seat: SeatState) -> dict[str, Any]:
    return {
        "seat": seat.number,
        "stack_before": seat.stack_before,
        "stack": seat.stack,
        "status": str(seat.status),
        "bet": seat.bet,
        "insurance": seat.insurance,
        "insurance_status": str(seat.insurance_status),
        "hands": [hand_to_json(hand) for hand in seat.hands],
    }


def seat_from_json(data: dict[str, Any]) -> SeatState:
    seat = SeatState(data["seat"], data["stack_before"])
    seat.stack = data["stack"]
    seat.status = _seat_status(data["status"])
    seat.bet = data["bet"]
    seat.insurance = data["insurance"]
    seat.insurance_status = _insurance_status(data["insurance_status"])
    seat.hands = [hand_from_json(hand) for hand in data["hands"]]
    return seat


def round_to_json(round_: RoundState) -> dict[str, Any]:
    return {
        "format": FORMAT_VERSION,
        "rules": round_.rules.to_json(),
        "shoe": round_.shoe.to_json(),
        "min_bet": round_.min_bet,
        "max_bet": round_.max_bet,
        "phase": str(round_.phase),
        "seats": [seat_to_json(seat) for seat in round_.seats.values()],
        "order": list(round_.order),
        "dealer": list(round_.dealer.cards),
        "hole_revealed": round_.hole_revealed,
        "dealer_blackjack": round_.dealer_blackjack,
        "turn": [round_._turn_index, round_._turn_hand],
        "events": _events_to_json(round_),
    }


def _events_to_json(round_: RoundState) -> list[dict[str, Any]]:
    """The round's events as JSON: a round's events are only ever appended, so each is made JSON once.

    A play stores its round's whole state, every event of the round so far
    (a few dozen), and the next play reads it back or plays on the same
    round (its copy, tables/play/held.py): the events it was read with, or
    last stored, go out as they were.
    """
    read = round_._events_read
    events = round_.events
    if len(read) < len(events):
        read = round_._events_read = (*read, *(event.to_json() for event in events[len(read) :]))
    return list(read)


def round_from_json(cls: type[R], data: dict[str, Any]) -> R:
    """A round of class ``cls`` (``GameRound`` passes itself) in the state ``data`` holds."""
    if data.get("format") != FORMAT_VERSION:
        raise ValueError(f"unknown round format {data.get('format')!r}")
    round_ = cls.__new__(cls)
    round_.rules = RuleSet.from_json(data["rules"])
    round_.shoe = CardShoe.from_json(data["shoe"])
    round_.min_bet = data["min_bet"]
    round_.max_bet = data["max_bet"]
    round_.phase = _phase(data["phase"])
    round_.seats = {seat["seat"]: seat_from_json(seat) for seat in data["seats"]}
    round_.order = list(data["order"])
    round_.dealer = Hand(0, data["dealer"])
    round_.hole_revealed = data["hole_revealed"]
    round_.dealer_blackjack = data["dealer_blackjack"]
    round_._turn_index, round_._turn_hand = data["turn"]
    round_.events = [Event.from_json(event) for event in data["events"]]
    round_._events_read = tuple(data["events"])
    return round_
