"""Migration 0007: tables opened before Table.created_by existed get their creator once."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from tables.models import RuleProfile, Table
from tests.tables.conftest import make_table

pytestmark = pytest.mark.django_db

migration = importlib.import_module("tables.migrations.0007_table_created_by")


def test_it_fills_in_solo_tables_by_owner_and_rocket_tables_by_the_name_they_were_given(alice, bob):
    solo = make_table(RuleProfile.ATLANTIC_CITY, name="alice's solo table", owner=alice)
    rocket = make_table(RuleProfile.ROCKET_ACADEMY, name="bob's Rocket Academy")
    second = make_table(RuleProfile.ROCKET_ACADEMY, name="bob's Rocket Academy #2")
    house = make_table(RuleProfile.ROCKET_ACADEMY, name="Rocket Academy")
    stranger = make_table(RuleProfile.ROCKET_ACADEMY, name="nobody's Rocket Academy")
    lookalike = make_table(RuleProfile.INTERNET_7, name="alice's Rocket Academy")
    migration.fill_in_creators(apps, None)
    found = dict(Table.objects.values_list("name", "created_by__username"))
    assert found == {
        solo.name: "alice",
        rocket.name: "bob",
        second.name: "bob",
        house.name: None,
        stranger.name: None,  # no such player
        lookalike.name: None,  # not a Rocket Academy table
    }
