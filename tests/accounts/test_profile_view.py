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
    assert partial.content.count(b"<tr>") == 2  # the header and the one oldest transfer
