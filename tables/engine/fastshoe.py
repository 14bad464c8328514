"""The fast path's shoe: the seeded card order of ``CardShoe``, computed a few cards ahead.

Same algorithm as ``shoe.py`` (docs/engine.md, "The shoe"), bit for bit:
the HMAC-SHA256 byte stream, rejection sampling and forward Fisher-Yates.
Two things make it cheaper per card: HMAC computed from the key's pads with
two plain SHA-256 hashes (``hmac.digest`` pays a setup per call), and past its
first 16 cards the shoe held as a list of ranks swapped in place rather than
``CardShoe``'s dict of displaced positions.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from .cards import DECK, RANKS
from .shoe import CardShoe

#: Canonical card index (mod 52) -> rank index (A=0 .. K=12).
RANK = tuple(RANKS.index(card[0]) for card in DECK)

_INNER = bytes(byte ^ 0x36 for byte in range(256))
_OUTER = bytes(byte ^ 0x5C for byte in range(256))
_SHA256 = hashlib.sha256
_ZEROS = bytes(32)
_EARLY = 16  # steps run with a dict of displaced positions before the shoe turns into a list
#: The stream's first block counters as 8 bytes big-endian (a 416-card shoe needs about 40 blocks).
_COUNTERS = tuple(counter.to_bytes(8, "big") for counter in range(256))


def hmac_pads(key: bytes) -> tuple[bytes, bytes]:
    """HMAC's inner and outer padded keys (RFC 2104) for a key of 32 bytes."""
    padded = key + _ZEROS
    return padded.translate(_INNER), padded.translate(_OUTER)


def hmac_sha256(pads: tuple[bytes, bytes], message: bytes) -> bytes:
    """``hmac.digest(key, message, "sha256")``, from the key's pads: two hashes, no setup."""
    return _SHA256(pads[1] + _SHA256(pads[0] + message).digest()).digest()


class OutOfCards(Exception):
    """The round needs more cards than the shoe holds: ``GameRound`` plays it instead."""


@lru_cache(maxsize=8)
def _ranks(decks: int) -> tuple[int, ...]:
    """The rank of every card of the canonical shoe (``DECK * decks``)."""
    return tuple(RANK[index % 52] for index in range(52 * decks))


@lru_cache(maxsize=8)
def _draws(size: int) -> list[tuple[int, int]]:
    """randbelow(n): the bytes to read and the mask, for every n up to ``size``."""
    return [(0, 0)] + [(((n - 1).bit_length() + 7) >> 3, (1 << (n - 1).bit_length()) - 1)
                       for n in range(1, size + 1)]


class FastShoe:
    """The seeded shoe's card order, dealt exactly as ``CardShoe.draw`` deals it.

    ``cards`` holds the ranks (A=0 .. K=12) shuffled into place so far, a few
    ahead of ``dealt``: each Fisher-Yates step fixes one position for good, so
    running a step early changes nothing. The first steps keep ``CardShoe``'s dict
    of displaced positions (nothing to set up: a fresh shoe every round deals
    a handful of cards); past them the canonical order becomes a list of
    ranks, swapped in place, which is cheaper per card.
    """

    __slots__ = ("seed", "decks", "size", "shuffled", "order", "displaced", "counter", "buffer", "offset",
                 "draws", "ranks", "cards", "dealt", "pads")

    def __init__(self, seed: bytes, decks: int) -> None:
        self.decks = decks
        self.size = 52 * decks
        self.draws = _draws(self.size)
        self.ranks = _ranks(decks)
        self.cards: list[int] = []
        self.reset(seed)

    def reset(self, seed: bytes) -> None:
        """A new shoe from ``seed``, reusing this object (a fresh shoe every round)."""
        self.seed = seed
        self.pads = hmac_pads(seed)
        self.shuffled = self.counter = self.offset = self.dealt = 0
        self.buffer = b""
        # The first few steps keep CardShoe's dict of displaced positions (cheap to start, as a
        # fresh shoe every round wants); past _EARLY cards, the whole order as a list of ranks.
        self.displaced: dict[int, int] = {}
        self.order: list[int] | None = None
        self.cards.clear()

    def shuffle(self, count: int) -> None:
        """Run the next ``count`` Fisher-Yates steps (fewer when the shoe ends)."""
        position = self.shuffled
        size = self.size
        stop = min(position + count, size)
        if position >= stop:
            return
        ranks = self.ranks
        if self.order is None and stop > _EARLY:
            order = self.order = list(ranks)
            for place, card in self.displaced.items():
                order[place] = ranks[card]
        draws, order, displaced, append = self.draws, self.order, self.displaced, self.cards.append
        buffer, offset = self.buffer, self.offset
        length = len(buffer)
        while position < stop:
            left = size - position
            pick = 0
            if left > 1:
                width, mask = draws[left]
                while True:
                    end = offset + width
                    if end > length:
                        counter = self.counter
                        block = _COUNTERS[counter] if counter < 256 else counter.to_bytes(8, "big")
                        buffer = buffer[offset:] + hmac_sha256(self.pads, block)
                        self.counter = counter + 1
                        offset, end, length = 0, width, len(buffer)
                    pick = (((buffer[offset] << 8) | buffer[offset + 1]) if width == 2 else buffer[offset]) & mask
                    offset = end
                    if pick < left:
                        break
            if order is not None:
                if pick:
                    swap = position + pick
                    order[position], order[swap] = order[swap], order[position]
                append(order[position])
            else:
                here = displaced.pop(position, position)
                if pick:
                    swap = position + pick
                    here, displaced[swap] = displaced.get(swap, swap), here
                append(ranks[here])
            position += 1
        self.shuffled = position
        self.buffer = buffer
        self.offset = offset

    def draw(self) -> int:
        """The rank of the next card."""
        dealt = self.dealt
        if dealt >= len(self.cards):
            self.shuffle(2)
            if dealt >= len(self.cards):
                raise OutOfCards
        self.dealt = dealt + 1
        return self.cards[dealt]

    def as_shoe(self) -> CardShoe:
        """The same shoe as a ``CardShoe`` having dealt as many cards (replays the draws)."""
        shoe = CardShoe.from_seed(self.seed, self.decks)
        for _ in range(self.dealt):
            shoe.draw()
        return shoe
