"""What a load-test bot reads from a table frame, and what it decides to send.

A frame is the HTML the table's websocket pushes (templates/tables/table.html
partials, tables/live/pieces.py): the pieces that changed for this viewer
since its last frame (`#status`, `#dealer`, the `#seat-N` articles with their
`.hand` divs and `data-card` cards, or only a seat's changed part such as
`#seat-N-play`, `#notice`, `#controls` with the viewer's
own buttons) and the `#version` marker. Like a browser, the bot keeps the page
and swaps in each piece a frame brings (`Frame.update`): it reads only what is
on the page, never the database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tables.engine import PROFILES
from tables.engine.strategy import basic_strategy

_VERSION = re.compile(r'id="version" data-version="(\d+)"')
_NOTICE_PIECE = re.compile(r'<div id="notice"')
_NOTICE = re.compile(r'<div id="notice" class="notice shown"[^>]*>(.*?)</div>', re.S)
_STATUS = re.compile(r'<div id="status"[^>]*>\s*<strong>([^<]*)</strong>(?:\s*·\s*round (\d+))?')
_DEALER = re.compile(r'<section id="dealer".*?</section>', re.S)
_CARD = re.compile(r'data-card="(\w+)"')
_SEAT = re.compile(r'<article id="seat-(\d+)" class="([^"]*)".*?</article>', re.S)
# A seat's play (bet, hands, status) sent alone: the part of the seat that changed (tables/live/pieces.py).
_PLAY = re.compile(r'<div id="seat-(\d+)-play">')
_HAND = re.compile(r'<div class="hand[^"]*" data-hand="(\d+)">\s*<div class="cards">(.*?)</div>', re.S)
_SIT = re.compile(r'name="seat" value="(\d+)">\s*<input type="hidden" name="version"[^>]*>\s*'
                  r'<label[^>]*>Buy-in</label>\s*<input[^>]*name="buy_in" value="(\d+)"', re.S)
_CONTROLS = re.compile(r'<section id="controls".*?</section>', re.S)
_CONTROL = re.compile(r'<form [^>]*class="control"[^>]*>(.*?)</form>', re.S)
_HIDDEN = re.compile(r'<input type="hidden" name="(seat|hand)" value="(\d+)">')
_AMOUNT_MIN = re.compile(r'name="amount" min="(\d+)"')
_BUTTON = re.compile(r'name="action" value="(\w+)"')


@dataclass(frozen=True)
class Control:
    """One decision the page offers the bot: a seat, a hand and its buttons."""

    seat: int
    hand: int
    actions: tuple[str, ...]
    bet_min: int | None = None


@dataclass
class Frame:
    version: int | None = None
    notice: str = ""
    phase: str = ""
    round: int | None = None
    dealer: list[str] = field(default_factory=list)
    my_seats: list[int] = field(default_factory=list)
    leaving: bool = False  # "Leaving when this round ends." shows on the bot's seat
    free_seats: dict[int, int] = field(default_factory=dict)  # seat -> default buy-in
    hands: dict[tuple[int, int], list[str]] = field(default_factory=dict)  # (seat, hand) -> cards, the bot's only
    controls: list[Control] = field(default_factory=list)
    leaving_seats: set[int] = field(default_factory=set)

    def update(self, html: str) -> None:
        """Swap in the pieces a frame brings, as the browser does."""
        _update(self, html)

    def decision_key(self) -> tuple | None:
        """What the bot is being asked now; it answers each question once (a new key is a new question)."""
        if not self.controls:
            return None
        control = self.controls[0]
        cards = sum(len(cards) for (seat, _), cards in self.hands.items() if seat == control.seat)
        return (self.round, control.seat, control.hand, cards, control.actions)


def parse(html: str) -> Frame:
    """A page that holds just this frame (a first frame holds the whole table)."""
    frame = Frame()
    frame.update(html)
    return frame


def _update(frame: Frame, html: str) -> None:
    """Swap in the pieces `html` brings; what it does not bring stays as it was."""
    if match := _VERSION.search(html):
        frame.version = int(match.group(1))
    # A notice answers one click: this frame's, or none.
    match = _NOTICE.search(html)
    frame.notice = re.sub(r"\s+", " ", match.group(1)).strip() if match else ""
    if match := _STATUS.search(html):
        frame.phase = match.group(1).strip()
        frame.round = int(match.group(2)) if match.group(2) else None
    if match := _DEALER.search(html):
        frame.dealer = _CARD.findall(match.group(0))
    for match in _SEAT.finditer(html):
        number, classes, article = int(match.group(1)), match.group(2).split(), match.group(0)
        _forget_seat(frame, number)
        if "mine" in classes:
            frame.my_seats = sorted({*frame.my_seats, number})
            if "Leaving when this round ends." in article:
                frame.leaving_seats.add(number)
            for hand in _HAND.finditer(article):
                frame.hands[(number, int(hand.group(1)))] = _CARD.findall(hand.group(2))
        elif "free" in classes and (sit := _SIT.search(article)):
            frame.free_seats[int(sit.group(1))] = int(sit.group(2))
    for match in _PLAY.finditer(html):
        number = int(match.group(1))
        if number in frame.my_seats:
            for key in [key for key in frame.hands if key[0] == number]:
                del frame.hands[key]
            for hand in _HAND.finditer(_element(html, match.start(), "div")):
                frame.hands[(number, int(hand.group(1)))] = _CARD.findall(hand.group(2))
    frame.leaving = bool(frame.leaving_seats)
    if match := _CONTROLS.search(html):
        frame.controls = []
        for form in _CONTROL.finditer(match.group(0)):
            body = form.group(1)
            hidden = dict(_HIDDEN.findall(body))
            amount = _AMOUNT_MIN.search(body)
            frame.controls.append(Control(
                seat=int(hidden.get("seat", 0)),
                hand=int(hidden.get("hand", 0)),
                actions=tuple(_BUTTON.findall(body)),
                bet_min=int(amount.group(1)) if amount else None,
            ))


def _element(html: str, start: int, tag: str) -> str:
    """The element of `tag` that opens at `start`, with all it holds (nested ones of the same tag too)."""
    depth, position = 0, start
    opening, closing = re.compile(rf"<{tag}[\s>]"), f"</{tag}>"
    while True:
        close = html.find(closing, position)
        if close < 0:
            return html[start:]
        depth += len(opening.findall(html, position, close)) - 1
        position = close + len(closing)
        if depth <= 0:
            return html[start:position]


def _forget_seat(frame: Frame, number: int) -> None:
    """A seat piece replaces all the page showed of that seat."""
    frame.my_seats = [seat for seat in frame.my_seats if seat != number]
    frame.leaving_seats.discard(number)
    frame.free_seats.pop(number, None)
    for key in [key for key in frame.hands if key[0] == number]:
        del frame.hands[key]


def choose(frame: Frame, profile: str, *, stopping: bool = False) -> dict[str, str] | None:
    """The message a basic-strategy player sends for this frame, or None when there is nothing to do.

    Deal with the table minimum, never insure, and play basic strategy from the
    cards on the page. Once the run is over (`stopping`) the bot bets no more:
    it finishes the hand it is playing, then leaves.
    """
    if not frame.controls:
        return None
    control = frame.controls[0]
    legal = control.actions
    message = {"seat": str(control.seat), "hand": str(control.hand), "version": str(frame.version)}
    if "bet" in legal or "pass" in legal:
        if stopping:
            return {**message, "action": "leave"}
        if "bet" in legal and control.bet_min is not None:
            return {**message, "action": "bet", "amount": str(control.bet_min)}
        return {**message, "action": "pass"}
    if "no_insurance" in legal:
        return {**message, "action": "no_insurance"}
    cards = frame.hands.get((control.seat, control.hand), [])
    up_card = frame.dealer[0] if frame.dealer and frame.dealer[0] != "hidden" else None
    if len(cards) < 2 or up_card is None:
        move = "stand" if "stand" in legal else legal[0]
    else:
        move = basic_strategy(PROFILES[profile], cards, up_card, legal)
        if move not in legal:  # e.g. split aces that may not be hit: take what the page offers
            move = "stand" if "stand" in legal else legal[0]
    return {**message, "action": move}
