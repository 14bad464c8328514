"""Every settled round is written down: one history row per seat that played, and the shoe's fate."""

import pytest

from accounts import ledger
from accounts.audit import audit_ledger
from accounts.models import TransferKind
from tables.models import RoundSeat, Seat, Shoe
from tables.play import services
from tests.tables.conftest import open_next_window

pytestmark = pytest.mark.django_db


def version(table) -> int:
    table.refresh_from_db()
    return table.version


def play_split_and_double(table, alice):
    # alice 8 8 splits; hand 1 gets 3 (11) and doubles onto T (21); hand 2 gets T (18); dealer 6 T 9 busts.
    services.do_sit(table.pk, alice, 1)
    services.do_act(table.pk, alice, "bet", seat=1, amount=10, version=version(table))
    services.do_act(table.pk, alice, "split", seat=1, version=version(table))
    services.do_act(table.pk, alice, "double", seat=1, hand=0, version=version(table))
    services.do_act(table.pk, alice, "stand", seat=1, hand=1, version=version(table))


def test_it_records_each_seats_hands_stakes_and_result(solo_table, alice, rig):
    rig(["8S", "6H", "8C", "TD", "3H", "TC", "TS", "9D"])
    play_split_and_double(solo_table, alice)
    row = RoundSeat.objects.get()
    assert (row.player, row.table, row.profile, row.seat) == (alice, solo_table, "atlantic-city", 1)
    assert (row.stack_before, row.stack_after, row.net) == (100, 130, 30)
    assert (row.bet, row.staked, row.insurance, row.result, row.blackjacks) == (10, 30, 0, "win", 0)
    assert row.hands == [
        {"cards": ["8S", "3H", "TC"], "total": 21, "bet": 20, "outcome": "win"},
        {"cards": ["8C", "TS"], "total": 18, "bet": 10, "outcome": "win"},
    ]
    assert row.account == Seat.objects.get(table=solo_table, number=1).account
    assert row.round.settled_at == row.settled_at


def test_a_seat_that_passed_has_no_history_row(multi_table, alice, bob, rig):
    rig(["TS", "9H", "9C", "8D"])
    services.do_sit(multi_table.pk, alice, 1)
    services.do_sit(multi_table.pk, bob, 2)
    open_next_window(multi_table)
    services.do_act(multi_table.pk, bob, "pass", seat=2, version=version(multi_table))
    services.do_act(multi_table.pk, alice, "bet", seat=1, amount=10, version=version(multi_table))
    services.do_act(multi_table.pk, alice, "stand", seat=1, version=version(multi_table))
    assert list(RoundSeat.objects.values_list("player__username", "result")) == [("alice", "win")]


def test_a_one_round_shoe_is_retired_when_its_round_ends(solo_table, alice):
    from tables.play import rounds

    # A real seeded shoe (atlantic-city: a fresh one every round), played out by standing.
    services.do_sit(solo_table.pk, alice, 1)
    shoe = Shoe.objects.get()
    assert shoe.retired_at is None  # in use: its seed stays secret
    services.do_act(solo_table.pk, alice, "bet", seat=1, amount=10, version=version(solo_table))
    for _ in range(5):
        engine = rounds.load(solo_table.current_round)
        if engine.phase == "insurance":
            services.do_act(solo_table.pk, alice, "no_insurance", seat=1, version=version(solo_table))
        elif engine.to_act():
            services.do_act(solo_table.pk, alice, "stand", seat=1, hand=engine.to_act()[1], version=version(solo_table))
    assert solo_table.current_round.phase == "settled"
    shoe.refresh_from_db()
    assert shoe.retired_at is not None


@pytest.mark.ledger_broken
def test_the_audit_catches_a_payout_to_the_wrong_seat(multi_table, alice, bob, rig):
    rig(["TS", "5C", "9H", "9C", "6D", "8D", "TH"])
    services.do_sit(multi_table.pk, alice, 1)
    services.do_sit(multi_table.pk, bob, 2)
    open_next_window(multi_table)
    services.do_act(multi_table.pk, alice, "bet", seat=1, amount=10, version=version(multi_table))
    services.do_act(multi_table.pk, bob, "bet", seat=2, amount=10, version=version(multi_table))
    services.do_act(multi_table.pk, alice, "stand", seat=1, version=version(multi_table))
    services.do_act(multi_table.pk, bob, "stand", seat=2, version=version(multi_table))
    assert audit_ledger().ok
    # Move alice's winnings to bob inside the round: every balance still equals its transfers.
    multi_table.refresh_from_db()
    alice_seat, bob_seat = (Seat.objects.get(table=multi_table, number=n).account for n in (1, 2))
    ledger.transfer(
        source=alice_seat, destination=ledger.house_account(), amount=20, kind=TransferKind.BET,
        round=multi_table.current_round,
    )
    ledger.transfer(
        source=ledger.house_account(), destination=bob_seat, amount=20, kind=TransferKind.PAYOUT,
        round=multi_table.current_round,
    )
    problems = audit_ledger().problems
    assert any("seat 1: the round's result is +10 but the ledger moved -10" in p for p in problems)
    assert any("seat 2: the round's result is -10 but the ledger moved +10" in p for p in problems)
