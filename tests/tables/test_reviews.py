"""Every decision reviewed (tables/play/reviews.py): priced after settlement, stored on the history rows."""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

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
    niced = []
    monkeypatch.setattr(review_rounds.os, "nice", niced.append)
    with pytest.raises(KeyboardInterrupt):
        call_command("review_rounds", "--follow", "--every", "0.5", stdout=StringIO())
    assert naps == [0.5, 0.5]
    assert RoundSeat.objects.get(player=alice).decisions == 1
    assert niced == [10]  # behind the tables' processes for the CPU


def test_the_command_keeps_its_priority_for_one_pass_or_when_told(db, monkeypatch):
    from tables.management.commands import review_rounds

    niced = []
    monkeypatch.setattr(review_rounds.os, "nice", niced.append)
    monkeypatch.setattr(review_rounds.time, "sleep", lambda seconds: (_ for _ in ()).throw(KeyboardInterrupt))
    call_command("review_rounds", stdout=StringIO())
    with pytest.raises(KeyboardInterrupt):
        call_command("review_rounds", "--follow", "--nice", "0", stdout=StringIO())
    assert niced == []


# alice: 10,6 against an ace, a 9 in the hole; she insures, hits a 2 (18) and stands.
INSURED = ["TS", "AS", "6H", "9C", "2D"]


def test_taking_insurance_off_a_fresh_shoe_is_reviewed_and_shown_as_a_small_mistake(client, solo_table, alice, rig):
    rig(INSURED)
    services.do_sit(solo_table.pk, alice, 1)
    act(solo_table, alice, "bet", amount=10)
    act(solo_table, alice, "insurance")
    act(solo_table, alice, "hit")
    act(solo_table, alice, "stand")
    row = RoundSeat.objects.get(round=Table.objects.get(pk=solo_table.pk).current_round)
    assert reviews.review_round(row.round_id) == 1
    row.refresh_from_db()
    insured, hit, stand = row.review
    p = 127 / 413  # tens among the cards alice has not seen
    assert (insured["action"], insured["best"], insured["actor"], insured["stake"]) == (
        "insurance", "no_insurance", "player", 5)
    assert insured["cost_chips"] == pytest.approx(5 * (1 - 3 * p), abs=1e-3)  # about 0.39 chips
    assert (hit["action"], stand["action"]) == ("hit", "stand") and hit["is_best"] and stand["is_best"]
    assert (row.decisions, row.best_decisions) == (3, 2)
    assert row.ev_given == row.worst_cost == insured["cost_chips"]

    client.force_login(alice)
    # The replay: the line at the insurance step, in the round's list of decisions too.
    step = insured["seq"] + 1
    html = client.get(reverse("history_round", args=[row.round_id]) + f"?step={step}").content.decode()
    line = re.search(r'<p class="review[^"]*" data-review="insurance">(.*?)</p>', html, re.DOTALL).group(1)
    assert "T,6 against A, insurance offered" in line
    assert re.search(r"Best: No insurance \(0\.000\) · You: Insurance \(-0\.0\d\d\) · cost 0\.39 chips", line)
    # The history's summary and the profile's "Your play" count it; the export carries it.
    history = client.get(reverse("history")).content.decode()
    assert re.search(r'data-summary="given-away"[^>]*>\s*0\.39', history)
    panel = client.get(reverse("profile")).content.decode()
    assert f'href="/history/{row.round_id}/?step={step}"' in panel and "You: Insurance" in panel
    (record,) = json.loads(b"".join(client.get(reverse("history_export_json")).streaming_content))
    assert record["review"] == row.review and record["review"][0]["action"] == "insurance"
    csv = b"".join(client.get(reverse("history_export_csv")).streaming_content).decode().splitlines()
    assert csv[1].endswith(",3,2,0.39")  # decisions, best decisions, chips given away


def test_a_round_whose_shoe_ran_out_mid_round_is_reviewed(alice, rig, monkeypatch):
    from tables.engine import CardShoe
    from tables.engine.shoe import derive_seed
    from tables.fairness import shoes
    from tables.models import RuleProfile
    from tests.tables.conftest import make_table

    # A single deck with four cards left, all dealt: her first hit runs it out, the cards off the table are reshuffled.
    def nearly_done(rules):
        shoe = CardShoe.from_seed(derive_seed(b"\4" * 32, b"review-run-out"), 1)
        for _ in range(48):
            shoe.draw()
        return shoe

    monkeypatch.setattr(shoes, "shoe_source", nearly_done)
    table = make_table(RuleProfile.ROCKET_ACADEMY)
    services.do_sit(table.pk, alice, 1)
    open_next_window(table)
    act(table, alice, "bet", amount=10)
    table.refresh_from_db()
    while table.current_round.phase == "players":
        act(table, alice, "hit")
        table.refresh_from_db()
    state = table.current_round.state
    kinds = [event["kind"] for event in state["events"]]
    assert "shoe_reshuffled" in kinds, "this seed's deal and hits do not run the deck out"
    reshuffled = state["events"][kinds.index("shoe_reshuffled")]["seq"]
    row = RoundSeat.objects.get(round=table.current_round)
    reviews.review_round(row.round_id)
    row.refresh_from_db()
    # Every hit made once the deck was reshuffled is priced (those before, on a deck nearly gone, may not be).
    after = [e["seq"] for e in state["events"] if e["kind"] == "hit" and e["seq"] > reshuffled]
    assert after and {v["seq"] for v in row.review} >= set(after)
    assert all(v["action"] == "hit" for v in row.review) and row.decisions == len(row.review)
