"""The admin's rounds and shoes: read-only history with events, results and transfers, and links both ways."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import Transfer
from tables.models import Round, Shoe
from tables.play import services
from tests.tables.conftest import make_table, open_next_window
from tests.tables.test_verify_shoe import play_out, play_solo_round, version

pytestmark = pytest.mark.django_db


def changelist(client, **params) -> list[int]:
    response = client.get(reverse("admin:tables_round_changelist"), params)
    assert response.status_code == 200
    return sorted(row.pk for row in response.context["cl"].result_list)


def test_a_rounds_page_shows_its_events_in_a_table_with_every_card(staff, solo_table, alice):
    round_row = play_solo_round(solo_table, alice)
    response = staff.get(reverse("admin:tables_round_change", args=[round_row.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert '<table class="round-events">' in html
    assert "<th scope=\"col\">Seq</th>" in html and "<th scope=\"col\">Outcome</th>" in html
    events = round_row.state["events"]
    assert html.count("<tr><td>") == len(events)
    hole = next(event["card"] for event in events if event["kind"] == "deal_card" and not event["face_up"])
    assert "(hole)" in html and "face down" not in html
    assert hole[0] in html
    assert "<td>round_settled</td>" in html


def test_a_rounds_page_never_shows_the_live_shoe_or_an_unretired_seed(staff, multi_table, alice, bob):
    services.do_sit(multi_table.pk, alice, 1)
    open_next_window(multi_table)
    services.do_act(multi_table.pk, alice, "bet", seat=1, amount=10, version=version(multi_table))
    multi_table.refresh_from_db()
    round_row = multi_table.current_round
    shoe = Shoe.objects.get()
    html = staff.get(reverse("admin:tables_round_change", args=[round_row.pk])).content.decode()
    assert shoe.seed not in html
    if round_row.phase != "settled":
        assert "face down" in html and "(hole)" not in html
    shoe_html = staff.get(reverse("admin:tables_shoe_change", args=[shoe.pk])).content.decode()
    assert shoe.seed not in shoe_html
    assert "Secret while the shoe is in use." in shoe_html


def test_a_retired_shoes_page_reveals_its_seed_and_links_to_its_verification(staff, solo_table, alice, bob):
    shoe = play_solo_round(solo_table, alice).shoe
    play_solo_round(make_table("atlantic-city", name="Bob's solo"), bob)  # another shoe's round
    shoe.refresh_from_db()
    html = staff.get(reverse("admin:tables_shoe_change", args=[shoe.pk])).content.decode()
    assert shoe.seed in html
    assert f'href="{reverse("verify_shoe", args=[shoe.pk])}"' in html
    listing = staff.get(reverse("admin:tables_shoe_changelist")).content.decode()
    assert f'href="{reverse("verify_shoe", args=[shoe.pk])}"' in listing
    assert f"?shoe__id__exact={shoe.pk}" in html
    assert changelist(staff, shoe__id__exact=shoe.pk) == [shoe.rounds.get().pk]


def test_a_rounds_page_shows_each_seats_result_and_its_ledger_transfers_inline(staff, solo_table, alice):
    round_row = play_solo_round(solo_table, alice)
    response = staff.get(reverse("admin:tables_round_change", args=[round_row.pk]))
    inlines = {formset.opts.__class__.__name__: formset for formset in response.context["inline_admin_formsets"]}
    seats = inlines["RoundSeatInline"]
    transfers = inlines["TransferInline"]
    assert [form.original.player.username for form in seats] == ["alice"]
    assert sorted(form.original.pk for form in transfers) == sorted(
        Transfer.objects.filter(round=round_row).values_list("pk", flat=True)
    )
    assert len(list(transfers)) >= 1  # the bet at least


def test_a_rounds_page_links_to_its_transfers_and_a_transfer_links_back(staff, solo_table, alice):
    round_row = play_solo_round(solo_table, alice)
    html = staff.get(reverse("admin:tables_round_change", args=[round_row.pk])).content.decode()
    link = f'{reverse("admin:accounts_transfer_changelist")}?round__id__exact={round_row.pk}'
    assert f'href="{link}"' in html
    listed = staff.get(link)
    assert listed.status_code == 200
    mine = set(Transfer.objects.filter(round=round_row).values_list("pk", flat=True))
    assert {row.pk for row in listed.context["cl"].result_list} == mine
    assert Transfer.objects.exclude(pk__in=mine).exists()  # the sign-up grant, the buy-in: filtered out
    transfer = Transfer.objects.filter(round=round_row).first()
    back = staff.get(reverse("admin:accounts_transfer_change", args=[transfer.pk])).content.decode()
    assert f'href="{reverse("admin:tables_round_change", args=[round_row.pk])}"' in back


def test_rounds_are_read_only(staff, solo_table, alice):
    round_row = play_solo_round(solo_table, alice)
    response = staff.post(reverse("admin:tables_round_change", args=[round_row.pk]), {"number": 99})
    assert response.status_code == 403
    assert Round.objects.get(pk=round_row.pk).number == 1
    assert staff.post(reverse("admin:tables_round_delete", args=[round_row.pk]), {"post": "yes"}).status_code == 403


def played_at_two_tables(alice, bob) -> tuple[Round, Round, Round]:
    solo = make_table("atlantic-city", name="Alice's solo")
    alice_round = play_solo_round(solo, alice)
    other = make_table("atlantic-city", name="Bob's solo")
    bob_round = play_solo_round(other, bob)
    multi = make_table("atlantic-city-multi", name="Boardwalk")
    services.do_sit(multi.pk, alice, 1)
    services.do_sit(multi.pk, bob, 2)
    open_next_window(multi)
    services.do_act(multi.pk, alice, "bet", seat=1, amount=10, version=version(multi))
    services.do_act(multi.pk, bob, "bet", seat=2, amount=10, version=version(multi))
    shared = play_out(multi, {1: alice, 2: bob})
    return alice_round, bob_round, shared


def test_rounds_filter_by_player_table_and_profile(staff, alice, bob):
    alice_round, bob_round, shared = played_at_two_tables(alice, bob)
    assert changelist(staff, player=alice.pk) == sorted([alice_round.pk, shared.pk])
    assert changelist(staff, player=bob.pk) == sorted([bob_round.pk, shared.pk])
    assert changelist(staff, table__id__exact=shared.table_id) == [shared.pk]
    assert changelist(staff, profile__exact="atlantic-city") == sorted([alice_round.pk, bob_round.pk])


def test_rounds_filter_by_settled_date(staff, alice, bob):
    alice_round, bob_round, shared = played_at_two_tables(alice, bob)
    Round.objects.filter(pk=bob_round.pk).update(settled_at=timezone.now() - dt.timedelta(days=40))
    # The filter's own "Today" link: local midnight to the next, time zone included.
    today = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
    params = {"settled_at__gte": str(today), "settled_at__lt": str(today + dt.timedelta(days=1))}
    assert changelist(staff, **params) == sorted([alice_round.pk, shared.pk])


def test_rounds_are_found_by_player_name_once_each(staff, alice, bob):
    alice_round, bob_round, shared = played_at_two_tables(alice, bob)
    assert changelist(staff, q="bob") == sorted([bob_round.pk, shared.pk])
    assert changelist(staff, q="alice") == sorted([alice_round.pk, shared.pk])
