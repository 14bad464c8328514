"""GameRound.copy: a round of its own that plays on exactly as the original would (tables/play/held.py keeps one)."""

from __future__ import annotations

from tables.engine import PROFILES, CardShoe, GameRound
from tables.engine.shoe import derive_seed

from .rigged import rigged


def seeded_round() -> GameRound:
    shoe = CardShoe.from_seed(derive_seed(b"\1" * 32, b"copy"), 6)
    return GameRound.new(rules=PROFILES["internet-6"], shoe=shoe, seats={1: 100, 2: 50}, min_bet=2, max_bet=40)


def play_out(round_: GameRound) -> None:
    while (turn := round_.to_act()) is not None:
        seat, hand = turn
        if "hit" in round_.legal_actions(seat, hand) and len(round_.seats[seat].hands[hand].cards) < 3:
            round_.hit(seat, hand)
        else:
            round_.stand(seat, hand)


def test_a_copy_deals_and_settles_exactly_as_the_original():
    original = seeded_round()
    original.bet(1, 10)
    copy = original.copy()
    for round_ in (original, copy):
        round_.bet(2, 20)
        play_out(round_)

    assert copy.to_json() == original.to_json()
    assert copy.events == original.events and copy.result() == original.result()


def test_playing_the_copy_leaves_the_original_as_it_was():
    original = rigged("internet-6", "8H 7D 8S 9C 8D 8C 2C 3C")
    before = original.to_json()
    copy = original.copy()

    copy.split(1)
    copy.hit(1, 0)

    assert original.to_json() == before
    assert len(copy.events) > len(original.events)
    assert copy.seats[1].hands is not original.seats[1].hands
    assert len(original.seats[1].hands) == 1 and original.shoe.cards_left > copy.shoe.cards_left


def test_a_copy_that_plays_on_writes_only_its_new_events_anew():
    round_ = seeded_round()
    round_.bet(1, 10)
    stored = round_.to_json()
    copy = round_.copy()

    copy.bet(2, 20)
    written = copy.to_json()

    kept = len(stored["events"])
    assert all(again is event for again, event in zip(written["events"][:kept], stored["events"]))
    assert GameRound.from_json(written).events == copy.events
    assert copy.to_json() == written  # asked again: the same JSON, every event made once
