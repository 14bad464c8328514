"""Rounds dealt from stacked shoes, for the engine tests."""

from __future__ import annotations

from tables.engine import PROFILES, GameRound, CardShoe


def rigged(
    profile: str,
    cards: list[str] | str,
    bets: dict[int, int] | None = None,
    stacks: dict[int, int] | None = None,
    **limits: int,
) -> GameRound:
    """A round at ``profile`` dealing exactly ``cards`` (a list or one spaced string),
    with every seat of ``bets`` betting; stacks default to 100 chips."""
    rules = PROFILES[profile]
    if isinstance(cards, str):
        cards = cards.split()
    bets = {1: 10} if bets is None else bets
    stacks = stacks or {seat: 100 for seat in bets}
    round_ = GameRound.new(rules=rules, shoe=CardShoe.stacked(cards, rules.decks), seats=stacks, **limits)
    for seat in sorted(bets):
        if bets[seat]:
            round_.bet(seat, bets[seat])
        else:
            round_.pass_bet(seat)
    return round_


def outcomes(round_: GameRound, seat: int = 1) -> list[str | None]:
    return [hand.outcome for hand in round_.seats[seat].hands]


def kinds(round_: GameRound) -> list[str]:
    return [str(event.kind) for event in round_.events]


def chips_by_seat(round_: GameRound, seat: int) -> int:
    return sum(event.chips for event in round_.events if event.seat == seat)
