"""Deadlines: what happens when nobody answers, and that a timer can fire any number of times."""

import datetime as dt

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts import ledger
from accounts.audit import audit_ledger
from tables.models import Seat, Table
from tables.play import rounds, services
from tests.tables.conftest import open_next_window

pytestmark = pytest.mark.django_db


def fresh(table: Table) -> Table:
    table.refresh_from_db()
    return table


def pass_the_deadline(table: Table) -> int:
    """Move the deadline into the past; returns the version a timer armed now would carry."""
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - dt.timedelta(seconds=1))
    return fresh(table).version


def test_the_betting_window_opens_with_a_15_second_deadline(multi_table, alice, rig):
    rig([])
    services.do_sit(multi_table.pk, alice, 1)
    before = timezone.now()
    open_next_window(multi_table)
    table = fresh(multi_table)
    assert table.current_round.phase == "betting"
    assert dt.timedelta(seconds=14) < table.deadline - before <= dt.timedelta(seconds=16)


def test_a_silent_seat_is_left_out_when_the_window_closes(multi_table, alice, bob, rig):
    rig(["TS", "9H", "9C", "8D"])
    services.do_sit(multi_table.pk, alice, 1)
    services.do_sit(multi_table.pk, bob, 2)
    open_next_window(multi_table)
    services.do_act(multi_table.pk, alice, "bet", seat=1, amount=10, version=fresh(multi_table).version)
    services.do_expire(multi_table.pk, pass_the_deadline(multi_table))
    engine = rounds.load(fresh(multi_table).current_round)
    assert engine.seats[2].status == "left_out"
    assert [e.actor for e in engine.events if e.kind == "left_out"] == ["timer"]
    assert engine.to_act() == (1, 0)


def test_a_decision_left_too_long_stands(multi_table, alice, rig):
    rig(["TS", "9H", "2C", "8D"])
    services.do_sit(multi_table.pk, alice, 1)
    open_next_window(multi_table)
    services.do_act(multi_table.pk, alice, "bet", seat=1, amount=10, version=fresh(multi_table).version)
    table = fresh(multi_table)
    assert dt.timedelta(seconds=19) < table.deadline - timezone.now() <= dt.timedelta(seconds=20)
    services.do_expire(multi_table.pk, pass_the_deadline(multi_table))
    engine = rounds.load(fresh(multi_table).current_round)
    stands = [e for e in engine.events if e.kind == "stand"]
    assert [(e.seat, e.actor) for e in stands] == [(1, "timer")]
    assert engine.phase == "settled"
    assert audit_ledger().ok


def test_silence_on_insurance_declines_it(multi_table, alice, rig):
    rig(["TS", "AH", "9C", "8D"])
    services.do_sit(multi_table.pk, alice, 1)
    open_next_window(multi_table)
    services.do_act(multi_table.pk, alice, "bet", seat=1, amount=10, version=fresh(multi_table).version)
    assert fresh(multi_table).current_round.phase == "insurance"
    services.do_expire(multi_table.pk, pass_the_deadline(multi_table))
    engine = rounds.load(fresh(multi_table).current_round)
    assert [(e.kind, e.actor) for e in engine.events if e.kind.startswith("insurance")] == [
        ("insurance_declined", "timer")
    ]


def test_an_early_a_stale_or_a_duplicate_timer_changes_nothing(multi_table, alice, rig):
    rig(["TS", "9H", "2C", "8D"])
    services.do_sit(multi_table.pk, alice, 1)
    open_next_window(multi_table)
    table = fresh(multi_table)
    assert services.do_expire(table.pk, table.version) is None  # early: the deadline is ahead
    version = pass_the_deadline(table)
    assert services.do_expire(table.pk, version - 1) is None  # armed for an older state
    assert services.do_expire(table.pk, version) is not None
    assert services.do_expire(table.pk, version) is None  # the same timer, twice
    engine = rounds.load(fresh(table).current_round)
    assert len([e for e in engine.events if e.kind == "left_out"]) == 1


def test_three_missed_windows_stand_a_player_up_with_their_chips(multi_table, alice, rig):
    rig([])
    services.do_sit(multi_table.pk, alice, 1, buy_in=250)
    for _ in range(3):
        open_next_window(multi_table)  # the window opens ...
        services.do_expire(multi_table.pk, pass_the_deadline(multi_table))  # ... and closes on silence
    seat = Seat.objects.get(table=multi_table, number=1)
    assert seat.player is None
    assert ledger.bankroll_of(alice).balance == 1000
    assert fresh(multi_table).deadline is None


def test_passing_is_not_missing_a_window(multi_table, alice, rig):
    rig([])
    services.do_sit(multi_table.pk, alice, 1)
    for n in range(4):
        open_next_window(multi_table)
        if n == 2:
            services.do_act(multi_table.pk, alice, "pass", seat=1, version=fresh(multi_table).version)
        else:
            services.do_expire(multi_table.pk, pass_the_deadline(multi_table))
    seat = Seat.objects.get(table=multi_table, number=1)
    assert (seat.player, seat.missed_windows) == (alice, 1)


def test_the_next_window_opens_a_few_seconds_after_a_round(multi_table, alice, rig):
    rig(["TS", "9H", "9C", "8D"])
    services.do_sit(multi_table.pk, alice, 1)
    open_next_window(multi_table)
    services.do_act(multi_table.pk, alice, "bet", seat=1, amount=10, version=fresh(multi_table).version)
    services.do_act(multi_table.pk, alice, "stand", seat=1, version=fresh(multi_table).version)
    table = fresh(multi_table)
    assert table.current_round.phase == "settled"
    assert table.deadline is not None
    services.do_expire(table.pk, pass_the_deadline(table))
    assert fresh(table).current_round.number == 2


def test_settle_overdue_catches_up_after_a_restart(multi_table, alice, rig):
    rig(["TS", "9H", "9C", "8D"])
    services.do_sit(multi_table.pk, alice, 1)
    pass_the_deadline(multi_table)  # the window should have opened while no process ran
    services.settle_overdue(multi_table.pk)
    assert fresh(multi_table).current_round.phase == "betting"


def test_the_table_clock_sweeps_overdue_tables(multi_table, alice, rig, capsys):
    rig([])
    services.do_sit(multi_table.pk, alice, 1)
    pass_the_deadline(multi_table)
    call_command("table_clock", "--once")
    assert "settled 1 overdue deadline(s)" in capsys.readouterr().out
    assert fresh(multi_table).current_round.phase == "betting"


def test_a_one_seat_table_waits_for_its_player(solo_table, alice, rig):
    rig(["TS", "9H", "2C", "8D"])
    services.do_sit(solo_table.pk, alice, 1)
    assert fresh(solo_table).deadline is None
    services.do_act(solo_table.pk, alice, "bet", seat=1, amount=10, version=fresh(solo_table).version)
    assert fresh(solo_table).deadline is None  # RULES.md: no decision timer without other players
