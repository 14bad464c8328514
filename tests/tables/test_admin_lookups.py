"""The admin filters only on what its list filters offer: a live shoe's seed and a live round's cards stay secret.

As a staff member who may only view shoes and rounds (the probe of issue 15).
"""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.urls import reverse

from casino.admin_lookups import StrictLookups
from tables.models import Round, RoundPhase, Shoe
from tables.play import services
from tests.tables.conftest import open_next_window
from tests.tables.test_verify_shoe import version

pytestmark = pytest.mark.django_db

SECRETS = {Shoe: {"seed"}, Round: {"state"}}


@pytest.fixture
def viewer(client, bob):
    """bob, staff with only the view permissions for shoes and rounds."""
    bob.is_staff = True
    bob.save()
    bob.user_permissions.set(Permission.objects.filter(codename__in=["view_shoe", "view_round"]))
    client.force_login(bob)
    return client


@pytest.fixture
def live_round(multi_table, alice) -> Round:
    services.do_sit(multi_table.pk, alice, 1)
    # The shoe is a real, seeded one (the test needs its seed): a natural settles a round at
    # once, so deal again until a round waits for alice.
    for _ in range(20):
        open_next_window(multi_table)
        services.do_act(multi_table.pk, alice, "bet", seat=1, amount=10, version=version(multi_table))
        multi_table.refresh_from_db()
        round_row = multi_table.current_round
        if round_row.phase != RoundPhase.SETTLED:
            return round_row
    raise AssertionError("twenty naturals in a row")


def test_it_refuses_to_filter_a_live_shoe_by_its_seed(viewer, live_round):
    shoe = live_round.shoe
    url = reverse("admin:tables_shoe_changelist")
    assert viewer.get(url).status_code == 200
    for prefix in (shoe.seed[:1], "x"):
        response = viewer.get(url, {"id": shoe.pk, "seed__startswith": prefix})
        assert response.status_code == 400
    assert viewer.get(url, {"seed": shoe.seed}).status_code == 400


def test_it_refuses_to_filter_a_live_round_by_its_hole_card(viewer, live_round):
    hole = live_round.state["dealer"][1]
    url = reverse("admin:tables_round_changelist")
    for card in (hole, "TS"):
        assert viewer.get(url, {"id": live_round.pk, "state__dealer__1": card}).status_code == 400
    assert viewer.get(url, {"state__contains": hole}).status_code == 400


def test_it_refuses_a_filter_on_a_field_no_list_filter_offers(viewer, live_round):
    assert viewer.get(reverse("admin:tables_shoe_changelist"), {"commitment__startswith": "a"}).status_code == 400
    assert viewer.get(reverse("admin:tables_round_changelist"), {"shoe__seed__startswith": "a"}).status_code == 400


def test_it_still_filters_by_what_the_list_filters_and_links_offer(viewer, live_round):
    # The table may hold settled rounds dealt before the live one (naturals): each filter gives what it selects.
    rounds = reverse("admin:tables_round_changelist")
    for params, selected in (
        ({"table__id__exact": live_round.table_id}, Round.objects.filter(table_id=live_round.table_id)),
        ({"profile__exact": live_round.profile}, Round.objects.filter(profile=live_round.profile)),
        ({"phase__exact": live_round.phase}, Round.objects.filter(phase=live_round.phase)),
        ({"settled_at__isnull": "True"}, Round.objects.filter(settled_at__isnull=True)),
        ({"shoe__id__exact": live_round.shoe_id}, Round.objects.filter(shoe_id=live_round.shoe_id)),
    ):
        response = viewer.get(rounds, params)
        assert response.status_code == 200, params
        shown = {row.pk for row in response.context["cl"].result_list}
        assert shown == set(selected.values_list("pk", flat=True)), params
    # The player filter's parameter is accepted (it lists only players with settled rounds, so here it offers none).
    assert viewer.get(rounds, {"player": "1"}).status_code == 200
    # The live round is the only one not settled: the phase filters pick it alone.
    assert {row.pk for row in viewer.get(rounds, {"settled_at__isnull": "True"}).context["cl"].result_list} == {live_round.pk}
    shoes = viewer.get(reverse("admin:tables_shoe_changelist"), {"table__id__exact": live_round.table_id})
    assert [row.pk for row in shoes.context["cl"].result_list] == [live_round.shoe_id]


def test_it_never_sorts_by_a_secret_column(viewer, live_round):
    url = reverse("admin:tables_shoe_changelist")
    # ?o= names list_display columns by index: none of them is the seed, and an unknown index is ignored.
    for column in ("0", "-1", "2", "99", "seed", "-seed"):
        assert viewer.get(url, {"o": column}).status_code == 200
    for model, fields in SECRETS.items():
        model_admin = admin.site._registry[model]
        request = viewer.get(url).wsgi_request
        shown = {name for name in model_admin.get_list_display(request) if isinstance(name, str)}
        sortable = set(model_admin.get_sortable_by(request))
        searched = {name.lstrip("^=@").split("__")[0] for name in model_admin.get_search_fields(request)}
        ordering = {name.lstrip("-") for name in model_admin.get_ordering(request) or ()}
        assert fields.isdisjoint(shown | sortable | searched | ordering | set(model_admin.get_fields(request)))
        assert not model_admin.get_actions(request)  # nothing exports rows


def test_it_makes_every_registered_admin_strict():
    loose = [type(model_admin).__name__ for model_admin in admin.site._registry.values() if not isinstance(model_admin, StrictLookups)]
    assert loose == []


def test_it_refuses_to_filter_users_by_their_password_hash(client, alice, carol):
    carol.is_staff = True
    carol.save()
    carol.user_permissions.set(Permission.objects.filter(codename="view_user"))
    client.force_login(carol)
    url = reverse("admin:accounts_user_changelist")
    assert client.get(url, {"is_active__exact": "1"}).status_code == 200
    assert client.get(url, {"password__startswith": "pbkdf2"}).status_code == 400
