"""Two players' requests racing for the same chips, on whichever database the suite runs on.

`make test` runs this on SQLite, and again on PostgreSQL when DATABASE_URL is set (.ci/run does).
"""

import threading

import pytest
from django.db import connection, transaction

from accounts import ledger
from accounts.models import LedgerAccount, Transfer, TransferKind

pytestmark = pytest.mark.django_db(transaction=True)


def race(workers: int, work) -> list[object]:
    """Run `work(i)` in threads released together; each result or exception is returned."""
    barrier = threading.Barrier(workers, timeout=10)
    results: list[object] = [None] * workers

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = work(i)
        except Exception as error:  # noqa: BLE001 - the test inspects it
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


def test_two_threads_racing_for_the_last_chips_of_a_bankroll_one_succeeds(alice):
    seats = [ledger.open_seat_account(alice, f"seat {i}") for i in range(2)]

    def buy_everything(i: int):
        with transaction.atomic():
            return ledger.buy_in(user=alice, seat_account=seats[i], amount=1000)

    results = race(2, buy_everything)
    successes = [r for r in results if isinstance(r, Transfer)]
    failures = [r for r in results if isinstance(r, ledger.InsufficientChips)]
    assert len(successes) == 1 and len(failures) == 1, results
    balances = sorted(LedgerAccount.objects.filter(pk__in=[s.pk for s in seats]).values_list("balance", flat=True))
    assert balances == [0, 1000]
    assert ledger.bankroll_of(alice).balance == 0


def test_many_threads_each_taking_a_slice_never_overdraw(alice):
    seats = [ledger.open_seat_account(alice, f"seat {i}") for i in range(8)]

    def buy_300(i: int):
        with transaction.atomic():
            return ledger.buy_in(user=alice, seat_account=seats[i], amount=300)

    results = race(8, buy_300)
    assert sum(isinstance(r, Transfer) for r in results) == 3, results
    assert all(isinstance(r, (Transfer, ledger.InsufficientChips)) for r in results), results
    assert ledger.bankroll_of(alice).balance == 100
    assert Transfer.objects.filter(kind=TransferKind.BUY_IN).count() == 3


def test_opposite_transfers_between_two_accounts_do_not_deadlock(alice, bob):
    a, b = ledger.bankroll_of(alice), ledger.bankroll_of(bob)

    def swap(i: int):
        source, destination = (a, b) if i % 2 == 0 else (b, a)
        for _ in range(5):
            with transaction.atomic():
                ledger.transfer(source=source, destination=destination, amount=10, kind=TransferKind.ADMIN_GRANT)
        return "done"

    assert race(4, swap) == ["done"] * 4
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.balance, b.balance) == (1000, 1000)
