"""A seat's HTML cut into the parts a frame may bring alone (tables.live.parts._split, changed_parts)."""

from __future__ import annotations

from tables.live.parts import _split, changed_parts

SEAT = (
    '<article id="seat-2" class="seat"><header id="seat-2-head"><span>Seat 2</span> bob</header>'
    '<div id="seat-2-play"><div class="hand"><div class="cards">TS 6D</div></div></div>'
    '<p class="stack" id="seat-2-stack">Stack <strong>90</strong></p></article>'
)


def test_it_cuts_each_part_out_whole_nested_elements_and_all():
    frame, parts = _split(SEAT)
    assert list(parts) == ["seat-2-head", "seat-2-play", "seat-2-stack"]
    assert parts["seat-2-play"] == '<div id="seat-2-play"><div class="hand"><div class="cards">TS 6D</div></div></div>'
    assert frame == '<article id="seat-2" class="seat"><!--seat-2-head--><!--seat-2-play--><!--seat-2-stack--></article>'


def test_an_id_written_in_text_is_no_part_and_the_text_around_it_stays():
    html = '<article id="seat-4"><p>named id="seat-4-fake" here</p><div id="seat-4-play">x</div></article>'
    frame, parts = _split(html)
    assert list(parts) == ["seat-4-play"]
    assert frame == '<article id="seat-4"><p>named id="seat-4-fake" here</p><!--seat-4-play--></article>'


def test_an_element_left_open_is_never_cut():
    frame, parts = _split('<article id="seat-1"><div id="seat-1-play"><div>open</article>')
    assert parts == {}


def test_only_the_parts_that_changed_are_sent():
    after = SEAT.replace("TS 6D", "TS 6D 5C")
    assert changed_parts(SEAT, after) == '<div id="seat-2-play"><div class="hand"><div class="cards">TS 6D 5C</div></div></div>'
    assert changed_parts(SEAT, SEAT.replace('class="seat"', 'class="seat mine"')) == SEAT.replace('class="seat"', 'class="seat mine"')
