import pytest
from django.core.management import call_command
from django.urls import reverse

from tables.models import RuleProfile, Table

pytestmark = pytest.mark.django_db


def test_it_creates_one_demo_table_per_rule_profile():
    call_command("seed_demo_tables")
    assert sorted(Table.objects.values_list("profile", flat=True)) == sorted(RuleProfile.values)


def test_it_is_idempotent_and_keeps_what_an_admin_changed():
    call_command("seed_demo_tables")
    Table.objects.filter(profile=RuleProfile.INTERNET_6).update(max_bet=500)
    call_command("seed_demo_tables")
    assert Table.objects.count() == 5
    assert Table.objects.get(profile=RuleProfile.INTERNET_6).max_bet == 500


def test_the_home_page_lists_the_tables(client):
    call_command("seed_demo_tables")
    response = client.get(reverse("home"))
    assert response.status_code == 200
    for table in Table.objects.all():
        assert table.name.encode() in response.content
