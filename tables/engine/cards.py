"""Cards: two-character strings such as ``"AH"`` or ``"TS"``.

A card is a rank (``A 2 3 4 5 6 7 8 9 T J Q K``) followed by a suit
(``S H D C``). Strings keep events, JSON and logs readable, and the lookup
tables below make them as cheap as small integers on the hot path.
"""

from __future__ import annotations

RANKS = "A23456789TJQK"
SUITS = "SHDC"

#: One deck in canonical order: suits S, H, D, C, and within a suit A..K.
#: The shoe algorithm (docs/engine.md) shuffles ``decks`` copies of this list.
DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)

#: Point value of a card with the ace counted as 1 (RULES.md: T/J/Q/K = 10).
VALUE: dict[str, int] = {card: min(RANKS.index(card[0]) + 1, 10) for card in DECK}


def parse_card(text: str) -> str:
    """Return the card named by ``text`` (case-insensitive, ``10`` allowed for ``T``)."""
    if not isinstance(text, str):
        raise ValueError(f"{text!r} is not a card")
    cleaned = text.strip().upper().replace("10", "T")
    if cleaned not in VALUE:
        raise ValueError(f"{text!r} is not a card: use a rank from {RANKS} and a suit from {SUITS}, e.g. 'AH'")
    return cleaned
