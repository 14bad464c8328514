"""The shoe: a deterministic card order from a 256-bit seed.

Algorithm (docs/engine.md has the full text and a worked example):

1. The canonical shoe is ``decks`` copies of ``DECK`` (suits S, H, D, C; ranks
   A..K within a suit), positions ``0 .. 52*decks - 1``.
2. A byte stream is the concatenation of ``HMAC-SHA256(key=seed,
   msg=uint64_be(k))`` for ``k = 0, 1, 2, ...``.
3. ``randbelow(n)``: 0 when ``n == 1`` (no bytes used); otherwise take
   ``b = bit_length(n - 1)`` bits: read ``ceil(b / 8)`` bytes big-endian, keep
   the low ``b`` bits, and reject and read again while the value is ``>= n``
   (rejection sampling: exactly uniform, no modulo bias).
4. Forward Fisher-Yates: for ``i = 0, 1, ..., size - 1`` swap position ``i``
   with ``i + randbelow(size - i)``; the card dealt ``i``-th is the one that
   lands on position ``i``. Step ``i`` fixes position ``i`` for good, so the
   shoe draws lazily: only as many steps as cards dealt.
5. Should a seeded shoe run out mid-round (RULES.md, rocket-academy), the
   cards not on the table are taken in canonical order and shuffled the same
   way with the key ``HMAC-SHA256(seed, b"reshuffle" + uint64_be(r))`` for the
   ``r``-th such reshuffle (r = 1, 2, ...).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import Counter
from collections.abc import Iterable
from typing import Any

from .cards import DECK, VALUE
from .errors import ErrorCode, IllegalAction
from .rules import RuleSet

SEED_BYTES = 32
# Lazy states of seeded shoes, by (seed, reshuffles, position): see CardShoe._remember.
_RESUMABLE: dict[tuple, tuple] = {}
_RESUMABLE_SHOES = 512
_RESUMABLE_LOCK = threading.Lock()


def hmac_block(key: bytes, counter: int) -> bytes:
    """Block ``counter`` of the byte stream keyed by ``key``."""
    return hmac.digest(key, counter.to_bytes(8, "big"), "sha256")


def derive_seed(seed: bytes, label: bytes, index: int = 0) -> bytes:
    """A 256-bit sub-seed: ``HMAC-SHA256(seed, label + uint64_be(index))``."""
    return hmac.digest(seed, label + index.to_bytes(8, "big"), "sha256")


def canonical_shoe(decks: int) -> tuple[str, ...]:
    return DECK * decks


class _Stream:
    """The HMAC-SHA256 byte stream and uniform integers drawn from it."""

    __slots__ = ("key", "counter", "buffer", "offset")

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.counter = 0
        self.buffer = b""
        self.offset = 0

    def copy(self) -> _Stream:
        other = _Stream.__new__(_Stream)
        other.key, other.counter, other.buffer, other.offset = self.key, self.counter, self.buffer, self.offset
        return other

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n): rejection sampling over the low bits of big-endian bytes."""
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        count = (bits + 7) >> 3
        mask = (1 << bits) - 1
        buffer = self.buffer
        offset = self.offset
        while True:
            end = offset + count
            if end > len(buffer):
                buffer = buffer[offset:] + hmac_block(self.key, self.counter)
                self.counter += 1
                offset = 0
                end = count
            if count == 1:
                value = buffer[offset] & mask
            elif count == 2:
                value = ((buffer[offset] << 8) | buffer[offset + 1]) & mask
            else:
                value = int.from_bytes(buffer[offset:end], "big") & mask
            offset = end
            if value < n:
                self.buffer = buffer
                self.offset = offset
                return value


