"""The coach at the table: a player's Hints switch and their hint, in their own controls and nobody else's."""

from __future__ import annotations

import re
import threading

import pytest

from accounts.models import User
from tables.live import coach
from tables.live.pieces import whole_table
from tables.play import services
from tables.play.errors import TableError
from tables.play.messages import perform
from tests.tables.conftest import seat_and_bet
from tests.tables.test_verify_shoe import version

pytestmark = pytest.mark.django_db


def held_coach(monkeypatch) -> threading.Event:
    """The coach's thread held until the returned event is set, however fast it would price."""
    priced = threading.Event()
    price = coach._price

    def held(*args):
        priced.wait(timeout=30)
        return price(*args)

    monkeypatch.setattr(coach, "_price", held)
    return priced


def controls_html(frame: str) -> str:
    return re.search(r'<section id="controls".*?</section>', frame, re.S).group(0)


def switch_html(frame: str) -> str:
    return re.search(r'<div id="hints-switch".*?</div>', frame, re.S).group(0)


@pytest.fixture
def deciding(multi_table, alice, bob, rig):
    """alice (seat 1) holds 10,6 against a ten and decides; bob (seat 2) holds 9,9."""
    coach.forget()
    rig(["TS", "9C", "TD", "6H", "9D", "7C", "2S", "3S", "4S"])
    seat_and_bet(multi_table, alice, bob)
    return multi_table


def hints_on(user: User) -> None:
    perform(0, user, {"action": "hints", "hints": "on"})


def wait_for_hints() -> None:
    for future in list(coach._futures.values()):
        future.result(timeout=30)


def test_hints_are_off_until_the_player_switches_them_on_and_then_remembered(deciding, alice):
    assert User.objects.get(pk=alice.pk).coach_hints is False
    frame, _ = whole_table(deciding.pk, alice)
    assert "Hints: off" in switch_html(frame) and "Hints" not in controls_html(frame) and "data-hint" not in frame
    hints_on(alice)
    assert User.objects.get(pk=alice.pk).coach_hints is True
    perform(0, alice, {"action": "hints", "hints": "off"})
    assert User.objects.get(pk=alice.pk).coach_hints is False


def test_a_bad_switch_is_refused_and_changes_nothing(alice):
    with pytest.raises(TableError):
        perform(0, alice, {"action": "hints", "hints": "maybe"})
    assert User.objects.get(pk=alice.pk).coach_hints is False


def test_the_player_sees_basic_strategy_at_once_then_every_plays_exact_value_in_chips(deciding, alice, monkeypatch):
    # The coach's thread held until the first frame is made, however fast it would be.
    priced = held_coach(monkeypatch)
    hints_on(alice)
    first, _ = whole_table(deciding.pk, alice)
    hint = controls_html(first)
    # Not ready within the frame (the frame never waits): the chart's play, labelled as such.
    assert 'data-hint="basic"' in hint and "Basic strategy: <strong>Hit</strong>" in hint
    priced.set()
    wait_for_hints()
    later, _ = whole_table(deciding.pk, alice)
    hint = controls_html(later)
    assert 'data-hint="exact"' in hint
    # 10,6 against a ten, bob's 9,9 seen: about -5.4 chips for a bet of 10 either way; hitting is better.
    plays = dict(re.findall(r'data-play="(\w+)">[A-Za-z ]+ ([-+][0-9.]+)', hint))
    assert set(plays) == {"hit", "stand", "double"}
    assert -5.5 < float(plays["hit"]) < float(plays["stand"]) + 0.2 and float(plays["double"]) < -10
    assert re.search(r'class="best" data-play="hit">Hit -5\.\d\d \(best\)', hint)
    assert "with the 411 cards you have not seen" in hint


def test_nobody_else_sees_the_hint(deciding, alice, bob, carol):
    hints_on(alice)
    hints_on(bob)  # bob's own hints show only at his own decisions
    whole_table(deciding.pk, alice)
    wait_for_hints()
    for viewer in (bob, carol, None):
        frame, _ = whole_table(deciding.pk, viewer)
        assert "data-hint" not in frame and "Expected value" not in frame
    assert "data-hint" in whole_table(deciding.pk, alice)[0]


def test_the_hint_follows_the_hand(deciding, alice):
    hints_on(alice)
    whole_table(deciding.pk, alice)
    wait_for_hints()
    services.do_act(deciding.pk, alice, "hit", seat=1, version=version(deciding))  # 10,6,2: 18
    whole_table(deciding.pk, alice)
    wait_for_hints()
    hint = controls_html(whole_table(deciding.pk, alice)[0])
    assert re.search(r'class="best" data-play="stand">Stand', hint)
    assert 'data-play="double"' not in hint  # three cards: no double


@pytest.fixture
def insuring(multi_table, alice, bob, rig):
    """The dealer shows an ace: alice (seat 1, 10,6) and bob (seat 2, 9,7) are offered insurance."""
    coach.forget()
    rig(["TS", "9D", "AS", "6H", "7C", "9C", "2S", "3S"])
    seat_and_bet(multi_table, alice, bob)
    return multi_table


def test_the_insurance_offer_shows_no_insurance_at_once_then_the_exact_value(insuring, alice, monkeypatch):
    priced = held_coach(monkeypatch)
    hints_on(alice)
    hint = controls_html(whole_table(insuring.pk, alice)[0])
    assert 'data-hint="basic"' in hint and "Basic strategy: <strong>No insurance</strong>" in hint
    priced.set()
    wait_for_hints()
    hint = controls_html(whole_table(insuring.pk, alice)[0])
    assert 'data-hint="exact"' in hint and "Expected value of insurance for 5 chips" in hint
    plays = dict(re.findall(r'data-play="(\w+)">[A-Za-z ]+ ([-+]?[0-9.]+)', hint))
    assert set(plays) == {"insurance", "no_insurance"}
    assert -0.4 < float(plays["insurance"]) < -0.3 and float(plays["no_insurance"]) == 0
    assert 'class="best" data-play="no_insurance"' in hint


def test_the_insurance_hint_is_for_the_player_asked_and_goes_once_they_answer(insuring, alice, bob, carol):
    hints_on(alice)
    hints_on(carol)
    whole_table(insuring.pk, alice)
    wait_for_hints()
    assert "data-hint" in whole_table(insuring.pk, alice)[0]
    for viewer in (bob, carol, None):
        assert "data-hint" not in whole_table(insuring.pk, viewer)[0]
    services.do_act(insuring.pk, alice, "no_insurance", seat=1, version=version(insuring))
    # bob has yet to answer: alice has nothing to decide, and no hint.
    frame, _ = whole_table(insuring.pk, alice)
    assert "data-hint" not in frame and "Nothing to decide right now." in controls_html(frame)


def test_a_rigged_shoes_order_never_reaches_a_frame(deciding, alice, bob, carol):
    # The coach reads a stacked shoe's order (its earlier rounds' cards count as seen); no frame holds it:
    # not the hole card (7C), not the cards still to come (2S 3S 4S), whoever looks, hints on or off.
    hints_on(alice)
    whole_table(deciding.pk, alice)
    wait_for_hints()
    for viewer in (alice, bob, carol, None):
        frame, _ = whole_table(deciding.pk, viewer)
        assert 'data-card="TD"' in frame
        assert not re.search(r"\b(7C|2S|3S|4S)\b", frame)
