import pytest

from accounts import ledger
from tables.models import Seat
from tables.play import rounds, services
from tests.tables.conftest import open_next_window

pytestmark = pytest.mark.django_db


def version(table) -> int:
    table.refresh_from_db()
    return table.version


def test_leaving_between_rounds_cashes_out_at_once(multi_table, alice):
    services.do_sit(multi_table.pk, alice, 1, buy_in=300)
    services.do_leave(multi_table.pk, alice, 1)
    seat = Seat.objects.get(table=multi_table, number=1)
    assert (seat.player, seat.account) == (None, None)
    assert ledger.bankroll_of(alice).balance == 1000
    multi_table.refresh_from_db()
    assert multi_table.deadline is None  # nobody left: no window to open


def test_leaving_mid_round_cashes_out_when_the_round_ends(multi_table, alice, bob, rig):
    rig(["TS", "5C", "9H", "9C", "6D", "8D", "TH"])
    services.do_sit(multi_table.pk, alice, 1)
    services.do_sit(multi_table.pk, bob, 2)
    open_next_window(multi_table)
    services.do_act(multi_table.pk, alice, "bet", seat=1, amount=10, version=version(multi_table))
    services.do_act(multi_table.pk, bob, "bet", seat=2, amount=10, version=version(multi_table))
    services.do_leave(multi_table.pk, alice, 1)
    assert Seat.objects.get(table=multi_table, number=1).player == alice  # still playing her hand
    services.do_act(multi_table.pk, alice, "stand", seat=1, version=version(multi_table))
    services.do_act(multi_table.pk, bob, "hit", seat=2, version=version(multi_table))  # 5 6 T = 21
    assert Seat.objects.get(table=multi_table, number=1).player is None
    assert ledger.bankroll_of(alice).balance == 1010  # 19 beats the dealer's 17


def test_leaving_during_the_betting_window_passes_the_round(multi_table, alice, bob, rig):
    rig(["TS", "9H", "9C", "8D"])
    services.do_sit(multi_table.pk, alice, 1)
    services.do_sit(multi_table.pk, bob, 2)
    open_next_window(multi_table)
    services.do_leave(multi_table.pk, bob, 2)
    services.do_act(multi_table.pk, alice, "bet", seat=1, amount=10, version=version(multi_table))
    engine = rounds.load(multi_table.current_round)
    assert engine.seats[2].status == "passed"
    assert engine.to_act() == (1, 0)


def test_nobody_leaves_a_seat_that_is_not_theirs(multi_table, alice, bob):
    services.do_sit(multi_table.pk, alice, 1)
    with pytest.raises(services.TableError, match="not your seat"):
        services.do_leave(multi_table.pk, bob, 1)


def test_a_player_moves_to_a_free_seat_between_rounds(multi_table, alice):
    services.do_sit(multi_table.pk, alice, 1, buy_in=120)
    services.do_change_seat(multi_table.pk, alice, 1, 4)
    old, new = Seat.objects.get(table=multi_table, number=1), Seat.objects.get(table=multi_table, number=4)
    assert old.player is None and new.player == alice
    assert new.account.balance == 120


def test_no_seat_change_during_a_round(multi_table, alice, rig):
    rig(["TS", "9H", "9C", "8D"])
    services.do_sit(multi_table.pk, alice, 1)
    open_next_window(multi_table)
    with pytest.raises(services.TableError, match="between rounds only"):
        services.do_change_seat(multi_table.pk, alice, 1, 2)


def test_no_seat_change_to_a_taken_seat(multi_table, alice, bob):
    services.do_sit(multi_table.pk, alice, 1)
    services.do_sit(multi_table.pk, bob, 2)
    with pytest.raises(services.TableError, match="taken"):
        services.do_change_seat(multi_table.pk, alice, 1, 2)
