"""A seat remembers its last bet between rounds (Seat.last_bet): the next bet starts from it, and Rebet brings it back."""

from __future__ import annotations

import pytest

from tables.live.viewer import build
from tables.models import Seat, Table
from tables.play import services
from tests.tables.conftest import make_table, open_next_window

pytestmark = pytest.mark.django_db


def act(table: Table, user, action: str, seat: int = 1, **fields) -> None:
    table.refresh_from_db()
    services.do_act(table.pk, user, action, seat=seat, version=table.version, **fields)


def seat(table: Table, number: int = 1) -> Seat:
    return Seat.objects.get(table=table, number=number)


def play_a_round(table: Table, user, amount: int) -> None:
    open_next_window(table)
    act(table, user, "bet", amount=amount)
    act(table, user, "stand")


def test_it_offers_the_chips_the_limits_allow_and_no_rebet_before_a_first_bet(alice, rig):
    table = make_table(min_bet=5, max_bet=500)
    services.do_sit(table.pk, alice, 1, 120)
    open_next_window(table)
    control = build(table.pk, alice).controls[0]
    assert control.chips == "1 5 25 100"  # 500 is more than her stack of 120
    assert control.rebet == 0
    assert control.bet_default == table.default_bet


def test_it_starts_the_next_round_from_the_last_bet(alice, rig):
    table = make_table(min_bet=5, max_bet=500)
    rig(["TS", "9H", "9C", "8D"])
    services.do_sit(table.pk, alice, 1, 200)
    play_a_round(table, alice, 25)
    assert seat(table).last_bet == 25
    open_next_window(table)
    control = build(table.pk, alice).controls[0]
    assert (control.bet_default, control.rebet) == (25, 25)


def test_it_keeps_the_last_bet_within_the_stack(alice, rig):
    table = make_table(min_bet=5, max_bet=500)
    # alice 10 6 stands on 16 and loses to 9 8.
    rig(["TS", "9H", "6C", "8D"])
    services.do_sit(table.pk, alice, 1, 100)
    play_a_round(table, alice, 80)
    assert seat(table).account.balance == 20
    open_next_window(table)
    control = build(table.pk, alice).controls[0]
    assert (control.bet_default, control.rebet, control.bet_max) == (20, 20, 20)


def test_a_round_sat_out_keeps_the_last_bet(alice, rig):
    table = make_table()
    rig(["TS", "9H", "9C", "8D"])
    services.do_sit(table.pk, alice, 1, 100)
    play_a_round(table, alice, 15)
    open_next_window(table)
    act(table, alice, "pass")
    assert seat(table).last_bet == 15


def test_the_last_bet_moves_with_the_player_and_goes_when_they_leave(alice, rig):
    table = make_table()
    rig(["TS", "9H", "9C", "8D"])
    services.do_sit(table.pk, alice, 1, 100)
    play_a_round(table, alice, 15)
    table.refresh_from_db()
    services.do_change_seat(table.pk, alice, 1, 3, version=table.version)
    assert (seat(table, 1).last_bet, seat(table, 3).last_bet) == (0, 15)
    table.refresh_from_db()
    services.do_leave(table.pk, alice, 3, version=table.version)
    assert seat(table, 3).last_bet == 0
