from __future__ import annotations

import json

import pytest

from tables.engine import PROFILES, CardShoe, GameRound, RuleSet
from tables.engine.shoe import derive_seed

from .rigged import rigged


def roundtrip(round_: GameRound) -> GameRound:
    copy = GameRound.from_json(json.loads(json.dumps(round_.to_json())))
    assert copy.to_json() == round_.to_json()
    assert copy.events == round_.events
    return copy


def test_a_round_resumes_from_json_at_every_resting_phase():
    round_ = GameRound.new(rules=PROFILES["internet-6"], shoe=CardShoe.from_seed(derive_seed(b"\0" * 32, b"j"), 6),
                       seats={1: 100, 2: 50}, min_bet=2, max_bet=40)
    roundtrip(round_)
    round_.bet(1, 10)
    roundtrip(round_)
    round_.bet(2, 20)
    copy = roundtrip(round_)
    while round_.to_act():
        seat, hand = round_.to_act()
        round_.stand(seat, hand)
        copy.stand(seat, hand)
        assert copy.to_json() == round_.to_json()
    roundtrip(round_)


def test_a_resumed_round_writes_the_events_it_was_read_with_as_read_and_only_its_new_ones_anew():
    round_ = rigged("internet-6", "8H 7D 8S 9C 8D 8C 2C 3C")
    stored = round_.to_json()
    copy = GameRound.from_json(stored)

    copy.split(1)
    written = copy.to_json()

    read = len(stored["events"])
    assert len(written["events"]) > read
    assert all(again is event for again, event in zip(written["events"][:read], stored["events"]))
    assert written["events"][read:] == [event.to_json() for event in copy.events[read:]]
    assert GameRound.from_json(written).events == copy.events


def test_a_resumed_round_deals_the_same_next_card():
    round_ = rigged("internet-6", "8H 7D 8S 9C 8D 8C 2C 3C")
    round_.split(1)
    copy = roundtrip(round_)
    round_.split(1, 0)
    copy.split(1, 0)
    assert copy.to_json() == round_.to_json()


def test_every_profile_survives_json_and_says_how_many_seats_one_player_may_hold():
    for rules in PROFILES.values():
        assert RuleSet.from_json(json.loads(json.dumps(rules.to_json()))) == rules
        expected = 7 if rules.slug == "rocket-academy" else 1
        assert rules.seats_per_player == expected


def test_rules_stored_before_seats_per_player_read_back_with_the_profile_s_value():
    for slug in ("rocket-academy", "internet-6"):
        data = PROFILES[slug].to_json()
        del data["seats_per_player"]
        assert RuleSet.from_json(data) == PROFILES[slug]


def test_stored_names_parse_to_the_very_members_and_a_stranger_is_refused_as_the_enum_refuses_it():
    from tables.engine.events import EventKind, parser

    parse = parser(EventKind)
    assert all(parse(str(kind)) is kind for kind in EventKind)
    for stranger in ("no_such_kind", None, ["bet"]):
        with pytest.raises(ValueError, match="is not a valid EventKind"):
            parse(stranger)
