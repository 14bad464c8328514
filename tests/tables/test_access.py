"""tables.play.access: who may see a table and who may sit at it, answered in one place."""

from __future__ import annotations

import pytest

from tables.models import RuleProfile
from tables.play import access, lobby
from tests.tables.conftest import make_table

pytestmark = pytest.mark.django_db


def test_it_lets_everyone_watch_a_public_table(multi_table, alice):
    assert access.access_table(alice, multi_table.pk) == multi_table
    assert access.access_table(None, multi_table.pk) == multi_table


def test_it_keeps_a_private_table_to_its_owner(alice, bob):
    table = lobby.solo_table_for(alice)

    assert access.access_table(alice, table.pk) == table
    with pytest.raises(access.NoSuchTable) as refused:
        access.access_table(bob, table.pk)
    assert refused.value.code == "private"
    with pytest.raises(access.NoSuchTable):
        access.check_may_watch(None, table.pk)


def test_it_refuses_a_table_that_does_not_exist(alice):
    with pytest.raises(access.NoSuchTable) as refused:
        access.access_table(alice, 999_999)
    assert refused.value.code == "no_table"


@pytest.mark.parametrize(
    ("profile", "seats_held", "may_sit"),
    [
        (RuleProfile.ATLANTIC_CITY_MULTI, 0, True),
        (RuleProfile.ATLANTIC_CITY_MULTI, 1, False),  # RULES.md: one seat each
        (RuleProfile.ROCKET_ACADEMY, 1, True),  # RULES.md: one account may hold several seats
        (RuleProfile.ROCKET_ACADEMY, 2, True),
    ],
)
def test_it_counts_the_seats_a_player_holds_against_the_profile(alice, profile, seats_held, may_sit):
    table = make_table(profile)

    assert access.may_sit(alice.pk, table, seats_held) is may_sit
    assert access.may_sit(None, table, 0) is False  # a visitor signs in first
