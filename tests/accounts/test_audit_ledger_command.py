import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts import ledger
from accounts.audit import audit_ledger
from accounts.models import LedgerAccount, Transfer

pytestmark = pytest.mark.django_db


def test_it_passes_a_ledger_that_adds_up(alice, bob, capsys):
    seat = ledger.open_seat_account(bob, "seat")
    ledger.buy_in(user=bob, seat_account=seat, amount=100)
    call_command("audit_ledger")
    out = capsys.readouterr().out
    assert "Ledger OK" in out
    assert "2000 chips held by players" in out


@pytest.mark.ledger_broken
def test_it_catches_a_balance_edited_behind_the_ledgers_back(alice):
    LedgerAccount.objects.filter(pk=ledger.bankroll_of(alice).pk).update(balance=5000)
    with pytest.raises(CommandError) as caught:
        call_command("audit_ledger")
    assert caught.value.returncode == 1
    report = audit_ledger()
    assert any("balance of 5000 but its transfers add up to 1000" in p for p in report.problems)
    assert any("add up to 4000, not 0" in p for p in report.problems)


@pytest.mark.ledger_broken
def test_it_catches_a_transfer_whose_balances_were_never_applied(alice, bob):
    Transfer.objects.create(
        source=ledger.bankroll_of(alice), destination=ledger.bankroll_of(bob), amount=7, kind="admin_grant"
    )
    report = audit_ledger()
    assert not report.ok
    assert len([p for p in report.problems if "transfers add up to" in p]) == 2
