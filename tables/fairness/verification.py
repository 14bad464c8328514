"""Shoe verification: rebuild a retired shoe from its revealed seed and replay its rounds.

A shoe publishes sha256(seed) before its first card and reveals the seed when
it is retired (DESIGN.md "Hand history"). Anyone holding the seed can then
check three things, and this module does all three:

1. the seed is the one committed to: sha256(seed) == commitment;
2. the cards: the engine rebuilds the shoe from the seed (docs/engine.md, the
   shoe algorithm) and deals every card of every round itself, while only the
   recorded *decisions* (bets, insurance, hit, stand, double, split,
   surrender, and the timer's defaults) are replayed from the record;
3. the chips: the rebuilt rounds' events, payouts included, must equal the
   recorded ones exactly, and each seat's final stack its history row.

The rebuilt shoe is one object carried from round to round, as the table
carried it, so a cut-card shoe is checked across all the rounds it dealt.
Nothing here writes to the database.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from tables.engine import CardShoe, Event, GameRound, IllegalAction, Phase, RuleSet
from tables.engine.replay import DECISIONS, apply_recorded
from tables.models import Round, RoundSeat, Shoe


@dataclass
class Verification:
    """What checking one shoe found. `ok` only when it was checked and nothing is wrong."""

    shoe_id: int
    table: str
    decks: int
    commitment: str
    retired: bool
    #: The revealed seed (hex); None while the shoe is in use, so it can never leak.
    seed: str | None = None
    rounds_checked: int = 0
    problems: list[str] = field(default_factory=list)
    #: The order of the shoe's first shuffle, rebuilt from the seed (empty when not rebuilt).
    card_order: list[str] = field(default_factory=list)
    #: Cards the rounds dealt from that order (a mid-round run-out deals on from a reshuffle).
    cards_dealt: int = 0
    reshuffles: int = 0

    @property
    def ok(self) -> bool:
        return self.retired and not self.problems

    @property
    def verdict(self) -> str:
        if not self.retired:
            return "Not checked: the shoe is still in use and its seed is still secret."
        if self.problems:
            return f"Failed: {len(self.problems)} problem(s) found."
        return (
            f"Verified: the seed matches the commitment and rebuilds every card and payout "
            f"of {self.rounds_checked} round(s)."
        )

    def report(self) -> str:
        """The result in plain words, one fact a line (the command prints this)."""
        lines = [
            f"Shoe #{self.shoe_id} at {self.table}, {self.decks} deck(s)",
            f"Commitment: {self.commitment}",
        ]
        if self.seed is not None:
            lines.append(f"Seed: {self.seed}")
        lines.append(f"Rounds checked: {self.rounds_checked}")
        lines.append(self.verdict)
        lines += [f"- {problem}" for problem in self.problems]
        return "\n".join(lines)


def verify_shoe(shoe: Shoe) -> Verification:
    """Check a shoe against its commitment and every round dealt from it."""
    result = Verification(
        shoe_id=shoe.pk,
        table=str(shoe.table),
        decks=shoe.decks,
        commitment=shoe.commitment,
        retired=shoe.retired_at is not None,
    )
    if not result.retired:
        result.problems.append("The shoe is still in use: its seed is still secret, so it cannot be checked yet.")
        return result
    result.seed = shoe.seed
    seed = _seed_bytes(shoe.seed)
    if seed is None:
        result.problems.append("The shoe has no valid seed (64 hex digits): there is nothing to rebuild it from.")
        return result
    if hashlib.sha256(seed).hexdigest() != shoe.commitment.lower():
        result.problems.append(
            "The revealed seed does not match the commitment: sha256(seed) is "
            f"{hashlib.sha256(seed).hexdigest()}, the commitment published before play is {shoe.commitment}."
        )
    engine_shoe = CardShoe.from_seed(seed, shoe.decks)
    result.card_order = CardShoe.from_seed(seed, shoe.decks).order()
    rows = list(shoe.rounds.order_by("id"))
    stacks_after: dict[int, dict[int, int]] = {}
    for round_id, seat, stack_after in RoundSeat.objects.filter(round__shoe=shoe).values_list(
        "round_id", "seat", "stack_after"
    ):
        stacks_after.setdefault(round_id, {})[seat] = stack_after
    for row in rows:
        result.problems += _check_round(row, engine_shoe, shoe, stacks_after.get(row.pk, {}))
        result.rounds_checked += 1
    result.reshuffles = engine_shoe.reshuffles
    result.cards_dealt = engine_shoe.dealt if not engine_shoe.reshuffles else len(result.card_order)
    return result


def _seed_bytes(text: str) -> bytes | None:
    try:
        seed = bytes.fromhex(text)
    except ValueError:
        return None
    return seed if len(seed) == 32 else None


def _check_round(row: Round, engine_shoe: CardShoe, shoe: Shoe, stacks_after: dict[int, int]) -> list[str]:
    """Replay one round's decisions on the rebuilt shoe; the problems found, if any."""
    name = f"Round #{row.pk} ({row.table} round {row.number})"
    state = row.state
    try:
        rules = RuleSet.from_json(state["rules"])
        recorded: list[dict[str, Any]] = list(state["events"])
        stacks = {seat["seat"]: seat["stack_before"] for seat in state["seats"]}
        engine = GameRound.new(
            rules=rules, shoe=engine_shoe, seats=stacks, min_bet=state["min_bet"], max_bet=state["max_bet"]
        )
    except (KeyError, TypeError, ValueError) as error:
        return [f"{name}: its record cannot be read ({error})."]
    problems: list[str] = []
    if (state.get("shoe") or {}).get("seed") not in (None, shoe.seed):
        problems.append(f"{name}: it was recorded with another shoe's seed.")
    if rules.slug != row.profile:
        problems.append(f"{name}: it was recorded under the {rules.slug} rules at a {row.profile} table.")

    while len(engine.events) < len(recorded):
        index = len(engine.events)
        decision = recorded[index]
        if decision.get("kind") not in DECISIONS:
            return problems + [
                f"{name}, event {index}: the record has {_describe(decision)} where the rebuilt round "
                "waits for a decision."
            ]
        try:
            apply_recorded(engine, Event.from_json(decision))
        except IllegalAction as error:
            refused = f"the recorded {_describe(decision)} is not legal here: {error.message}"
            return problems + [f"{name}, event {index}: {refused}"]
        except (KeyError, TypeError, ValueError) as error:
            return problems + [f"{name}, event {index}: the recorded {_describe(decision)} cannot be read ({error})."]
        difference = _first_difference(recorded, engine.events, upto=len(engine.events))
        if difference is not None:
            return problems + [f"{name}, {difference}"]
    difference = _first_difference(recorded, engine.events, upto=max(len(recorded), len(engine.events)))
    if difference is not None:
        return problems + [f"{name}, {difference}"]

    if engine.phase is not Phase.SETTLED:
        return problems  # unfinished (its events all match so far): no results to compare
    final = {seat.get("seat"): seat.get("stack") for seat in state["seats"]}
    for number, place in engine.seats.items():
        if final.get(number) != place.stack:
            problems.append(
                f"{name}: seat {number} ends with {place.stack} chips in the rebuilt round "
                f"but the record says {final.get(number)}."
            )
        recorded_stack = stacks_after.get(number)
        if place.bet and recorded_stack is None:
            problems.append(f"{name}: seat {number} played but has no history row.")
        elif recorded_stack is not None and recorded_stack != place.stack:
            problems.append(
                f"{name}: seat {number} ends with {place.stack} chips in the rebuilt round "
                f"but its history row says {recorded_stack}."
            )
    for number in stacks_after.keys() - engine.seats.keys():
        problems.append(f"{name}: a history row for seat {number}, which was not in the round.")
    return problems