class CardShoe:
    """Cards to deal, from a seed (``from_seed``/``new``) or a fixed list (``stacked``)."""

    __slots__ = (
        "seed", "decks", "is_stacked", "_cards", "_size", "_position", "_displaced",
        "_stream", "reshuffles", "dealt",
    )

    def __init__(self, *, seed: bytes | None, decks: int, cards: tuple[str, ...], stacked: bool) -> None:
        self.seed = seed
        self.decks = decks
        self.is_stacked = stacked
        self._cards = cards
        self._size = len(cards)
        self._position = 0
        self._displaced: dict[int, int] = {}
        self._stream = _Stream(seed) if seed is not None else None
        self.reshuffles = 0
        #: Cards dealt since the shoe was built, across mid-round reshuffles.
        self.dealt = 0

    # -- construction ---------------------------------------------------------------

    @classmethod
    def from_seed(cls, seed: bytes, decks: int) -> CardShoe:
        if not isinstance(seed, bytes) or len(seed) != SEED_BYTES:
            raise ValueError(f"a shoe seed is {SEED_BYTES} bytes")
        if not isinstance(decks, int) or decks < 1:
            raise ValueError("a shoe holds at least one deck")
        return cls(seed=seed, decks=decks, cards=canonical_shoe(decks), stacked=False)

    @classmethod
    def new(cls, decks: int) -> CardShoe:
        """A shoe from a fresh secret seed (production)."""
        return cls.from_seed(secrets.token_bytes(SEED_BYTES), decks)

    @classmethod
    def stacked(cls, cards: Iterable[str], decks: int = 1) -> CardShoe:
        """A rigged shoe dealing exactly ``cards`` in order; running out is ``shoe_exhausted``."""
        cards = tuple(cards)
        for card in cards:
            if card not in VALUE:
                raise ValueError(f"{card!r} is not a card")
        return cls(seed=None, decks=decks, cards=cards, stacked=True)

    def copy(self) -> CardShoe:
        """A shoe of its own that deals on exactly as this one would."""
        other = CardShoe.__new__(CardShoe)
        for name in CardShoe.__slots__:
            setattr(other, name, getattr(self, name))
        other._displaced = dict(self._displaced)
        other._stream = self._stream.copy() if self._stream is not None else None
        return other

    # -- dealing --------------------------------------------------------------------

    @property
    def cards_left(self) -> int:
        return self._size - self._position

    @property
    def commitment(self) -> str:
        """``sha256(seed)`` in hex: published before the round, checked after it."""
        if self.seed is None:
            return hashlib.sha256(",".join(self._cards).encode()).hexdigest()
        return hashlib.sha256(self.seed).hexdigest()

    def draw(self) -> str:
        position = self._position
        size = self._size
        if position >= size:
            raise IllegalAction(ErrorCode.SHOE_EXHAUSTED, "The shoe has run out of cards.")
        self._position = position + 1
        self.dealt += 1
        if self.is_stacked:
            return self._cards[position]
        swap = position + self._stream.randbelow(size - position)
        displaced = self._displaced
        here = displaced.pop(position, position)
        if swap != position:
            here, displaced[swap] = displaced.get(swap, swap), here
        return self._cards[here]

    def order(self) -> list[str]:
        """The whole order of the current shuffle, eagerly (for checks; deals nothing)."""
        if self.is_stacked:
            return list(self._cards)
        stream = _Stream(self._segment_key())
        cards = list(self._cards)
        size = len(cards)
        for i in range(size):
            j = i + stream.randbelow(size - i)
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    def _segment_key(self) -> bytes:
        assert self.seed is not None
        if self.reshuffles == 0:
            return self.seed
        return derive_seed(self.seed, b"reshuffle", self.reshuffles)

    @property
    def kept_out(self) -> tuple[str, ...]:
        """The cards left out of the last mid-round reshuffle (those on the table then); () before any.

        They are the canonical shoe minus the cards reshuffled, in canonical order.
        """
        if not self.reshuffles or self.is_stacked:
            return ()
        return tuple(_canonical_without(self.decks, self._cards))

    def reshuffle_remaining(self, on_table: Iterable[str]) -> None:
        """Shuffle every card not on the table into a new order and deal on (RULES.md)."""
        if self.is_stacked:
            raise IllegalAction(ErrorCode.SHOE_EXHAUSTED, "The shoe has run out of cards.")
        cards = _canonical_without(self.decks, on_table)
        if not cards:
            raise IllegalAction(ErrorCode.SHOE_EXHAUSTED, "Every card of the shoe is on the table.")
        self.reshuffles += 1
        self._cards = tuple(cards)
        self._size = len(cards)
        self._position = 0
        self._displaced = {}
        self._stream = _Stream(self._segment_key())

    def needs_reshuffle(self, rules: RuleSet) -> bool:
        """Whether the next round must start from a new shoe (RULES.md "shuffle")."""
        if self.is_stacked:
            return False
        if self.reshuffles:
            return True
        cut = rules.cut_card(self.decks * 52)
        if cut is None:
            return self.dealt > 0
        return self.dealt >= cut

    # -- JSON -----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        self._remember()
        data: dict[str, Any] = {
            "seed": None if self.seed is None else self.seed.hex(),
            "decks": self.decks,
            "position": self._position,
            "dealt": self.dealt,
            "reshuffles": self.reshuffles,
        }
        if self.is_stacked or self.reshuffles:
            data["cards"] = list(self._cards)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CardShoe:
        decks = data["decks"]
        if data["seed"] is None:
            shoe = cls.stacked(data["cards"], decks)
            shoe._position = data["position"]
        else:
            shoe = cls.from_seed(bytes.fromhex(data["seed"]), decks)
            if data["reshuffles"]:
                shoe.reshuffles = data["reshuffles"]
                shoe._cards = tuple(data["cards"])
                shoe._size = len(shoe._cards)
                shoe._stream = _Stream(shoe._segment_key())
            if not shoe._resume(data["position"]):
                # Replaying the draws rebuilds the lazy state exactly.
                for _ in range(data["position"]):
                    shoe.draw()
        shoe.dealt = data["dealt"]
        shoe._remember()
        return shoe

    # A shoe is stored as its seed and position and rebuilt by replaying its
    # draws: one HMAC step per card dealt, hundreds deep into an 8-deck shoe,
    # for every play that loads the round. A process keeps the lazy state of
    # the shoes it last stored or loaded (the same state the replay rebuilds),
    # so loading the round it just saved costs a copy, not a replay.

    def _state_key(self) -> tuple:
        return (self.seed, self.reshuffles, self._position)

    def _remember(self) -> None:
        if self.is_stacked:
            return
        stream = self._stream
        state = (self._displaced.copy(), stream.counter, stream.buffer, stream.offset)  # never changed once stored
        with _RESUMABLE_LOCK:  # rounds load and store on several threads
            _RESUMABLE[self._state_key()] = state
            while len(_RESUMABLE) > _RESUMABLE_SHOES:
                del _RESUMABLE[next(iter(_RESUMABLE))]  # the oldest first

    def _resume(self, position: int) -> bool:
        """Take the lazy state at `position` if this process holds it; False to replay instead."""
        self._position = position
        with _RESUMABLE_LOCK:
            state = _RESUMABLE.get(self._state_key())
        if state is None:
            self._position = 0
            return False
        displaced, counter, buffer, offset = state
        self._displaced = dict(displaced)
        self._stream.counter, self._stream.buffer, self._stream.offset = counter, buffer, offset
        return True

    def __repr__(self) -> str:
        kind = "stacked" if self.is_stacked else f"seeded {self.commitment[:12]}"
        return f"CardShoe({kind}, decks={self.decks}, dealt={self.dealt}, left={self.cards_left})"


def _canonical_without(decks: int, cards: Iterable[str]) -> list[str]:
    """The canonical shoe of `decks` less `cards` (as many of each as given), in canonical order."""
    left_out = Counter(cards)
    rest: list[str] = []
    for card in canonical_shoe(decks):
        if left_out[card]:
            left_out[card] -= 1
        else:
            rest.append(card)
    return rest
