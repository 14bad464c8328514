import pytest
from django.db import transaction
from django.db.models import Sum

from accounts import balances, ledger
from accounts.models import AccountKind, LedgerAccount, Transfer, TransferKind

pytestmark = pytest.mark.django_db


def balance(account: LedgerAccount) -> int:
    account.refresh_from_db()
    return account.balance


def total_of_all_balances() -> int:
    return LedgerAccount.objects.aggregate(total=Sum("balance"))["total"]


def test_it_grants_a_new_player_1000_chips_from_the_grants_account(alice):
    bankroll = ledger.bankroll_of(alice)
    assert balance(bankroll) == 1000
    assert balance(ledger.grants_account()) == -1000
    assert total_of_all_balances() == 0


def test_it_opens_a_bankroll_only_once(alice):
    ledger.open_bankroll(alice)
    assert LedgerAccount.objects.filter(kind=AccountKind.BANKROLL, user=alice).count() == 1
    assert balance(ledger.bankroll_of(alice)) == 1000


def test_it_moves_chips_and_records_the_transfer(alice, bob):
    t = ledger.transfer(
        source=ledger.bankroll_of(alice),
        destination=ledger.bankroll_of(bob),
        amount=250,
        kind=TransferKind.ADMIN_GRANT,
        reason="test",
    )
    assert (t.amount, t.kind, t.reason) == (250, TransferKind.ADMIN_GRANT, "test")
    assert balance(ledger.bankroll_of(alice)) == 750
    assert balance(ledger.bankroll_of(bob)) == 1250
    assert total_of_all_balances() == 0


@pytest.mark.parametrize("amount", [0, -5, 2.5, "10", True, None])
def test_it_refuses_an_amount_that_is_not_a_positive_whole_number(alice, bob, amount):
    with pytest.raises(ledger.LedgerError):
        ledger.transfer(
            source=ledger.bankroll_of(alice),
            destination=ledger.bankroll_of(bob),
            amount=amount,
            kind=TransferKind.ADMIN_GRANT,
        )
    assert Transfer.objects.count() == 2
    assert balance(ledger.bankroll_of(alice)) == 1000


def test_it_refuses_a_transfer_to_the_same_account(alice):
    bankroll = ledger.bankroll_of(alice)
    with pytest.raises(ledger.LedgerError):
        ledger.transfer(source=bankroll, destination=bankroll, amount=1, kind=TransferKind.ADMIN_GRANT)


@pytest.mark.parametrize("order", ["source first", "destination first"])
def test_it_refuses_to_overdraw_a_bankroll_and_changes_nothing(alice, bob, order):
    # Both row orders: the debit may be written before or after the credit.
    a, b = ledger.bankroll_of(alice), ledger.bankroll_of(bob)
    source, destination = (a, b) if order == "source first" else (b, a)
    with pytest.raises(ledger.InsufficientChips):
        ledger.transfer(source=source, destination=destination, amount=1001, kind=TransferKind.ADMIN_GRANT)
    assert balance(a) == 1000 and balance(b) == 1000
    assert Transfer.objects.count() == 2


def test_a_refused_transfer_inside_a_game_change_rolls_back_with_it(alice):
    seat = ledger.open_seat_account(alice, "seat")
    with pytest.raises(ledger.InsufficientChips), transaction.atomic():
        ledger.buy_in(user=alice, seat_account=seat, amount=600)
        ledger.buy_in(user=alice, seat_account=seat, amount=600)
    assert balance(seat) == 0
    assert balance(ledger.bankroll_of(alice)) == 1000


@pytest.mark.parametrize("order", ["source first", "destination first"])
def test_without_a_savepoint_a_refused_transfer_undoes_the_callers_transaction(alice, bob, order):
    a, b = ledger.bankroll_of(alice), ledger.bankroll_of(bob)
    source, destination = (a, b) if order == "source first" else (b, a)
    with pytest.raises(ledger.InsufficientChips), transaction.atomic():
        ledger.transfer(source=source, destination=destination, amount=10, kind=TransferKind.ADMIN_GRANT)
        ledger.transfer(
            source=source, destination=destination, amount=991, kind=TransferKind.ADMIN_GRANT, savepoint=False
        )
    assert balance(a) == 1000 and balance(b) == 1000
    assert Transfer.objects.count() == 2  # the two sign-up grants


def test_it_lets_the_house_go_below_zero(alice):
    seat = ledger.open_seat_account(alice, "seat")
    ledger.transfer(source=ledger.house_account(), destination=seat, amount=15, kind=TransferKind.PAYOUT)
    assert balance(ledger.house_account()) == -15
    assert total_of_all_balances() == 0


def test_buy_in_moves_chips_from_the_bankroll_to_the_seat(alice):
    seat = ledger.open_seat_account(alice, "Boardwalk seat 1")
    t = ledger.buy_in(user=alice, seat_account=seat, amount=100)
    assert t.kind == TransferKind.BUY_IN
    assert balance(seat) == 100
    assert balance(ledger.bankroll_of(alice)) == 900


