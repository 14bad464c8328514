"""A seat as the frames send it: its shell and outline, and the parts a frame may bring alone.

A seat is its shell (theirs: "mine", Leave) around a body of parts with ids
of the form "seat-<n>-<part>" (its head, its play, its stack) and what else
the body shows (a top-up loan; a free seat's forms). A play usually changes
one part of one seat, so a frame brings that part, not the seat
(tables.live.pieces). Each part is rendered on its own
(tables.live.viewer_pieces.seat_body), so what changed is known by comparing
the parts, not by cutting the HTML apart again.
"""

from __future__ import annotations

from django.utils.safestring import SafeString


class SeatPiece(str):
    """A seat's HTML, with its parts (`parts`) and all it shows besides them (`outline`)."""

    outline: tuple[str, str, str]
    parts: tuple[str, ...]

    def __new__(cls, before: str, parts: tuple[str, ...], rest: str, after: str) -> SeatPiece:
        """The seat: its shell's start (`before`), its body's parts then the rest of it, and its shell's end."""
        piece = super().__new__(cls, before + "".join(parts) + rest + after)
        piece.outline = (before, rest, after)
        piece.parts = parts
        return piece


def changed_parts(previous: str, html: str) -> str:
    """What brings a viewer from `previous` to `html`: only the parts that changed, if all else is the same.

    A seat whose shell or outline changed (it changed hands, its player is
    leaving, its loan) is brought whole, and so is any other piece.
    """
    parts = getattr(html, "parts", None)
    if not parts or getattr(previous, "outline", None) != html.outline or len(previous.parts) != len(parts):
        return html
    return "".join([part for part, old in zip(parts, previous.parts) if part is not old and part != old])


def compact(html: str) -> str:
    """A piece as sent: the template's indentation folded to single spaces (a third of a seat's bytes).

    Every run of whitespace becomes one space, none at the ends: what a
    regular expression's sub of `\\s+` and a strip give, four times faster.
    (str's own split: a Markup's would make every word a Markup. SafeString itself, not
    mark_safe: the same for a str, without its check for lazy text on every piece.)
    """
    return SafeString(" ".join(str.split(html)))
