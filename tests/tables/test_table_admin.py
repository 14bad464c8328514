"""The admin's table page: tuning a live table never undoes play, and viewers see the new settings."""

from __future__ import annotations

from django.urls import reverse

from tables.live.pieces import whole_table
from tables.models import Table
from tables.play import services
from tests.tables.conftest import open_next_window
from tests.tables.test_verify_shoe import version


def edit_form(table: Table, **changes) -> dict[str, object]:
    """The change form as the admin page posts it, with the seat inline's management fields."""
    seats = list(table.seats.order_by("number"))
    data: dict[str, object] = {
        "name": table.name,
        "seat_count": table.seat_count,
        "min_bet": table.min_bet,
        "max_bet": table.max_bet,
        "default_bet": table.default_bet,
        "betting_seconds": table.betting_seconds,
        "insurance_seconds": table.insurance_seconds,
        "decision_seconds": table.decision_seconds,
        "pause_seconds": table.pause_seconds,
        "owner": table.owner_id or "",
        "seats-TOTAL_FORMS": len(seats),
        "seats-INITIAL_FORMS": len(seats),
        "seats-MIN_NUM_FORMS": 0,
        "seats-MAX_NUM_FORMS": 1000,
    }
    if table.top_up:
        data["top_up"] = "on"
    for i, seat in enumerate(seats):
        data[f"seats-{i}-id"] = seat.pk
        data[f"seats-{i}-table"] = table.pk
    data.update(changes)
    return data


def test_it_saves_an_edit_made_while_a_round_was_being_played_without_undoing_the_round(staff, multi_table, alice):
    services.do_sit(multi_table.pk, alice, 1)
    open_next_window(multi_table)
    # The admin opens the form, then alice bets before it is saved.
    form = edit_form(Table.objects.get(pk=multi_table.pk), max_bet=50)
    services.do_act(multi_table.pk, alice, "bet", seat=1, amount=10, version=version(multi_table))
    played = Table.objects.get(pk=multi_table.pk)

    response = staff.post(reverse("admin:tables_table_change", args=[multi_table.pk]), form)

    assert response.status_code == 302
    table = Table.objects.get(pk=multi_table.pk)
    assert table.max_bet == 50
    assert table.version == played.version + 1
    assert (table.current_round_id, table.deadline, table.decisions) == (
        played.current_round_id,
        played.deadline,
        played.decisions,
    )


def test_it_shows_viewers_the_new_limits_at_once(staff, multi_table, alice, bob):
    services.do_sit(multi_table.pk, alice, 1)
    before, _ = whole_table(multi_table.pk, bob)
    assert 'name="buy_in" value="100" min="1"' in before

    form = edit_form(Table.objects.get(pk=multi_table.pk), min_bet=5)
    staff.post(reverse("admin:tables_table_change", args=[multi_table.pk]), form)

    after, _ = whole_table(multi_table.pk, bob)
    assert 'name="buy_in" value="100" min="5"' in after


def test_it_refuses_limits_that_do_not_make_sense_and_changes_nothing(staff, multi_table):
    before = Table.objects.get(pk=multi_table.pk)

    response = staff.post(
        reverse("admin:tables_table_change", args=[multi_table.pk]), edit_form(before, min_bet=50, max_bet=10)
    )

    assert response.status_code == 200  # the form again, with its error
    after = Table.objects.get(pk=multi_table.pk)
    assert (after.min_bet, after.max_bet, after.version) == (before.min_bet, before.max_bet, before.version)