def test_buy_in_refuses_more_than_the_bankroll_holds(alice):
    seat = ledger.open_seat_account(alice, "seat")
    with pytest.raises(ledger.InsufficientChips, match="Your bankroll holds fewer than 1001 chips"):
        ledger.buy_in(user=alice, seat_account=seat, amount=1001)


def test_cash_out_returns_the_whole_stack(alice):
    seat = ledger.open_seat_account(alice, "seat")
    ledger.buy_in(user=alice, seat_account=seat, amount=100)
    ledger.transfer(source=ledger.house_account(), destination=seat, amount=37, kind=TransferKind.PAYOUT)
    t = ledger.cash_out(seat_account=seat)
    assert (t.kind, t.amount) == (TransferKind.CASH_OUT, 137)
    assert balance(seat) == 0
    assert balance(ledger.bankroll_of(alice)) == 1037


def test_cash_out_of_an_empty_stack_moves_nothing(alice):
    seat = ledger.open_seat_account(alice, "seat")
    assert ledger.cash_out(seat_account=seat) is None
    assert Transfer.objects.count() == 1


def test_top_up_grants_100_chips_to_an_empty_seat(alice):
    seat = ledger.open_seat_account(alice, "seat")
    t = ledger.top_up(seat_account=seat)
    assert (t.kind, t.amount, t.source.kind) == (TransferKind.TOP_UP, 100, AccountKind.GRANTS)
    assert balance(seat) == 100


def test_top_up_leaves_a_seat_with_chips_alone(alice):
    seat = ledger.open_seat_account(alice, "seat")
    ledger.buy_in(user=alice, seat_account=seat, amount=1)
    assert ledger.top_up(seat_account=seat) is None
    assert balance(seat) == 1


def test_admin_grant_and_correction_are_transfers_with_a_reason(alice, bob):
    grant = ledger.admin_adjust(user=alice, amount=500, reason="Tournament prize", admin=bob)
    assert (grant.kind, grant.amount, grant.reason, grant.created_by) == (
        TransferKind.ADMIN_GRANT,
        500,
        "Tournament prize",
        bob,
    )
    correction = ledger.admin_adjust(user=alice, amount=-200, reason="Prize paid twice", admin=bob)
    assert (correction.kind, correction.amount, correction.destination.kind) == (
        TransferKind.CORRECTION,
        200,
        AccountKind.GRANTS,
    )
    assert balance(ledger.bankroll_of(alice)) == 1300


def test_admin_adjust_needs_a_reason_and_a_nonzero_amount(alice, bob):
    with pytest.raises(ledger.LedgerError, match="needs a reason"):
        ledger.admin_adjust(user=alice, amount=5, reason="  ", admin=bob)
    with pytest.raises(ledger.LedgerError):
        ledger.admin_adjust(user=alice, amount=0, reason="nothing", admin=bob)


def test_a_correction_cannot_take_more_than_the_bankroll_holds(alice, bob):
    with pytest.raises(ledger.InsufficientChips, match="holds 1000 chips"):
        ledger.admin_adjust(user=alice, amount=-1001, reason="too much", admin=bob)
    assert balance(ledger.bankroll_of(alice)) == 1000


def test_the_database_refuses_a_negative_bankroll_even_bypassing_the_ledger(alice):
    from django.db import IntegrityError

    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerAccount.objects.filter(kind=AccountKind.BANKROLL, user=alice).update(balance=-1)


def test_the_chips_at_the_tables_are_the_sum_of_a_players_seat_stacks(alice, bob):
    boardwalk = ledger.open_seat_account(alice, "Boardwalk seat 2")
    rocket = ledger.open_seat_account(alice, "Rocket seat 1")
    ledger.buy_in(user=alice, seat_account=boardwalk, amount=35)
    ledger.buy_in(user=alice, seat_account=rocket, amount=100)
    ledger.buy_in(user=bob, seat_account=ledger.open_seat_account(bob, "Boardwalk seat 3"), amount=50)
    ledger.transfer(source=rocket, destination=ledger.house_account(), amount=10, kind=TransferKind.BET)
    left = ledger.open_seat_account(alice, "Six Shooter seat 1")
    ledger.buy_in(user=alice, seat_account=left, amount=20)
    ledger.cash_out(seat_account=left)
    assert balances.at_tables_balance(alice.pk) == 35 + 90
    assert balances.chips_of(alice.pk) == (1000 - 35 - 100, 125)


def test_a_player_with_no_seat_has_nothing_at_the_tables(alice, bob, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert balances.chips_of(alice.pk) == (1000, 0)
    assert balances.at_tables_balance(alice.pk) == 0
    assert balances.chips_of(alice.pk + bob.pk + 100) == (None, 0)
