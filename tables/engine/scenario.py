"""Scenario files: one round from a stacked shoe (scenarios/FORMAT.md)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .actions import BY_NAME, AmountKind
from .cards import VALUE
from .errors import ErrorCode, IllegalAction
from .round import PLAYER_ACTIONS, GameRound
from .rules import PROFILES, RuleSet
from .shoe import CardShoe
from .state import Phase

#: The actions a scenario file may list (FORMAT.md): bets and passes come from its
#: seats, and insurance not taken counts as declined, so only these are written.
FILE_ACTIONS: tuple[str, ...] = ("insurance", *PLAYER_ACTIONS)


class ScenarioError(ValueError):
    """The file cannot be read as a scenario (the command exits with status 2)."""


@dataclass(frozen=True)
class SeatSpec:
    seat: int
    stack: int
    bet: int


@dataclass(frozen=True)
class ScenarioAction:
    """One entry of the file's ``actions`` list."""

    seat: int
    action: str
    hand: int = 0
    amount: int | None = None


@dataclass(frozen=True)
class Scenario:
    name: str
    rules: RuleSet
    seats: tuple[SeatSpec, ...]
    shoe: tuple[str, ...]
    actions: tuple[ScenarioAction, ...]
    expect: dict[str, Any] | None = field(default=None, compare=False)


def _whole(value: Any, what: str, minimum: int = 0) -> int:
    if type(value) is not int or value < minimum:
        raise ScenarioError(f"{what} must be a whole number of at least {minimum}, not {value!r}")
    return value


def load_scenario(source: str | Path | dict[str, Any]) -> Scenario:
    """Read a scenario from a path, from JSON text, or from an already parsed dict."""
    if isinstance(source, dict):
        data = source
    else:
        if isinstance(source, Path) or source.lstrip()[:1] not in ("{", "["):
            try:
                text = Path(source).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as error:
                raise ScenarioError(f"cannot read {source}: {error}") from error
        else:
            text = source
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ScenarioError(f"not valid JSON: {error}") from error
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a JSON object")

    profile = data.get("profile")
    if profile not in PROFILES:
        raise ScenarioError(f"unknown profile {profile!r}: use one of {', '.join(PROFILES)}")
    rules = PROFILES[profile]

    raw_seats = data.get("seats")
    if not isinstance(raw_seats, list) or not raw_seats:
        raise ScenarioError("'seats' must be a non-empty list")
    seats = []
    for raw in raw_seats:
        if not isinstance(raw, dict):
            raise ScenarioError(f"a seat is an object with seat, stack and bet, not {raw!r}")
        number = _whole(raw.get("seat"), "'seat'", 1)
        if number > rules.seats:
            raise ScenarioError(f"seat {number} does not exist: {profile} tables have {rules.seats} seat(s)")
        stack = _whole(raw.get("stack"), f"seat {number}'s 'stack'")
        bet = _whole(raw.get("bet", 0), f"seat {number}'s 'bet'")
        if bet > stack:
            raise ScenarioError(f"seat {number} bets {bet} but holds only {stack}")
        seats.append(SeatSpec(number, stack, bet))
    numbers = [seat.seat for seat in seats]
    if len(set(numbers)) != len(numbers):
        raise ScenarioError("a seat is listed twice")

    raw_shoe = data.get("shoe")
    if not isinstance(raw_shoe, list):
        raise ScenarioError("'shoe' must be a list of cards")
    for card in raw_shoe:
        if not isinstance(card, str) or card not in VALUE:
            raise ScenarioError(f"{card!r} is not a card: a rank from A23456789TJQK and a suit from SHDC, e.g. 'AH'")
    for card, count in Counter(raw_shoe).items():
        if count > rules.decks:
            raise ScenarioError(
                f"{card} appears {count} times, but a {rules.decks}-deck shoe holds only {rules.decks}"
            )

    raw_actions = data.get("actions", [])
    if not isinstance(raw_actions, list):
        raise ScenarioError("'actions' must be a list")
    actions = []
    for index, raw in enumerate(raw_actions):
        if not isinstance(raw, dict) or raw.get("action") not in FILE_ACTIONS:
            raise ScenarioError(
                f"action {index}: expected an object with 'action' one of {', '.join(FILE_ACTIONS)}"
            )
        amount = raw.get("amount")
        if amount is not None and type(amount) is not int:
            raise ScenarioError(f"action {index}: 'amount' must be a whole number of chips")
        actions.append(ScenarioAction(
            seat=_whole(raw.get("seat"), f"action {index}: 'seat'", 1),
            action=raw["action"],
            hand=_whole(raw.get("hand", 0), f"action {index}: 'hand'"),
            amount=amount,
        ))

    expect = data.get("expect")
    return Scenario(
        name=str(data.get("name", "")),
        rules=rules,
        seats=tuple(sorted(seats, key=lambda seat: seat.seat)),
        shoe=tuple(raw_shoe),
        actions=tuple(actions),
        expect=expect if isinstance(expect, dict) else None,
    )


def _error(index: int, error: IllegalAction) -> dict[str, Any]:
    return {"error": {"action": index, "code": str(error.code), "message": error.message}}


def _apply(round_: GameRound, action: ScenarioAction) -> None:
    # FORMAT.md: a hand or amount an action does not take is ignored, not refused.
    spec = BY_NAME[action.action]
    round_.act(
        action.action,
        seat=action.seat,
        hand=action.hand if spec.takes_hand else 0,
        amount=None if spec.amount is AmountKind.NONE else action.amount,
    )


def run_scenario(scenario: Scenario) -> dict[str, Any]:
    """Play the scenario's round; return FORMAT.md's output (the result or the error)."""
    round_ = GameRound.new(
        rules=scenario.rules,
        shoe=CardShoe.stacked(scenario.shoe, scenario.rules.decks),
        seats={seat.seat: seat.stack for seat in scenario.seats},
    )
    try:
        for seat in scenario.seats:
            if seat.bet:
                round_.bet(seat.seat, seat.bet)
            else:
                round_.pass_bet(seat.seat)
    except IllegalAction as error:
        return _error(0, error)

    for index, action in enumerate(scenario.actions):
        try:
            # FORMAT.md: insurance not taken when it is offered counts as declined.
            if round_.phase is Phase.INSURANCE and action.action != "insurance":
                round_.close_insurance(actor="player")
            _apply(round_, action)
        except IllegalAction as error:
            return _error(index, error)

    end = len(scenario.actions)
    try:
        if round_.phase is Phase.INSURANCE:
            round_.close_insurance(actor="player")
    except IllegalAction as error:
        return _error(end, error)
    if round_.phase is not Phase.SETTLED:
        seat, hand = round_.to_act() or (0, 0)
        return _error(end, IllegalAction(
            ErrorCode.INCOMPLETE,
            f"The actions ran out while seat {seat} still had to decide on hand {hand}.",
        ))
    return round_.result().to_json()
