"""Every decision reviewed (tables/play/reviews.py): priced after settlement, stored on the history rows."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from tables.models import RoundSeat, Table
from tables.play import reviews, services
from tests.tables.conftest import open_next_window

pytestmark = pytest.mark.django_db

# alice: 10, queen (20) against a 7, the 9 in the hole; she hits and the 5 busts her.
HIT_ON_20 = ["TS", "7H", "QD", "9C", "5S"]


def act(table, user, action, seat=1, **fields):
    table.refresh_from_db()
    services.do_act(table.pk, user, action, seat=seat, version=table.version, **fields)


def hit_a_hard_20(table, player, rig) -> RoundSeat:
    rig(HIT_ON_20)
    services.do_sit(table.pk, player, 1)
    act(table, player, "bet", amount=10)
    act(table, player, "hit")
    return RoundSeat.objects.get(round=Table.objects.get(pk=table.pk).current_round)


def test_a_settled_round_is_reviewed_once_its_settlement_commits(
    solo_table, alice, rig, monkeypatch, django_capture_on_commit_callbacks
):
    submitted = []
    monkeypatch.setattr(reviews, "ENABLED", True)
    monkeypatch.setattr(reviews._executor, "submit", lambda fn, *args: submitted.append(args))
    with django_capture_on_commit_callbacks(execute=True):
        row = hit_a_hard_20(solo_table, alice, rig)
    assert submitted == [(row.round_id,)]  # handed to the review thread, not done in the transaction
    assert row.review is None


def test_it_prices_the_mistake_against_the_best_play(solo_table, alice, rig):
    row = hit_a_hard_20(solo_table, alice, rig)
    assert reviews.review_round(row.round_id) == 1
    row.refresh_from_db()
    (verdict,) = row.review
    assert (verdict["action"], verdict["best"], verdict["actor"]) == ("hit", "stand", "player")
    assert verdict["cards"] == ["TS", "QD"] and verdict["dealer"] == "7H" and verdict["bet"] == 10
    assert verdict["cost_chips"] == pytest.approx(10 * (verdict["best_ev"] - verdict["ev"]), abs=1e-3)
    assert verdict["cost_chips"] > 8
    assert (row.decisions, row.best_decisions) == (1, 0)
    assert row.ev_given == row.worst_cost == verdict["cost_chips"]
    # Once is enough: a second review changes nothing.
    assert reviews.review_round(row.round_id) == 0


def test_the_timers_stand_is_reviewed_and_labelled(multi_table, alice, rig):
    rig(["TS", "7H", "6D", "9C", "2C"])
    services.do_sit(multi_table.pk, alice, 1)
    open_next_window(multi_table)
    act(multi_table, alice, "bet", amount=10)
    open_next_window(multi_table)  # her 20 seconds run out: the timer stands her 16
    row = RoundSeat.objects.get(player=alice)
    reviews.review_round(row.round_id)
    row.refresh_from_db()
    assert [(v["action"], v["actor"], v["best"]) for v in row.review] == [("stand", "timer", "hit")]
    assert row.best_decisions == 0 and row.ev_given > 0


def test_the_command_reviews_what_is_left(solo_table, alice, rig):
    row = hit_a_hard_20(solo_table, alice, rig)
    out = StringIO()
    call_command("review_rounds", stdout=out)
    assert json.loads(out.getvalue().strip().splitlines()[-1])["reviewed"] == 1
    row.refresh_from_db()
    assert row.review is not None and row.decisions == 1


def test_with_the_thread_turned_off_settlement_leaves_the_review_to_the_command(
    solo_table, alice, rig, monkeypatch, settings, django_capture_on_commit_callbacks
):
    submitted = []
    monkeypatch.setattr(reviews, "ENABLED", True)
    monkeypatch.setattr(reviews._executor, "submit", lambda fn, *args: submitted.append(args))
    settings.COACH_REVIEW_THREAD = False
    with django_capture_on_commit_callbacks(execute=True):
        hit_a_hard_20(solo_table, alice, rig)
    assert submitted == []


def test_the_command_follows_the_rounds_as_they_settle(solo_table, alice, rig, monkeypatch):
    from tables.management.commands import review_rounds

    naps = []

    def nap(seconds: float) -> None:
        naps.append(seconds)
        if len(naps) == 1:
            hit_a_hard_20(solo_table, alice, rig)  # a round settles while the reviewer waits
        else:
            raise KeyboardInterrupt

    monkeypatch.setattr(review_rounds.time, "sleep", nap)
    # Between passes the command drops stale connections; the test's own holds its transaction.
    monkeypatch.setattr(review_rounds, "close_old_connections", lambda: None)
    with pytest.raises(KeyboardInterrupt):
        call_command("review_rounds", "--follow", "--every", "0.5", stdout=StringIO())
    assert naps == [0.5, 0.5]
    assert RoundSeat.objects.get(player=alice).decisions == 1
