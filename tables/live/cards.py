"""A playing card as the pages draw it: rank, suit, colour and a name a screen reader says.

Used by the live table, the replay, the shoe verification page and the admin.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {"A": "ace", "T": "ten", "J": "jack", "Q": "queen", "K": "king"}
@dataclass(frozen=True)
class CardView:
    code: str  # "AH"; "??" for a face-down card
    face_up: bool = True

    @property
    def rank(self) -> str:
        return "10" if self.code[0] == "T" else self.code[0]

    @property
    def suit(self) -> str:
        return SUIT_SYMBOLS.get(self.code[1], "")

    @property
    def red(self) -> bool:
        return self.code[1] in "HD"

    @property
    def label(self) -> str:
        if not self.face_up:
            return "face-down card"
        rank = RANK_NAMES.get(self.code[0], self.code[0])
        return f"{rank} of {SUIT_NAMES[self.code[1]]}"

    @property
    def html(self) -> SafeString:
        """The card as the pages draw it. Made here, not by a template include: a table frame draws dozens."""
        return _card_html(self.code, self.face_up)

    @property
    def mini(self) -> SafeString:
        """The card small, in a line of text (the history, game recall): its symbol shown, its name said."""
        return format_html(
            '<span class="mini{}" data-card="{}"><span aria-hidden="true">{}{}</span>'
            '<span class="visually-hidden">{}</span></span>',
            " red" if self.red else "",
            self.code,
            self.rank,
            self.suit,
            self.label,
        )


@cache
def _card_html(code: str, face_up: bool) -> SafeString:
    """A card's HTML, made once per card (53 in all, the face-down one included): frames draw the same cards all day."""
    card = CardView(code, face_up)
    if not face_up:
        return mark_safe('<span class="card back" role="img" aria-label="face-down card" data-card="hidden"></span>')
    return format_html(
        '<span class="card{}" role="img" aria-label="{}" data-card="{}">{}{}</span>',
        " red" if card.red else "",
        card.label,
        card.code,
        card.rank,
        card.suit,
    )
