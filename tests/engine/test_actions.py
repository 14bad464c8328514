"""The action registry and ``GameRound.act``: one name for each action, from the
websocket to the event it appends."""

from __future__ import annotations

import pytest

from tables.engine import ACTIONS, BY_NAME, PROFILES, AmountKind, CardShoe, GameRound, IllegalAction, Phase
from tables.engine.actions import action_named
from tables.engine.errors import ErrorCode

from .rigged import rigged


def test_the_registry_lists_every_action_in_button_order_with_its_label_and_key():
    assert [(spec.name, spec.label, spec.key) for spec in ACTIONS] == [
        ("bet", "Deal", "d"),
        ("pass", "Pass", "p"),
        ("insurance", "Insurance", "i"),
        ("no_insurance", "No insurance", "n"),
        ("hit", "Hit", "h"),
        ("stand", "Stand", "s"),
        ("double", "Double", "x"),
        ("split", "Split", "t"),
        ("surrender", "Surrender", "r"),
    ]
    assert list(BY_NAME) == [spec.name for spec in ACTIONS]
    assert len({spec.key for spec in ACTIONS}) == len(ACTIONS)


def test_an_action_is_found_by_its_name_and_an_unknown_name_is_a_key_error():
    assert action_named("double").amount is AmountKind.OPTIONAL
    assert action_named("bet").amount is AmountKind.REQUIRED
    with pytest.raises(KeyError):
        action_named("decline_insurance")


def test_only_the_decisions_on_a_hand_take_a_hand():
    assert [spec.name for spec in ACTIONS if spec.takes_hand] == ["hit", "stand", "double", "split", "surrender"]
    assert all(spec.phase is Phase.PLAYERS for spec in ACTIONS if spec.takes_hand)


def start(name: str) -> tuple[GameRound, dict]:
    """A round in which ``name`` is legal for seat 1, and the arguments to apply it."""
    match name:
        case "bet" | "pass":
            rules = PROFILES["atlantic-city"]
            round_ = GameRound.new(rules=rules, shoe=CardShoe.new(rules.decks), seats={1: 100})
            return round_, {"amount": 10} if name == "bet" else {}
        case "insurance" | "no_insurance":
            return rigged("atlantic-city", "9H AS 9D 7C 2C 3C"), {}
        case "split":
            return rigged("atlantic-city", "8H 7D 8S 9C 2C 3C TC TD"), {"hand": 0}
        case "surrender":
            return rigged("rocket-academy", "TH 9C 6D 5S 8S"), {"hand": 0}
    return rigged("atlantic-city", "5H 7D 6S 9C 2C 8C TC"), {"hand": 0}


@pytest.mark.parametrize("name", list(BY_NAME))
def test_act_applies_each_action_and_returns_the_event_the_registry_names(name):
    spec = BY_NAME[name]
    round_, arguments = start(name)
    assert round_.phase is spec.phase
    assert name in round_.legal_actions(1)
    assert round_.can_act(name, seat=1, **arguments)
    round_.verify_act(name, seat=1, **arguments)
    event = round_.act(name, seat=1, **arguments)
    assert event.kind is spec.event and event.seat == 1 and event.actor == "player"
    # An action that stakes chips moves them from the seat at once; the others move none.
    assert (event.chips < 0) == (spec.stake is not None)


def test_act_records_who_acted():
    round_, _ = start("pass")
    assert round_.act("pass", seat=1, actor="timer").actor == "timer"
    with pytest.raises(ValueError):
        start("pass")[0].act("pass", seat=1, actor="somebody")


@pytest.mark.parametrize("name", ["fold", "decline_insurance", "pass_bet", "", None, 3])
def test_act_refuses_a_name_the_registry_does_not_have(name):
    round_, _ = start("bet")
    with pytest.raises(IllegalAction) as refused:
        round_.act(name, seat=1, amount=10)
    assert refused.value.code is ErrorCode.UNKNOWN_ACTION
    assert not round_.can_act(name, seat=1) and round_.events == []


def test_act_refuses_an_amount_for_an_action_that_takes_none():
    round_, _ = start("hit")
    before = round_.to_json()
    with pytest.raises(IllegalAction) as refused:
        round_.act("hit", seat=1, amount=5)
    assert refused.value.code is ErrorCode.BAD_AMOUNT
    assert round_.to_json() == before


def test_a_bet_needs_an_amount():
    round_, _ = start("bet")
    with pytest.raises(IllegalAction) as refused:
        round_.act("bet", seat=1)
    assert refused.value.code is ErrorCode.BAD_AMOUNT
    assert "bet" in round_.legal_actions(1)


def test_a_seat_s_action_refuses_a_hand():
    round_, _ = start("no_insurance")
    with pytest.raises(IllegalAction) as refused:
        round_.act("no_insurance", seat=1, hand=1)
    assert refused.value.code is ErrorCode.ILLEGAL_ACTION


def test_act_passes_the_amount_through_to_the_triad():
    round_ = rigged("internet-6", "5H 7D 6S 9C TC 8C")
    assert round_.act("double", seat=1, hand=0, amount=4).chips == -4
    round_ = rigged("internet-6", "9H AS 9D 7C 2C", bets={1: 20})
    assert round_.act("insurance", seat=1, amount=3).chips == -3
    with pytest.raises(IllegalAction) as refused:
        rigged("atlantic-city", "5H 7D 6S 9C").act("double", seat=1, amount=5)
    assert refused.value.code is ErrorCode.BAD_AMOUNT


def test_the_amount_range_of_an_action_is_its_range_query():
    round_ = rigged("internet-6", "9H AS 9D 7C 2C", bets={1: 20})
    assert round_.amount_range("insurance", seat=1) == round_.insurance_range(1) == range(1, 11)
    assert round_.amount_range("no_insurance", seat=1) is None
    assert round_.amount_range("bet", seat=1) is None


def test_every_action_says_what_it_does_for_the_help_page():
    for spec in ACTIONS:
        assert spec.description.endswith(".") and len(spec.description.split()) >= 4, spec.name