def _first_difference(recorded: list[dict[str, Any]], rebuilt: list[Event], *, upto: int) -> str | None:
    for index in range(upto):
        mine = rebuilt[index].to_json() if index < len(rebuilt) else None
        theirs = recorded[index] if index < len(recorded) else None
        if mine == theirs:
            continue
        if theirs is None:
            return f"event {index}: the record ends here, but the rebuilt round goes on with {_describe(mine)}."
        if mine is None:
            return f"event {index}: the record has {_describe(theirs)}, which the rebuilt round never reaches."
        return f"event {index}: the record has {_describe(theirs)}, the rebuilt round has {_describe(mine)}."
    return None


def _describe(event: dict[str, Any] | None) -> str:
    """An event in a few plain words: "deal_card KS to seat 1, hand 1 (face down)"."""
    if not isinstance(event, dict):
        return "an unreadable event"
    words = [str(event.get("kind"))]
    if event.get("card"):
        words.append(str(event["card"]))
    if event.get("kind") == "deal_card":
        words.append("to the dealer" if event.get("seat") is None else f"to seat {event['seat']}")
    elif event.get("seat") is not None:
        words.append(f"by seat {event['seat']}" if event.get("kind") in DECISIONS else f"for seat {event['seat']}")
    text = " ".join(words)
    if event.get("seat") is not None and isinstance(event.get("hand"), int):
        text += f", hand {event['hand'] + 1}"
    if event.get("face_up") is False:
        text += " (face down)"
    if event.get("outcome"):
        text += f", {event['outcome']}"
    if event.get("chips"):
        text += f", {event['chips']:+} chips" if isinstance(event["chips"], int) else f", {event['chips']!r} chips"
    if event.get("actor") not in (None, "player", "house"):
        text += f" (by the {event['actor']})"
    return text
