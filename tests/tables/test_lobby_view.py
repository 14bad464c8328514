import pytest
from django.urls import reverse

from tables.engine import PROFILES
from tables.models import RuleProfile, Table
from tables.play import services
from tests.tables.conftest import make_table

pytestmark = pytest.mark.django_db


def test_the_rule_profiles_are_the_engines():
    assert set(RuleProfile.values) == set(PROFILES)


def test_it_lists_every_public_table_with_its_rules_limits_and_seats(client, alice, rig):
    table = make_table(RuleProfile.INTERNET_6, min_bet=2, max_bet=50)
    services.do_sit(table.pk, alice, 4)
    private = make_table(RuleProfile.ATLANTIC_CITY, name="hidden", owner=alice)
    response = client.get(reverse("lobby"))
    assert response.status_code == 200
    text = response.content.decode()
    assert table.name in text and private.name not in text
    assert "Internet casino, six seats" in text
    assert "bets 2–50" in text
    assert "1 of 6 seats taken, 5 free" in text
    assert "between rounds" in text
    for line in PROFILES["internet-6"].rule_lines():
        assert line in text or line.replace("'", "&#x27;") in text


def test_it_says_when_a_round_is_on(client, alice, rig):
    rig([])
    table = make_table(RuleProfile.ATLANTIC_CITY)
    services.do_sit(table.pk, alice, 1)
    assert "round in play" in client.get(reverse("lobby")).content.decode()


def test_play_solo_makes_one_private_atlantic_city_table_per_player(client, alice):
    client.force_login(alice)
    first = client.post(reverse("play_solo"))
    second = client.post(reverse("play_solo"))
    table = Table.objects.get(owner=alice)
    assert first["Location"] == second["Location"] == reverse("table", args=[table.pk])
    assert (table.profile, table.seat_count) == (RuleProfile.ATLANTIC_CITY, 1)


def test_play_solo_needs_a_signed_in_player_and_a_post(client, alice):
    assert client.post(reverse("play_solo")).status_code == 302  # to the login page
    client.force_login(alice)
    assert client.get(reverse("play_solo")).status_code == 405
    assert not Table.objects.exists()


def test_it_creates_a_rocket_academy_table_with_1_to_7_seats(client, alice):
    client.force_login(alice)
    response = client.post(reverse("create_rocket_table"), {"seats": "4"})
    table = Table.objects.get(profile=RuleProfile.ROCKET_ACADEMY)
    assert response["Location"] == reverse("table", args=[table.pk])
    assert table.seats.count() == 4


@pytest.mark.parametrize("seats", ["0", "8", "two", ""])
def test_it_refuses_a_rocket_table_of_the_wrong_size(client, alice, seats):
    client.force_login(alice)
    response = client.post(reverse("create_rocket_table"), {"seats": seats})
    assert response.status_code == 400
    assert b"field-errors" in response.content
    assert not Table.objects.exists()
