"""A play takes the round this process's last play stored, unless anything changed the table since (tables.play.held)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User

from tables.engine import GameRound
from tables.engine import round as engine_round
from tables.live import frames
from tables.models import Round, Seat, Table
from tables.play import held, services
from tables.play.errors import TableError
from tests.tables.conftest import open_next_window, seat_and_bet

# Real commits: a round is held only once its play's transaction commits.
pytestmark = pytest.mark.django_db(transaction=True)

# alice (seat 1) and bob (seat 2) and carol (seat 3) each hold 16 against the dealer's 20.
SIXTEENS = ["TS", "9H", "TD", "TC", "6D", "7S", "6H", "KD"]


def version(table) -> int:
    return Table.objects.values_list("version", flat=True).get(pk=table.pk)


def stands(table) -> list[int]:
    state = Round.objects.get(pk=Table.objects.get(pk=table.pk).current_round_id).state
    return [event["seat"] for event in state["events"] if event["kind"] == "stand"]


@pytest.fixture
def dealt(multi_table, alice, bob, carol, rig):
    rig(SIXTEENS)
    seat_and_bet(multi_table, alice, bob, carol)
    return multi_table


def test_it_holds_the_round_its_own_play_stored_and_the_next_play_takes_it(dealt, alice, bob):
    current = version(dealt)
    assert held._held[dealt.pk].version == current  # the last bet's commit

    services.do_act(dealt.pk, alice, "stand", seat=1, version=current)

    kept = held._held[dealt.pk]
    kept_version, kept_round = kept.version, kept.round_row
    assert kept_version == current + 1 == version(dealt)
    assert [event["seat"] for event in kept_round.state["events"] if event["kind"] == "stand"] == [1]
    assert stands(dealt) == [1]


def test_a_play_on_the_held_table_reads_back_no_round_no_table_row_and_no_seats(dealt, alice):
    """Under the lock, only the table's version and deadline, and the player with their own limits."""
    current = version(dealt)
    with CaptureQueriesContext(connection) as queries:
        services.do_act(dealt.pk, alice, "stand", seat=1, version=current)
    reads = [query["sql"] for query in queries if query["sql"].lstrip().startswith("SELECT")]
    assert not any('"tables_round"' in sql or '"tables_seat"' in sql for sql in reads)
    [table_read] = [sql for sql in reads if '"tables_table"' in sql]
    assert table_read.startswith('SELECT "version", "deadline" FROM "tables_table"')
    [player_read] = [sql for sql in reads if '"accounts_user"' in sql]
    assert "play_limits" in player_read or "playlimits" in player_read
    assert stands(dealt) == [1]


def test_a_table_another_process_changed_is_read_back(dealt, alice, bob):
    current = version(dealt)
    mine = held._held[dealt.pk]
    # Another process: alice stands there. Its commit is held over there, not here.
    held.forget()
    services.do_act(dealt.pk, alice, "stand", seat=1, version=current)
    held._held[dealt.pk] = mine  # this process still holds the version before

    services.do_act(dealt.pk, bob, "stand", seat=2, version=version(dealt))

    assert stands(dealt) == [1, 2]  # bob played on after alice's stand, not on the round before it


def test_a_refused_play_leaves_the_round_as_stored_and_the_next_play_reads_it(dealt, alice, bob):
    current = version(dealt)
    with pytest.raises(TableError):
        services.do_act(dealt.pk, bob, "stand", seat=2, version=current)  # not bob's turn yet
    assert dealt.pk not in held._held  # taken by the refused play and not given back

    services.do_act(dealt.pk, alice, "stand", seat=1, version=current)
    services.do_act(dealt.pk, bob, "stand", seat=2, version=version(dealt))

    assert stands(dealt) == [1, 2]


def test_a_settled_round_is_held_without_its_engine_and_seats_and_the_next_window_reads_neither_table_nor_round(
    dealt, alice, bob, carol, monkeypatch
):
    for seat, player in ((1, alice), (2, bob), (3, carol)):
        services.do_act(dealt.pk, player, "stand", seat=seat, version=version(dealt))
    settled = Table.objects.get(pk=dealt.pk).current_round
    assert settled.phase == "settled"
    kept = held._held[dealt.pk]
    # Its results and leavers changed the seats: read again by the next change.
    assert kept.version == version(dealt) and kept.round_row.phase == "settled" and kept.seated is None
    assert held.take_engine(kept.round_row) is None

    # The pause waited out (the clock moved on, not the row): under the lock only the table's
    # version and deadline are read, not the table with its settled round's state.
    later = timezone.now() + dt.timedelta(seconds=dealt.pause_seconds + 1)
    monkeypatch.setattr(services.timezone, "now", lambda: later)
    with CaptureQueriesContext(connection) as queries:
        assert services.do_expire(dealt.pk, version(dealt)) is not None

    reads = [query["sql"] for query in queries if query["sql"].startswith("SELECT")]
    assert not any("tables_round" in sql for sql in reads), reads
    opened = Table.objects.get(pk=dealt.pk).current_round
    assert (opened.number, opened.phase, opened.shoe_id) == (settled.number + 1, "betting", settled.shoe_id)
    assert GameRound.from_json(opened.state).phase.value == "betting"


