import pytest
from django.urls import reverse

from accounts import balances, ledger

pytestmark = pytest.mark.django_db


def test_it_offers_refill_chips_only_to_a_broke_player(client, alice):
    client.force_login(alice)
    assert b"Refill chips" not in client.get(reverse("profile")).content
    ledger.admin_adjust(user=alice, amount=-950, reason="Lost elsewhere", admin=alice)
    assert b"Refill chips" in client.get(reverse("profile")).content


def test_it_refills_and_says_so(client, alice):
    ledger.admin_adjust(user=alice, amount=-950, reason="Lost elsewhere", admin=alice)
    client.force_login(alice)
    response = client.post(reverse("refill"), follow=True)
    assert b"Refilled: 950 chips added to your bankroll." in response.content
    assert balances.chips_of(alice.pk)[0] == 1000
    response = client.post(reverse("refill"), follow=True)
    assert b"You hold 1,000 chips" in response.content


def test_it_shows_when_the_next_refill_comes(client, alice):
    ledger.admin_adjust(user=alice, amount=-950, reason="Lost elsewhere", admin=alice)
    client.force_login(alice)
    client.post(reverse("refill"))
    ledger.admin_adjust(user=alice, amount=-1000, reason="Lost elsewhere", admin=alice)
    page = client.get(reverse("profile")).content.decode()
    assert "Your next refill is from" in page
    assert "Refill chips</button>" not in page


def test_it_takes_a_post_from_a_signed_in_player(client, alice):
    assert client.post(reverse("refill")).status_code == 302
    assert balances.chips_of(alice.pk)[0] == 1000
    client.force_login(alice)
    assert client.get(reverse("refill")).status_code == 405
