"""A seat as the frames send it: its parts rendered one by one, and only the changed ones brought (tables.live.parts)."""

from __future__ import annotations

import pytest

from tables.live.cards import CardView
from tables.live.parts import SeatPiece, changed_parts, compact
from tables.live.state import HandView, SeatView
from tables.live.templating import render_piece
from tables.live.viewer_pieces import seat_body

SHELL = ('<article id="seat-2" class="seat" aria-label="Seat 2"> ', " </article>")
HEAD = '<header id="seat-2-head"><span class="seat-no">Seat 2</span> bob</header>'
PLAY = '<div id="seat-2-play"><div class="hand"><div class="cards">TS 6D</div></div></div>'
STACK = '<p class="stack" id="seat-2-stack">Stack <strong>90</strong></p>'


def seat(head: str = HEAD, play: str = PLAY, stack: str = STACK, rest: str = "", shell: tuple[str, str] = SHELL) -> SeatPiece:
    return SeatPiece(shell[0], (head, play, stack), rest, shell[1])


def test_a_seat_is_its_shell_around_its_parts_then_the_rest_of_its_body():
    loan = '<p class="help loan">Top-up loan 100: repaid first when the seat leaves</p>'
    assert seat(rest=loan) == SHELL[0] + HEAD + PLAY + STACK + loan + SHELL[1]


def test_only_the_parts_that_changed_are_sent():
    after = seat(play=PLAY.replace("TS 6D", "TS 6D 5C"))
    assert changed_parts(seat(), after) == PLAY.replace("TS 6D", "TS 6D 5C")
    both = seat(play=PLAY.replace("TS 6D", "TS 6D 5C"), stack=STACK.replace("90", "80"))
    assert changed_parts(seat(), both) == PLAY.replace("TS 6D", "TS 6D 5C") + STACK.replace("90", "80")


@pytest.mark.parametrize(
    "after",
    [
        seat(shell=('<article id="seat-2" class="seat mine" aria-label="Seat 2"> ', " </article>")),  # its shell
        seat(rest='<p class="help loan">Top-up loan 100: repaid first when the seat leaves</p>'),  # its loan
        SeatPiece(SHELL[0], (), '<header id="seat-2-head">Seat 2</header><p class="help">Free</p>', SHELL[1]),  # freed
    ],
)
def test_a_seat_whose_outline_changed_is_sent_whole(after):
    assert changed_parts(seat(), after) is after


def test_a_seat_sent_before_as_plain_html_is_sent_whole():
    after = seat()
    assert changed_parts(str(after), after) is after


class Kept:
    """A version's kept pieces (tables.live.frames.Rendered.kept_piece), counting what was rendered."""

    def __init__(self) -> None:
        self.pieces: dict = {}
        self.rendered = 0

    def kept_piece(self, key, render):
        if key not in self.pieces:
            self.rendered += 1
            self.pieces[key] = render()
        return self.pieces[key]


def in_round(**changes) -> SeatView:
    hands = [
        HandView(0, [CardView("8H"), CardView("8S"), CardView("AD")], 17, True, 10, None),
        HandView(1, [CardView("8C"), CardView("TD")], 18, False, 20, "win", "Win +20"),
    ]
    fields = {"number": 2, "player": "bob", "is_mine": False, "stack": 470, "credit": 100, "net": -30, "bet": 10,
              "insurance": 5, "hands": hands, "status": "deciding on insurance…", "in_round": True,
              "deadline": "1796619006473"}
    return SeatView(**{**fields, **changes})


@pytest.mark.parametrize(
    "view",
    [
        in_round(),
        in_round(credit=0, net=12, deadline=None, status="", insurance=0),
        in_round(hands=[], status="betting…", net=0),
        SeatView(number=2, player="bob", is_mine=False, stack=200, status="waiting for the next round"),
        SeatView(number=2, player='<b>"eve"</b>', is_mine=False, stack=1),
    ],
)
def test_the_frames_seat_body_is_the_templates_part_for_part(view):
    parts, rest = seat_body(Kept(), view, None)

    assert "".join(parts) + rest == compact(render_piece("seat_body", {"view": None, "seat": view}))
    assert [part[: part.index(">")].rsplit('id="', 1)[1] for part in parts] == ['seat-2-head"', 'seat-2-play"', 'seat-2-stack"']


def test_a_part_that_shows_the_same_is_not_rendered_again():
    kept = Kept()
    before = seat_body(kept, in_round(), None)
    rendered = kept.rendered
    # Only the stack shows anything new: only it is rendered.
    after = seat_body(kept, in_round(stack=460), None)

    assert kept.rendered == rendered + 1
    assert after[0][0] is before[0][0] and after[0][1] is before[0][1] and after[0][2] != before[0][2]
