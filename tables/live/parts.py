"""What a frame brings of a piece that changed: the piece as sent, and only its parts that changed.

A seat is its shell (theirs: "mine", Leave) around parts with ids of the
form "<piece>-<part>" (its head, its play, its stack). A play usually
changes one part of one seat, so a frame brings that part, not the seat
(tables.live.pieces). Every viewer who had the same HTML gets the same
parts: each pair of HTMLs is worked out once.
"""

from __future__ import annotations

import functools
import re

from django.utils.safestring import SafeString


# A part of a piece a frame may bring alone: an element with an id of the form "<piece>-<part>".
# Found by its id (a literal the regex engine scans for), then the tag it stands in.
_PART_ID = re.compile(r' id="([a-z]+-\d+-\w+)"')
_TAG = re.compile(r"<(\w+)[ >]")
# Pieces split into parts, and what brings a piece from one HTML to the next: kept for the
# most recently used (a busy server's tables make a few new seats a second each; the HTMLs are
# shared by every viewer who was sent them, their hashes kept).
MAX_KEPT = 4096


@functools.lru_cache(maxsize=MAX_KEPT)
def changed_parts(previous: str, html: str) -> str:
    """What brings a viewer from `previous` to `html`: only the parts that changed, if all else is the same.

    A seat is its shell (theirs: "mine", Leave) around a head, a stack and its
    play (bet, hands, status), each with an id. A play usually changes one part
    of one seat, so a frame brings that part, not the seat; anything else that
    changed brings the whole piece.
    """
    old_frame, old_parts = _split(previous)
    new_frame, new_parts = _split(html)
    if not new_parts or old_frame != new_frame or old_parts.keys() != new_parts.keys():
        return html
    return "".join(part for key, part in new_parts.items() if old_parts[key] != part)


@functools.lru_cache(maxsize=MAX_KEPT)
def _split(html: str) -> tuple[str, dict[str, str]]:
    """A piece's HTML with each part cut out (left as its id), and its parts by id (not to be changed: shared)."""
    parts: dict[str, str] = {}
    frame: list[str] = []
    position = cursor = 0  # what is in `frame` so far; where to look for the next part
    while (match := _PART_ID.search(html, cursor)) is not None:
        cursor = match.end()
        start = html.rfind("<", position, match.start())
        tag = _TAG.match(html, start) if start >= 0 else None
        if tag is None or html.find(">", start, match.start()) >= 0:
            continue  # not the id of the element it stands in: look further on
        end = _closing(html, tag.group(1), match.end())
        if end < 0:
            break  # not balanced: never cut
        part_id = match.group(1)
        frame.append(html[position:start])
        frame.append(f"<!--{part_id}-->")
        parts[part_id] = html[start:end]
        position = cursor = end
    frame.append(html[position:])
    return "".join(frame), parts


# The opening of each kind of element a part may be (a handful): made once, not looked up in re's cache each time.
_OPENINGS: dict[str, re.Pattern[str]] = {}


def _closing(html: str, tag: str, start: int) -> int:
    """Where the element of `tag` opened just before `start` ends (after its closing tag), or -1."""
    opening = _OPENINGS.get(tag)
    if opening is None:
        opening = _OPENINGS[tag] = re.compile(rf"<{tag}[\s>]")
    closing = f"</{tag}>"
    depth, position = 1, start
    while depth:
        close = html.find(closing, position)
        if close < 0:
            return -1
        depth += len(opening.findall(html, position, close)) - 1
        position = close + len(closing)
    return position


def compact(html: str) -> str:
    """A piece as sent: the template's indentation folded to single spaces (a third of a seat's bytes).

    Every run of whitespace becomes one space, none at the ends: what a
    regular expression's sub of `\\s+` and a strip give, four times faster.
    (str's own split: a Markup's would make every word a Markup. SafeString itself, not
    mark_safe: the same for a str, without its check for lazy text on every piece.)
    """
    return SafeString(" ".join(str.split(html)))
