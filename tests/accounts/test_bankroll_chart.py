"""The chips chart: a pure SVG from the player's chips after each transfer, and its place on the profile page."""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts import ledger
from accounts.chart import Frame, Move, balance_history, bankroll_svg, chips_history, downsample, summary

SVG = "{http://www.w3.org/2000/svg}"
DAY = dt.datetime(2025, 3, 1, 12, 0, tzinfo=dt.UTC)


def history(*balances: int) -> list[tuple[dt.datetime, int]]:
    return [(DAY + dt.timedelta(days=n), balance) for n, balance in enumerate(balances)]


def points_of(svg: str) -> list[tuple[float, float]]:
    line = ET.fromstring(svg).find(f"{SVG}polyline")
    return [tuple(float(v) for v in pair.split(",")) for pair in line.get("points").split()]


def test_the_balance_after_each_transfer_is_the_running_sum():
    changes = [(DAY, 1000), (DAY, -100), (DAY, 250)]
    assert [balance for _, balance in balance_history(changes)] == [1000, 900, 1150]


def test_every_point_is_drawn_from_left_to_right_with_the_highest_balance_on_top():
    frame = Frame()
    svg = bankroll_svg(history(1000, 900, 1150, 1100, 800), frame=frame)
    points = points_of(svg)
    assert len(points) == 5
    xs = [x for x, _ in points]
    assert xs[0] == frame.left and xs[-1] == frame.left + frame.plot_width
    assert xs == sorted(xs) and xs[1] - xs[0] == pytest.approx(xs[2] - xs[1], abs=0.1)
    ys = [y for _, y in points]
    assert ys[2] == frame.top  # 1150, the highest
    assert ys[4] == frame.top + frame.plot_height  # 800, the lowest
    assert ys[0] == pytest.approx(frame.top + frame.plot_height * (1150 - 1000) / 350, abs=0.1)


def test_the_svg_is_an_accessible_image_with_axes_labels_and_a_title():
    svg = bankroll_svg(history(1000, 900, 1150, 1100, 800))
    root = ET.fromstring(svg)
    assert root.get("role") == "img"
    assert root.get("viewBox") == "0 0 640 220"
    label = root.get("aria-label")
    assert label == (
        "Bankroll over time: from 1,000 chips on 2025-03-01 to 800 chips on 2025-03-05; lowest 800, highest 1,150."
    )
    assert root.find(f"{SVG}title").text == label
    texts = {node.get("class"): node.text for node in root.iter(f"{SVG}text")}
    assert texts == {"max": "1,150", "min": "800", "first-date": "2025-03-01", "last-date": "2025-03-05"}
    assert len(root.find(f"{SVG}g").findall(f"{SVG}line")) == 2


def test_a_long_history_keeps_at_most_300_points_with_its_ends_and_extremes():
    balances = [1000 + (n % 97) * 3 - (n % 13) * 7 for n in range(50_000)]
    balances[12_345] = 5  # the lowest, somewhere in the middle
    balances[40_000] = 9_999  # the highest
    balances[-1] = 1_234
    kept = downsample([(DAY, b) for b in balances])
    assert len(kept) <= 300
    indexes = [index for index, _ in kept]
    assert indexes == sorted(indexes) and len(set(indexes)) == len(indexes)
    assert {0, 12_345, 40_000, 49_999} <= set(indexes)
    svg = bankroll_svg([(DAY, b) for b in balances])
    points = points_of(svg)
    assert len(points) == len(kept)
    frame = Frame()
    assert min(y for _, y in points) == frame.top and max(y for _, y in points) == frame.top + frame.plot_height


def test_a_short_history_is_not_downsampled():
    points = history(*range(300))
    assert [index for index, _ in downsample(points)] == list(range(300))


def test_a_single_point_is_a_dot_in_the_middle():
    frame = Frame()
    root = ET.fromstring(bankroll_svg(history(1000), frame=frame))
    assert root.find(f"{SVG}polyline") is None
    dot = root.find(f"{SVG}circle")
    assert (float(dot.get("cx")), float(dot.get("cy"))) == (
        frame.left + frame.plot_width / 2,
        frame.top + frame.plot_height / 2,
    )
    assert root.get("aria-label") == "Bankroll over time: 1,000 chips on 2025-03-01."


