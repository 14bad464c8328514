"""The round's log told on from the version before reads exactly as the whole round told afresh."""

from __future__ import annotations

from tables.engine import PROFILES, CardShoe, GameRound
from tables.live import narration
from tables.live.narration import log_lines, narrate_round
from tests.engine.rigged import rigged


def test_a_log_told_on_from_each_version_reads_as_the_whole_round_told_afresh(monkeypatch):
    # alice hits (her card joins the hit's line), bob doubles, the dealer plays out.
    versions = []
    round_ = rigged("atlantic-city-multi", "5S TH 6C 5D 6H 9S 2C 3D TC KC 9D 9H", bets={1: 10, 2: 20})
    names = {1: "alice", 2: "bob"}
    versions.append(GameRound.from_json(round_.to_json()))
    while round_.to_act():
        seat, hand = round_.to_act()
        if seat == 1 and round_.seats[1].hands[0].total < 17:
            round_.hit(seat, hand)
        elif seat == 2 and len(round_.seats[2].hands[0].cards) == 2:
            round_.double(seat, hand)
        else:
            round_.stand(seat, hand)
        versions.append(GameRound.from_json(round_.to_json()))

    told = None
    for version in versions:
        told = narrate_round(version, names, told)
        assert list(told.lines) == log_lines(version, names)
    # Told on, not afresh: only the events after the version before's are put in words.
    before = narrate_round(versions[-2], names)
    told_events = []
    monkeypatch.setattr(narration, "narrate", lambda event, names: told_events.append(event) or "")
    narrate_round(versions[-1], names, before)
    assert told_events == versions[-1].events[len(versions[-2].events) :]


def test_a_log_is_told_afresh_for_other_names_or_another_round():
    first = rigged("atlantic-city-multi", "5S TH 6C 5D 6H 9S 2C 3D", bets={1: 10})
    told = narrate_round(first, {1: "alice"})
    assert narrate_round(first, {1: "carol"}, told).lines == tuple(log_lines(first, {1: "carol"}))
    other = GameRound.new(rules=PROFILES["atlantic-city-multi"], shoe=CardShoe.stacked(["2C"] * 20, 8), seats={1: 100})
    other.bet(1, 10)
    assert narrate_round(other, {1: "alice"}, told).lines == tuple(log_lines(other, {1: "alice"}))
