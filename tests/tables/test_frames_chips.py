"""The top bar's two numbers in a table's frames: the bankroll and the chips at the tables, as play moves them."""

from __future__ import annotations

import re

import pytest

from tables.live import frames
from tables.live.consumers import TableConsumer
from tables.live.pieces import Sent, top_bar_number, whole_table
from tables.play import services
from tests.tables.conftest import make_table
from tests.tables.test_frames import piece_ids
from tests.tables.test_verify_shoe import version

pytestmark = pytest.mark.django_db


def at_tables(frame: str) -> int | None:
    found = re.search(r'<strong id="at-tables">([\d,]+)</strong>', frame)
    return int(found.group(1).replace(",", "")) if found else None


def bankroll(frame: str) -> int | None:
    found = re.search(r'<strong id="bankroll">([\d,]+)</strong>', frame)
    return int(found.group(1).replace(",", "")) if found else None


def socket_of(table_id: int, viewer) -> TableConsumer:
    """A table socket as its connect leaves it: its table, its viewer, nothing sent yet."""
    consumer = TableConsumer()
    consumer.table_id, consumer.user, consumer.player_id, consumer.sent = table_id, viewer, viewer.pk, Sent()
    return consumer


def test_it_shows_a_players_chips_at_every_table_and_follows_their_stack_here(betting, alice, bob, settings):
    buy_in = settings.DEFAULT_BUY_IN_CHIPS
    elsewhere = make_table("atlantic-city")
    services.do_sit(elsewhere.pk, alice, 1, 35)  # alice also sits at a solo table
    sockets = {viewer: socket_of(betting.pk, viewer) for viewer in (alice, bob)}

    first = {viewer: socket._frame(None) for viewer, socket in sockets.items()}
    assert at_tables(first[alice]) == buy_in + 35 and at_tables(first[bob]) == buy_in

    change = services.do_act(betting.pk, alice, "bet", seat=1, amount=10, version=version(betting))
    table = frames.rendered(betting.pk, change.version)
    after = {viewer: socket._frame_of(table) for viewer, socket in sockets.items()}

    # Her bet left her stack here: her top bar says so; bob's chips did not move, and his frame brings no number.
    assert at_tables(after[alice]) == buy_in + 35 - 10
    assert "at-tables" in piece_ids(after[alice]) and "bankroll" not in piece_ids(after[alice])
    assert "at-tables" not in piece_ids(after[bob])


def test_a_player_who_sits_down_sees_the_chips_leave_their_bankroll_for_the_table(multi_table, alice, bob, settings):
    start = settings.SIGNUP_GRANT_CHIPS
    services.do_sit(multi_table.pk, alice, 1)
    socket = socket_of(multi_table.pk, bob)
    first = socket._frame(None)
    assert (bankroll(first), at_tables(first)) == (start, 0)

    change = services.do_sit(multi_table.pk, bob, 2, 120, version=version(multi_table))
    after = socket._frame(None, change.version)

    assert (bankroll(after), at_tables(after)) == (start - 120, 120)


def test_the_numbers_are_written_as_the_top_bar_writes_them(client, carol):
    assert top_bar_number("at-tables", 1234567) == '<strong id="at-tables">1,234,567</strong>'
    client.force_login(carol)
    page = client.get("/tables/").content.decode()
    assert top_bar_number("bankroll", 1000) in page and top_bar_number("at-tables", 0) in page


def test_a_watcher_sees_the_chips_they_have_at_other_tables(betting, carol):
    elsewhere = make_table("atlantic-city")
    services.do_sit(elsewhere.pk, carol, 1, 60)

    frame, _ = whole_table(betting.pk, carol)

    assert at_tables(frame) == 60


def test_the_chips_at_other_tables_are_read_with_the_table_and_kept_by_the_plays_here(
    betting, alice, bob, settings, django_assert_num_queries, django_capture_on_commit_callbacks
):
    elsewhere = make_table("atlantic-city")
    services.do_sit(elsewhere.pk, bob, 1, 40)
    frames.forget()
    current = version(betting)
    # Read with the table's version: the table, its seats, and its players' bankrolls and chips elsewhere.
    with django_assert_num_queries(3):
        table = frames.rendered(betting.pk, current)
    assert table.state.elsewhere == {alice.pk: 0, bob.pk: 40}

    with django_capture_on_commit_callbacks(execute=True):
        change = services.do_act(betting.pk, bob, "bet", seat=2, amount=10, version=current)

    # The version the play wrote is taken as written: bob's stack here moved, his chips elsewhere did not.
    with django_assert_num_queries(0):
        taken, _ = whole_table(betting.pk, bob, version=change.version)
    frames.forget()
    read, _ = whole_table(betting.pk, bob)
    assert at_tables(taken) == at_tables(read) == 40 + settings.DEFAULT_BUY_IN_CHIPS - 10