def test_the_held_row_is_a_row_of_its_own(dealt, alice):
    """What the play's own row goes through after its commit (the frames' cache, the next play) leaves the held one alone."""
    services.do_act(dealt.pk, alice, "stand", seat=1, version=version(dealt))
    table = Table.objects.select_related("current_round__table").get(pk=dealt.pk)
    played = table.current_round
    kept = held._copy(played)

    played.state = {"replaced": True}
    played.phase = "settled"

    assert kept.pk == played.pk and kept.state != played.state and kept.phase != "settled"
    assert kept._state is not played._state and not kept._state.adding and kept._state.db == "default"
    assert kept._state.fields_cache == {}  # no related rows: a round read by its own query
    assert kept.table == played.table  # read when asked, as for any row


def test_a_play_on_the_held_round_plays_on_its_engine_and_decodes_no_state(dealt, alice, bob, monkeypatch):
    decoded = []
    original = engine_round.round_from_json
    monkeypatch.setattr(engine_round, "round_from_json", lambda cls, data: decoded.append(data) or original(cls, data))

    services.do_act(dealt.pk, alice, "stand", seat=1, version=version(dealt))
    services.do_act(dealt.pk, bob, "stand", seat=2, version=version(dealt))

    assert decoded == []
    stored = Round.objects.get(pk=Table.objects.get(pk=dealt.pk).current_round_id).state
    assert GameRound.from_json(stored).to_json() == stored  # what the held engine wrote reads back the same
    assert stands(dealt) == [1, 2]


def test_the_next_play_leaves_the_round_its_viewers_were_shown_alone(dealt, alice, bob):
    """The engine a play hands to its viewers' frames (tables.live.frames.offer) is not the one the next play changes."""
    frames.rendered(dealt.pk)  # shown here: the next play is offered to the frames as written
    services.do_act(dealt.pk, alice, "stand", seat=1, version=version(dealt))
    shown = frames.cached(dealt.pk, version(dealt)).state.engine
    events = list(shown.events)

    services.do_act(dealt.pk, bob, "stand", seat=2, version=version(dealt))

    assert shown.events == events and shown.to_act() == (2, 0)


def assert_held_seats_as_stored(table) -> None:
    """Every seat this process holds is the seat the database has: each field, its stack and its loan."""
    kept = held._held[table.pk]
    assert kept.seated is not None
    stored = {seat.number: seat for seat in Seat.objects.filter(table=table, player__isnull=False).select_related("account")}
    assert [seat.number for seat in kept.seated] == sorted(stored)
    for seat in kept.seated:
        fields = [field.attname for field in Seat._meta.concrete_fields]
        assert [getattr(seat, name) for name in fields] == [getattr(stored[seat.number], name) for name in fields]
        account = seat._state.fields_cache["account"]  # held with the seat: no query
        assert (account.balance, account.credit) == (stored[seat.number].account.balance, stored[seat.number].account.credit)


def test_the_held_seats_are_the_seats_as_stored_through_rounds_with_doubles_a_top_up_and_a_leaver(
    multi_table, alice, bob, carol, rig
):
    # Round 1: alice doubles her 16, busts and loses her whole stack (20 chips); bob and carol stand, and carol asks to leave.
    # Round 2: alice's empty seat is lent 100 chips as the window opens; she and bob bet, carol is gone.
    second = ["TS", "9H", "KD", "TD", "7C", "8S"]
    rig([*SIXTEENS, "9C", *second], second)  # the same shoe, or a new one if the first is done
    services.do_sit(multi_table.pk, alice, 1, buy_in=20)
    services.do_sit(multi_table.pk, bob, 2)
    services.do_sit(multi_table.pk, carol, 3)
    open_next_window(multi_table)
    for seat, player in ((1, alice), (2, bob), (3, carol)):
        services.do_act(multi_table.pk, player, "bet", seat=seat, amount=10, version=version(multi_table))
        assert_held_seats_as_stored(multi_table)
    services.do_act(multi_table.pk, alice, "double", seat=1, version=version(multi_table))
    assert_held_seats_as_stored(multi_table)
    services.do_act(multi_table.pk, bob, "stand", seat=2, version=version(multi_table))
    assert_held_seats_as_stored(multi_table)
    services.do_leave(multi_table.pk, carol, 3, version=version(multi_table))  # after this round
    services.do_act(multi_table.pk, carol, "stand", seat=3, version=version(multi_table))
    assert Seat.objects.get(table=multi_table, number=1).account.balance == 0

    open_next_window(multi_table)
    assert Seat.objects.get(table=multi_table, number=1).account.credit == 100
    assert_held_seats_as_stored(multi_table)  # the window's own seats, the loan made in it
    for seat, player in ((1, alice), (2, bob)):
        services.do_act(multi_table.pk, player, "bet", seat=seat, amount=10, version=version(multi_table))
        assert_held_seats_as_stored(multi_table)
    assert [seat.number for seat in held._held[multi_table.pk].seated] == [1, 2]


def test_a_play_on_held_seats_checks_the_player_as_they_are_now(dealt, alice):
    """Held seats carry no players: a break taken since the last play (issue 14) refuses the next one."""
    assert held._held[dealt.pk].seated is not None  # the bets' seats: alice's stand would take them
    # Her break, as another process starts it; the seats stay until its Stop playing commits.
    User.objects.filter(pk=alice.pk).update(paused_until=timezone.now() + dt.timedelta(hours=1))

    with pytest.raises(TableError) as refused:
        services.do_act(dealt.pk, alice, "stand", seat=1, version=version(dealt))

    assert refused.value.code == "paused"
    assert stands(dealt) == []