def test_an_empty_history_draws_nothing():
    assert bankroll_svg([]) == ""
    assert summary([]) == "Bankroll over time: no transfers yet."


# --- The profile page -----------------------------------------------------------------------


def test_a_buy_in_is_no_loss_and_a_session_shows_its_result_at_the_cash_out():
    moves = [
        Move(DAY, 1000),  # the sign-up grant
        Move(DAY, -100, seat=7),  # buy-in at seat account 7
        Move(DAY, -50, seat=8),  # buy-in at another seat
        Move(DAY, 130, seat=7),  # cash-out: the session at 7 won 30
        Move(DAY, -25),  # an admin's correction
    ]
    assert [chips for _, chips in chips_history(moves)] == [1000, 1000, 1000, 1030, 1005]


def test_the_last_point_is_what_the_player_holds_now_when_play_changed_it():
    moves = [Move(DAY, 1000), Move(DAY, -100, seat=7)]
    later = DAY + dt.timedelta(hours=1)
    # Seat 7 now holds 60: 40 lost since the buy-in.
    assert chips_history(moves, now=later, at_tables=60) == [(DAY, 1000), (DAY, 1000), (later, 960)]
    # Nothing lost or won yet: no extra point.
    assert chips_history(moves, now=later, at_tables=100) == [(DAY, 1000), (DAY, 1000)]
    assert chips_history([], now=later, at_tables=0) == []


@pytest.mark.django_db
def test_the_profile_charts_the_players_chips_above_the_statement(client, alice, bob):
    seat = ledger.open_seat_account(alice, "Boardwalk seat 2")
    ledger.buy_in(user=alice, seat_account=seat, amount=300)
    ledger.cash_out(seat_account=seat)
    client.force_login(alice)
    html = client.get(reverse("profile")).content.decode()
    svg = re.search(r"<svg .*?</svg>", html, re.S).group(0)
    root = ET.fromstring(svg)
    today = timezone.localdate().isoformat()
    # The buy-in of 300 is no dip: the chips only moved to a seat and back.
    assert root.get("aria-label") == (
        f"Your chips over time: from 1,000 chips on {today} to 1,000 chips on {today}; lowest 1,000, highest 1,000."
    )
    assert len(points_of(svg)) == 3
    assert html.index("Your chips over time") < html.index("<h2>Statement</h2>")


@pytest.mark.django_db
def test_chips_lost_at_a_table_show_on_the_chart_before_the_player_leaves(client, alice):
    from tables.models import RuleProfile
    from tables.play import services
    from tests.tables.conftest import make_table

    table = make_table(RuleProfile.ATLANTIC_CITY_MULTI)
    services.do_sit(table.pk, alice, 1, 200)
    seat = table.seats.get(number=1).account
    ledger.transfer(source=seat, destination=ledger.house_account(), amount=30, kind="bet")
    client.force_login(alice)
    svg = re.search(r"<svg .*?</svg>", client.get(reverse("profile")).content.decode(), re.S).group(0)
    assert "to 970 chips" in ET.fromstring(svg).get("aria-label")
    assert len(points_of(svg)) == 3  # the grant, the buy-in, and now


@pytest.mark.django_db
def test_the_chart_and_the_seats_cost_two_queries_and_htmx_pages_of_the_statement_skip_them(client, alice):
    client.force_login(alice)
    with CaptureQueriesContext(connection) as page:
        assert "<svg" in client.get(reverse("profile")).content.decode()
    with CaptureQueriesContext(connection) as partial:
        response = client.get(reverse("profile"), headers={"HX-Request": "true"})
    assert "<svg" not in response.content.decode()
    # The statement in one query for the chart, the seats holding chips in another,
    # and "Your play" in two (the coach's figures, the costliest mistakes).
    assert len(page.captured_queries) - len(partial.captured_queries) == 4
