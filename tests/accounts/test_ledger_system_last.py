"""The system accounts change last: in a change (`ledger.atomic()`), the house's balance changes once,
by its net, as the change's last statement, so its row is locked only from there to the commit
(docs/performance.md, "Twenty-second check")."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from accounts import ledger
from accounts.models import LedgerAccount, Transfer, TransferKind

pytestmark = pytest.mark.django_db


def balance(account: LedgerAccount) -> int:
    account.refresh_from_db()
    return account.balance


def seat_with(user, chips: int) -> LedgerAccount:
    seat = ledger.open_seat_account(user, f"{user.username}'s seat")
    ledger.buy_in(user=user, seat_account=seat, amount=chips)
    return seat


def statements(queries: CaptureQueriesContext) -> list[str]:
    """What ran, less the savepoints the test's own transaction makes of every atomic block."""
    return [query["sql"] for query in queries if "SAVEPOINT" not in query["sql"].upper()]


def changes_balance_of(account: LedgerAccount, sql: str) -> bool:
    return sql.upper().startswith("UPDATE") and '"balance"' in sql and sql.endswith(f'"id" = {account.pk}')


def test_it_changes_the_house_once_by_its_net_as_the_changes_last_statement(alice, bob):
    alices, bobs = seat_with(alice, 100), seat_with(bob, 100)
    house = ledger.house_account()
    before = balance(house)

    with CaptureQueriesContext(connection) as queries, ledger.atomic():
        ledger.transfer_all([
            ledger.Move(alices, house, 30, TransferKind.BET),
            ledger.Move(bobs, house, 20, TransferKind.BET),
            ledger.Move(house, alices, 60, TransferKind.PAYOUT),
        ])
        LedgerAccount.objects.filter(pk=bobs.pk).update(label="the change's own later statement")

    ran = statements(queries)
    assert [sql for sql in ran if changes_balance_of(house, sql)] == [ran[-1]]
    assert (balance(house), balance(alices), balance(bobs)) == (before - 10, 130, 80)
    assert Transfer.objects.filter(destination=house).count() == 2


def test_outside_a_change_the_house_changes_once_after_the_transfers_rows(alice, bob):
    alices, bobs = seat_with(alice, 100), seat_with(bob, 100)
    house = ledger.house_account()
    before = balance(house)

    with CaptureQueriesContext(connection) as queries:
        ledger.transfer_all([ledger.Move(alices, house, 30, TransferKind.BET), ledger.Move(bobs, house, 20, TransferKind.BET)])

    ran = statements(queries)
    assert [sql for sql in ran if changes_balance_of(house, sql)] == [ran[-1]]
    assert ran[-2].upper().startswith("INSERT")
    assert balance(house) == before + 50


def test_a_change_that_fails_changes_nothing_and_leaves_nothing_owed(alice, bob):
    alices, bobs = seat_with(alice, 100), seat_with(bob, 10)
    house = ledger.house_account()
    before = balance(house)

    with pytest.raises(ledger.InsufficientChips), ledger.atomic():
        ledger.transfer_all([
            ledger.Move(house, alices, 50, TransferKind.PAYOUT),
            ledger.Move(bobs, house, 500, TransferKind.BET),
        ])

    assert (balance(house), balance(alices), balance(bobs)) == (before, 100, 10)
    # Nothing of the failed change is made later either.
    ledger.transfer_all([ledger.Move(alices, house, 5, TransferKind.BET)])
    assert balance(house) == before + 5


def test_a_savepoint_rolled_back_inside_a_change_takes_its_house_change_with_it(alice, bob):
    alices, bobs = seat_with(alice, 100), seat_with(bob, 100)
    house = ledger.house_account()
    before = balance(house)

    with ledger.atomic():
        try:
            with transaction.atomic():
                ledger.transfer_all([ledger.Move(alices, house, 30, TransferKind.BET)])
                raise RuntimeError("this part is undone")
        except RuntimeError:
            pass
        ledger.transfer_all([ledger.Move(bobs, house, 20, TransferKind.BET)])

    assert (balance(house), balance(alices), balance(bobs)) == (before + 20, 100, 80)
