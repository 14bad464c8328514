"""POST /tables/rocket/: a player's Rocket Academy tables, at most TABLES_PER_PLAYER of them (issue 15)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tables.models import RuleProfile, Table
from tables.play import lobby, services
from tests.tables.conftest import make_table

pytestmark = pytest.mark.django_db


def rockets_of(player) -> list[Table]:
    return list(Table.objects.filter(created_by=player, profile=RuleProfile.ROCKET_ACADEMY).order_by("id"))


def create(client, seats: int = 3):
    return client.post(reverse("create_rocket_table"), {"seats": str(seats)})


def test_it_reuses_an_empty_table_of_yours_before_making_another(client, alice):
    client.force_login(alice)
    first = create(client)
    again = create(client)
    assert first["Location"] == again["Location"]
    assert len(rockets_of(alice)) == 1


def test_it_makes_another_when_yours_have_players(client, alice, bob):
    client.force_login(alice)
    create(client)
    services.do_sit(rockets_of(alice)[0].pk, bob, 1)
    create(client)
    assert [t.name for t in rockets_of(alice)] == ["alice's Rocket Academy", "alice's Rocket Academy #2"]


@pytest.mark.parametrize("limit", [1, 3])
def test_it_refuses_a_table_over_the_limit_with_a_clear_message_and_makes_nothing(client, alice, bob, settings, limit):
    settings.TABLES_PER_PLAYER = limit
    client.force_login(alice)
    for _ in range(limit):
        create(client)
        services.do_sit(rockets_of(alice)[-1].pk, bob, 1)
    response = create(client)
    assert response.status_code == 409
    html = response.content.decode()
    errors = re.search(r'<div class="errors" role="alert">(.*?)</div>', html, re.DOTALL).group(1)
    assert f"You already have {limit} Rocket Academy table" in errors
    assert len(rockets_of(alice)) == limit
    # The whole lobby, her tables listed.
    assert all(f'id="mine-{t.pk}"' in html for t in rockets_of(alice))


def test_at_the_limit_an_empty_table_of_another_size_is_resized(client, alice, bob, settings):
    settings.TABLES_PER_PLAYER = 2
    client.force_login(alice)
    create(client, 3)
    services.do_sit(rockets_of(alice)[0].pk, bob, 1)
    create(client, 2)  # empty
    response = create(client, 5)
    resized = rockets_of(alice)[1]
    assert response["Location"] == reverse("table", args=[resized.pk])
    assert len(rockets_of(alice)) == 2
    assert resized.seat_count == 5
    assert list(resized.seats.values_list("number", flat=True)) == [1, 2, 3, 4, 5]
    create(client, 1)  # and smaller again: the spare seats go
    assert list(resized.seats.values_list("number", flat=True)) == [1]


def test_naming_a_new_table_never_fails(client, alice):
    # 99 tables already carry the names the lobby would try (renamed by an admin, say).
    make_table(RuleProfile.INTERNET_7, name="alice's Rocket Academy")
    for n in range(2, 100):
        make_table(RuleProfile.INTERNET_7, name=f"alice's Rocket Academy #{n}")
    client.force_login(alice)
    response = create(client)
    assert response.status_code == 302
    [table] = rockets_of(alice)
    assert re.fullmatch(r"alice's Rocket Academy #[0-9a-f]{8}", table.name)


def test_a_long_name_is_cut_to_fit_with_its_number(alice, bob):
    long_base = "x" * 100
    first = lobby._create_named(long_base, profile=RuleProfile.INTERNET_7, seat_count=7)
    second = lobby._create_named(long_base, profile=RuleProfile.INTERNET_7, seat_count=7)
    assert (first.name, second.name) == ("x" * 80, "x" * 77 + " #2")
