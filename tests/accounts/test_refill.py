"""Issue 14: `Refill chips`, a way back for broke players, at most once a day."""

import datetime as dt

import pytest
from django.utils import timezone

from accounts import balances, ledger
from accounts.audit import audit_ledger
from accounts.models import Transfer, TransferKind
from accounts.refill import RefillRefused, do_refill, refill_offer

pytestmark = pytest.mark.django_db


def spend(user, chips: int) -> None:
    """Leave the player `chips` fewer in their bankroll (a correction by an admin, for the test)."""
    ledger.admin_adjust(user=user, amount=-chips, reason="Lost elsewhere", admin=user)


def test_it_tops_the_bankroll_up_to_1000_from_the_grants_account(alice):
    spend(alice, 950)
    made = do_refill(alice)
    assert (made.kind, made.amount, made.source.kind) == (TransferKind.REFILL, 950, "grants")
    assert balances.chips_of(alice.pk)[0] == 1000
    assert audit_ledger().ok


def test_it_refuses_a_player_holding_100_chips_or_more(alice):
    spend(alice, 900)
    with pytest.raises(RefillRefused, match="You hold 100 chips"):
        do_refill(alice)
    assert not Transfer.objects.filter(kind=TransferKind.REFILL).exists()


def test_it_counts_the_chips_at_the_tables(alice):
    spend(alice, 950)
    seat = ledger.open_seat_account(alice, "Boardwalk seat 1")
    ledger.buy_in(user=alice, seat_account=seat, amount=50)
    ledger.admin_adjust(user=alice, amount=50, reason="A win elsewhere", admin=alice)
    # 50 in the bankroll and 50 at a table: 100 in all.
    with pytest.raises(RefillRefused, match="You hold 100 chips"):
        do_refill(alice)


def test_it_refills_once_a_day(alice):
    spend(alice, 1000)
    do_refill(alice)
    spend(alice, 1000)
    with pytest.raises(RefillRefused, match="One refill a day: your next one is from"):
        do_refill(alice)
    offer = refill_offer(alice, 0, 0)
    assert offer.eligible and not offer.available
    # 24 hours and a minute later.
    Transfer.objects.filter(kind=TransferKind.REFILL).update(created_at=timezone.now() - dt.timedelta(hours=24, minutes=1))
    assert refill_offer(alice, 0, 0).available
    do_refill(alice)
    assert Transfer.objects.filter(kind=TransferKind.REFILL).count() == 2
    assert balances.chips_of(alice.pk)[0] == 1000
    assert audit_ledger().ok


def test_the_offer_follows_the_threshold(alice):
    assert not refill_offer(alice, 60, 40).eligible
    assert refill_offer(alice, 60, 39).available


def test_it_refuses_a_player_on_a_break(alice):
    from accounts import pauses
    from tests.conftest import PASSWORD

    spend(alice, 1000)
    pauses.do_take_pause(alice, "break-24h", PASSWORD)
    with pytest.raises(RefillRefused, match="You are taking a break until"):
        do_refill(alice)
    assert not Transfer.objects.filter(kind=TransferKind.REFILL).exists()
