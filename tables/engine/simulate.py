"""Basic strategy through the same GameRound the tables use, for many rounds.

Seeds: the master seed (``--seed``) gives chunk ``i`` the seed
``HMAC-SHA256(master, b"chunk" + uint64_be(i))``; within a chunk the ``k``-th
shoe has the seed ``HMAC-SHA256(chunk_seed, b"shoe" + uint64_be(k))``. Chunks
are the unit of work of the worker processes, so a result depends on the seed
and the number of rounds, never on the number of workers.

Two engines play the same rounds from the same shoes: ``"round"``, the table's
own ``GameRound``, and ``"fast"`` (the default), the tight loop of ``fastsim.py``,
held to ``GameRound`` round by round in ``tests/engine/test_fastsim.py``.
"""

from __future__ import annotations

import hashlib
import math
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context
from typing import Any

from .fastsim import play_rounds_fast
from .round import GameRound
from .rules import PROFILES, RuleSet
from .shoe import CardShoe, derive_seed
from .state import Phase
from .strategy import basic_strategy

#: The initial bet of every seat: even, so 3:2 and half-bet surrender are exact.
BET = 10
#: A stack no round can exhaust.
STACK = 10**9
CHUNK_ROUNDS = 20_000
ENGINES = ("fast", "round")


def parse_seed(text: str | None) -> bytes:
    """64 hex digits are the seed itself; any other text is hashed with SHA-256."""
    if text is None:
        return secrets.token_bytes(32)
    try:
        if len(text) == 64:
            return bytes.fromhex(text)
    except ValueError:
        pass
    return hashlib.sha256(text.encode()).digest()


class _LegalView:
    """``name in view`` asks the round's ``can_act``: only what the strategy looks up."""

    __slots__ = ("round", "seat", "hand")

    def __init__(self, round_: GameRound, seat: int, hand: int) -> None:
        self.round = round_
        self.seat = seat
        self.hand = hand

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.round.can_act(name, seat=self.seat, hand=self.hand)


def play_rounds(rules: RuleSet, rounds: int, seats: int, seed: bytes, fresh_shoe: bool = False) -> tuple[int, int, int]:
    """Play ``rounds`` rounds with every seat on basic strategy.

    Returns (rounds, sum of the round nets, sum of their squares), in chips,
    a round's net being all seats' chips won (positive) or lost together.
    """
    decks = rules.decks
    shoes = 0
    shoe = CardShoe.from_seed(derive_seed(seed, b"shoe", shoes), decks)
    stacks = {number: STACK for number in range(1, seats + 1)}
    numbers = tuple(stacks)
    start = STACK * seats
    total = 0
    squares = 0
    players = Phase.PLAYERS
    for _ in range(rounds):
        if fresh_shoe or shoe.needs_reshuffle(rules):
            shoes += 1
            shoe = CardShoe.from_seed(derive_seed(seed, b"shoe", shoes), decks)
        round_ = GameRound.new(rules=rules, shoe=shoe, seats=stacks)
        for number in numbers:
            round_.bet(number, BET)
        if round_.phase is Phase.INSURANCE:
            round_.close_insurance(actor="player")  # basic strategy never insures
        up_card = round_.dealer.cards[0]
        while round_.phase is players:
            number, index = round_.to_act()  # type: ignore[misc]
            cards = round_.seats[number].hands[index].cards
            action = basic_strategy(rules, cards, up_card, _LegalView(round_, number, index))
            round_.act(action, seat=number, hand=index)
        net = sum(seat.stack for seat in round_.seats.values()) - start
        total += net
        squares += net * net
    return rounds, total, squares


def _run_chunk(args: tuple[str, int, int, bytes, bool, str]) -> tuple[int, int, int]:
    slug, rounds, seats, seed, fresh_shoe, engine = args
    play = play_rounds_fast if engine == "fast" else play_rounds
    return play(PROFILES[slug], rounds, seats, seed, fresh_shoe)


def simulate(
    *,
    profile: str,
    rounds: int,
    seats: int = 1,
    seed: bytes | None = None,
    workers: int = 1,
    fresh_shoe: bool = False,
    progress: Callable[[int], None] | None = None,
    engine: str = "fast",
) -> dict[str, Any]:
    """House edge of basic strategy in % of the initial bet (positive: the house wins)."""
    if engine not in ENGINES:
        raise ValueError(f"the engine is one of {', '.join(ENGINES)}")
    rules = PROFILES[profile]
    if not 1 <= seats <= rules.seats:
        raise ValueError(f"{profile} tables have 1 to {rules.seats} seats")
    if rounds < 1:
        raise ValueError("simulate at least one round")
    master = seed if seed is not None else secrets.token_bytes(32)
    chunks = []
    for index, first in enumerate(range(0, rounds, CHUNK_ROUNDS)):
        size = min(CHUNK_ROUNDS, rounds - first)
        chunks.append((profile, size, seats, derive_seed(master, b"chunk", index), fresh_shoe, engine))

    started = time.perf_counter()
    played = total = squares = 0

    def add(result: tuple[int, int, int]) -> None:
        nonlocal played, total, squares
        played += result[0]
        total += result[1]
        squares += result[2]
        if progress is not None:
            progress(result[0])

    if workers <= 1 or len(chunks) == 1:
        for chunk in chunks:
            add(_run_chunk(chunk))
    else:
        # spawn: safe under Django and on every platform; workers import only the engine.
        with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
            for future in as_completed([pool.submit(_run_chunk, chunk) for chunk in chunks]):
                add(future.result())
    elapsed = time.perf_counter() - started

    stake = BET * seats
    mean = total / played / stake
    variance = max(squares / played / stake**2 - mean * mean, 0.0)
    half_width = 1.96 * math.sqrt(variance / played) if played > 1 else float("inf")
    return {
        "profile": profile,
        "rounds": played,
        "house_edge_pct": round(-100 * mean, 4),
        "ci95_pct": round(100 * half_width, 4),
        "rounds_per_second": round(played / elapsed, 1) if elapsed > 0 else None,
    }
