"""The log of a round in words: one line per event a player would notice, never a hidden card."""

from __future__ import annotations

from dataclasses import dataclass

from tables.engine import ACTIONS, Event, EventKind, GameRound
from tables.live.cards import CardView


def display_names(names: dict[int, str]) -> dict[int, str]:
    """Each seat's name as the log writes it: a player holding two seats is told apart by seat ("alice (seat 2)")."""
    counts: dict[str, int] = {}
    for name in names.values():
        counts[name] = counts.get(name, 0) + 1
    return {seat: f"{name} (seat {seat})" if counts[name] > 1 else name for seat, name in names.items()}


def log_lines(engine: GameRound, names: dict[int, str]) -> list[str]:
    """The round in words; `names` are the round's players by seat, kept after they leave."""
    return list(narrate_round(engine, names).lines)


@dataclass(frozen=True)
class Narration:
    """A round's log as far as its first events: the lines, and where the telling stands to go on from."""

    events: tuple[Event, ...]
    names: dict[int, str]
    lines: tuple[str, ...]
    dealer_cards: int
    awaits_card: bool  # the last line was a hit, double or split: its card joins it


def narrate_round(engine: GameRound, names: dict[int, str], before: Narration | None = None) -> Narration:
    """The round in words (as `log_lines`), going on from `before` when its events begin this round's.

    A round only ever adds events, so the log of a later version of it is
    the earlier log and the new events' lines: a play need not tell the whole round again.
    """
    events = engine.events
    lines: list[str] = []
    dealer_cards, awaits_card, start = 0, False, 0
    if before is not None and before.names == names and tuple(events[: len(before.events)]) == before.events:
        lines, start = list(before.lines), len(before.events)
        dealer_cards, awaits_card = before.dealer_cards, before.awaits_card
    shown = display_names(names)
    for event in events[start:]:
        if event.kind is EventKind.DEAL_CARD:
            if event.seat is None:
                dealer_cards += 1
                if dealer_cards == 1:
                    lines.append(f"Dealer shows {CardView(event.card).label}.")
                    continue
            elif awaits_card:
                lines[-1] = f"{lines[-1][:-1]}: {CardView(event.card).label}."
                awaits_card = False
                continue
        line = narrate(event, shown)
        if line:
            lines.append(line)
            awaits_card = event.kind in (EventKind.HIT, EventKind.DOUBLE, EventKind.SPLIT)
    return Narration(tuple(events), dict(names), tuple(lines), dealer_cards, awaits_card)


def _who(seat: int | None, names: dict[int, str]) -> str:
    return names.get(seat, f"Seat {seat}") if seat is not None else "Dealer"


def narrate(event: Event, names: dict[int, str]) -> str | None:
    """One event in words, or None for events the log leaves out. Never names a hidden card."""
    who = _who(event.seat, names)
    by_timer = " (time ran out)" if event.actor == "timer" else ""
    kind = event.kind
    if kind is EventKind.BET:
        return f"{who} bets {-event.chips}."
    if kind is EventKind.PASS:
        return f"{who} passes."
    if kind is EventKind.LEFT_OUT:
        return f"{who} missed the betting window."
    if kind is EventKind.DEAL_CARD:
        if event.seat is None:
            return f"Dealer {'draws' if event.face_up else 'takes the hole card'}{'' if not event.face_up else ' ' + CardView(event.card).label}."
        return None
    if kind is EventKind.INSURANCE_TAKEN:
        return f"{who} takes insurance for {-event.chips}."
    if kind is EventKind.INSURANCE_DECLINED:
        return f"{who} declines insurance{by_timer}."
    if kind is EventKind.PEEK:
        return "Dealer checks for blackjack: " + ("blackjack!" if event.outcome == "blackjack" else "no blackjack.")
    if kind in (EventKind.HIT, EventKind.STAND, EventKind.SPLIT, EventKind.SURRENDER):
        verb = {EventKind.HIT: "hits", EventKind.STAND: "stands", EventKind.SPLIT: "splits", EventKind.SURRENDER: "surrenders"}[kind]
        return f"{who} {verb}{by_timer}."
    if kind is EventKind.DOUBLE:
        return f"{who} doubles for {-event.chips}."
    if kind is EventKind.HOLE_CARD_REVEALED:
        return f"Dealer turns the hole card: {CardView(event.card).label}."
    if kind is EventKind.SHOE_RESHUFFLED:
        return "The deck ran out: the cards not on the table are reshuffled."
    if kind is EventKind.INSURANCE_SETTLED:
        return f"{who}'s insurance {'pays ' + str(event.chips) if event.chips else 'loses'}."
    if kind is EventKind.SETTLE:
        outcome = event.outcome or ""
        paid = f", {event.chips} back" if event.chips else ""
        return f"{who}, hand {event.hand + 1}: {outcome}{paid}."
    if kind is EventKind.ROUND_SETTLED:
        return "Round over."
    if (action := _ACTION_OF.get(kind)) is not None:
        # An action with no words of its own yet still shows in the log, by its button's name.
        staked = f" for {-event.chips}" if event.chips < 0 else ""
        return f"{who}: {action.label}{staked}{by_timer}."
    return None


_ACTION_OF = {spec.event: spec for spec in ACTIONS}
