import re

import pytest
from django.test import override_settings
from django.urls import reverse

from accounts import ledger

pytestmark = pytest.mark.django_db


def test_it_needs_a_signed_in_player(client):
    response = client.get(reverse("profile"))
    assert response.status_code == 302


def test_it_shows_the_bankroll_and_the_sign_up_grant(client, alice):
    client.force_login(alice)
    response = client.get(reverse("profile"))
    assert response.status_code == 200
    statement = response.context["page"]
    assert [(row.kind, row.change, row.balance_after) for row in statement] == [("signup_grant", 1000, 1000)]
    assert b"Sign-up grant" in response.content


def test_it_lists_every_transfer_with_a_running_balance(client, alice, bob):
    seat = ledger.open_seat_account(alice, "Boardwalk seat 2")
    ledger.buy_in(user=alice, seat_account=seat, amount=100)
    ledger.cash_out(seat_account=seat)
    ledger.admin_adjust(user=alice, amount=-50, reason="Duplicate grant", admin=bob)
    client.force_login(alice)
    rows = list(client.get(reverse("profile")).context["page"])
    assert [(row.kind, row.change, row.balance_after) for row in rows] == [
        ("correction", -50, 950),
        ("cash_out", 100, 1000),
        ("buy_in", -100, 900),
        ("signup_grant", 1000, 1000),
    ]
    assert rows[2].counterparty.label == "Boardwalk seat 2"


def test_it_shows_only_the_players_own_transfers(client, alice, bob):
    client.force_login(alice)
    rows = list(client.get(reverse("profile")).context["page"])
    assert all(row.destination.user_id == alice.pk for row in rows)
    assert len(rows) == 1


@override_settings(STATEMENT_PAGE_SIZE=2)
def test_it_pages_the_statement_and_serves_the_partial_to_htmx(client, alice, bob):
    for n in range(4):
        ledger.admin_adjust(user=alice, amount=n + 1, reason=f"Gift {n}", admin=bob)
    client.force_login(alice)
    first = client.get(reverse("profile"))
    assert first.context["page"].paginator.num_pages == 3
    assert b'hx-get="?page=2"' in first.content
    partial = client.get(reverse("profile") + "?page=3", headers={"HX-Request": "true"})
    assert partial.status_code == 200
    assert partial.content.lstrip().startswith(b'<div id="statement">')
    assert b"<html" not in partial.content
    assert b"Sign-up grant" in partial.content
    assert partial.content.count(b"<tr") == 2  # the header and the one oldest transfer


def test_it_shows_the_chips_at_the_tables_beside_the_bankroll(client, alice):
    from tables.models import RuleProfile
    from tables.play import services
    from tests.tables.conftest import make_table

    boardwalk = make_table(RuleProfile.ATLANTIC_CITY_MULTI, name="Boardwalk")
    rocket = make_table(RuleProfile.ROCKET_ACADEMY, name="Rocket")
    services.do_sit(boardwalk.pk, alice, 2, 35)
    services.do_sit(rocket.pk, alice, 1, 1000 - 35 - 40)
    services.do_sit(rocket.pk, alice, 3, 40)
    services.do_leave(rocket.pk, alice, 3)  # cashed out: 40 back in the bankroll, nothing left at that seat
    client.force_login(alice)
    html = client.get(reverse("profile")).content.decode()
    figures = dict(re.findall(r"<dt>([\w ]+)</dt><dd[^>]*>(?:<strong>)?([\d,]+)", html))
    assert figures == {"Bankroll": "40", "At tables": "960", "In all": "1,000"}
    stacks = re.search(r'<ul class="seat-stacks".*?</ul>', html, re.S).group(0)
    assert re.findall(r'<a href="/tables/(\d+)/">(\w+)</a>, seat (\d): <strong>([\d,]+)</strong>', stacks) == [
        (str(boardwalk.pk), "Boardwalk", "2", "35"),
        (str(rocket.pk), "Rocket", "1", "925"),
    ]


@pytest.mark.django_db
def test_your_play_shows_accuracy_ev_given_away_per_100_hands_and_the_costliest_mistakes(client, alice, bob):
    from tables.models import RuleProfile
    from tests.tables.conftest import make_table
    from tests.tables.test_history_view import history_row, reviewed

    table = make_table(RuleProfile.ATLANTIC_CITY)
    small = reviewed(history_row(alice, table), 0, 0.4)
    big = reviewed(history_row(alice, table), 8.6)
    reviewed(history_row(alice, table), 0, 0)
    reviewed(history_row(bob, table), 20.0)  # bob's mistakes are not alice's
    client.force_login(alice)
    html = client.get(reverse("profile")).content.decode()
    panel = re.search(r'<section class="panel your-play".*?</section>', html, re.S).group(0)
    assert re.search(r'data-play="accuracy">60\.0 %', panel)
    assert 'data-play="per-100">300.00<' in panel  # 9.0 chips over 3 hands
    links = re.findall(r'href="/history/(\d+)/\?step=(\d+)"', panel)
    assert links == [(str(big.round_id), "6"), (str(small.round_id), "7")]
    assert "cost 8.60 chips" in panel and "20.00" not in panel


@pytest.mark.django_db
def test_your_play_says_so_when_nothing_is_reviewed_yet(client, alice):
    client.force_login(alice)
    assert "No decisions reviewed yet" in client.get(reverse("profile")).content.decode()
