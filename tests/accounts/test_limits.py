"""Issue 14: the limits' rules as services: the 24-hour rule both ways, the rolling windows, the refill."""

import datetime as dt

import pytest
from django.utils import timezone

from accounts import ledger, limits
from accounts.models import (
    LedgerAccount,
    LimitChange,
    LimitChangeStatus,
    PlayLimits,
    Transfer,
    TransferKind,
)
from accounts.refill import RefillRefused, do_refill

pytestmark = pytest.mark.django_db


def lose_at_a_table(user, chips: int, *, ago: dt.timedelta = dt.timedelta(0), won: int = 0) -> None:
    """A bet of `chips` from a seat of the player's to the house (and `won` paid back), `ago` in the past."""
    seat = LedgerAccount.objects.filter(kind="seat", user=user).first() or ledger.open_seat_account(user, "Test seat")
    if seat.balance < chips:
        ledger.buy_in(user=user, seat_account=seat, amount=chips)
    made = [ledger.transfer(source=seat, destination=ledger.house_account(), amount=chips, kind=TransferKind.BET)]
    if won:
        made.append(ledger.transfer(source=ledger.house_account(), destination=seat, amount=won, kind=TransferKind.PAYOUT))
    Transfer.objects.filter(pk__in=[t.pk for t in made]).update(created_at=timezone.now() - ago)


def test_it_applies_a_lower_limit_at_once(alice):
    [change] = limits.do_set_limits(alice, {"loss_day": 100}, by=alice)
    assert change.status == LimitChangeStatus.APPLIED and change.created_by == alice
    limits.do_set_limits(alice, {"loss_day": 50}, by=alice)
    assert PlayLimits.objects.get(user=alice).loss_day == 50


def test_a_raise_waits_24_hours_and_a_confirmation(alice):
    limits.do_set_limits(alice, {"loss_day": 50})
    [change] = limits.do_set_limits(alice, {"loss_day": 200})
    assert change.status == LimitChangeStatus.PENDING
    assert change.applies_at - change.created_at == dt.timedelta(hours=24)
    assert PlayLimits.objects.get(user=alice).loss_day == 50
    with pytest.raises(limits.LimitRefused, match="can be confirmed from"):
        limits.do_confirm_change(alice, change.pk)
    LimitChange.objects.filter(pk=change.pk).update(applies_at=timezone.now() - dt.timedelta(seconds=1))
    limits.do_confirm_change(alice, change.pk)
    assert PlayLimits.objects.get(user=alice).loss_day == 200


def test_a_raise_is_not_applied_by_time_alone(alice):
    limits.do_set_limits(alice, {"session_minutes": 30})
    [change] = limits.do_set_limits(alice, {"session_minutes": None})
    LimitChange.objects.filter(pk=change.pk).update(applies_at=timezone.now() - dt.timedelta(days=3))
    assert PlayLimits.objects.get(user=alice).session_minutes == 30
    assert limits.pending_changes(alice) == [LimitChange.objects.get(pk=change.pk)]


def test_a_lowering_replaces_a_pending_raise(alice):
    limits.do_set_limits(alice, {"loss_week": 500})
    [raise_] = limits.do_set_limits(alice, {"loss_week": 1000})
    limits.do_set_limits(alice, {"loss_week": 300})
    assert LimitChange.objects.get(pk=raise_.pk).status == LimitChangeStatus.CANCELLED
    assert PlayLimits.objects.get(user=alice).loss_week == 300
    with pytest.raises(limits.LimitRefused, match="no longer pending"):
        limits.do_confirm_change(alice, raise_.pk)


def test_turning_a_reality_check_on_or_more_often_is_stricter(alice):
    assert limits.is_stricter(None, 60) and limits.is_stricter(60, 15)
    assert not limits.is_stricter(15, 60) and not limits.is_stricter(15, None)
    with pytest.raises(limits.LimitRefused, match="15, 30 or 60"):
        limits.do_set_limits(alice, {"reality_check_minutes": 20})


def test_the_windows_roll(alice):
    now = timezone.now()
    lose_at_a_table(alice, 40, ago=dt.timedelta(hours=2))
    lose_at_a_table(alice, 30, ago=dt.timedelta(days=2))
    lose_at_a_table(alice, 20, ago=dt.timedelta(days=10))
    lose_at_a_table(alice, 10, ago=dt.timedelta(days=40))
    assert limits.losses(alice.pk, now) == {"loss_day": 40, "loss_week": 70, "loss_month": 90}
    # A day later the 40 has left the day's window.
    assert limits.losses(alice.pk, now + dt.timedelta(hours=23))["loss_day"] == 0


def test_winnings_offset_losses_in_a_window(alice):
    lose_at_a_table(alice, 50, won=100)
    lose_at_a_table(alice, 30)
    assert limits.losses(alice.pk, timezone.now())["loss_day"] == -20


def test_the_loss_limit_refuses_the_chip_that_passes_it(alice):
    limits.do_set_limits(alice, {"loss_day": 50})
    lose_at_a_table(alice, 40, ago=dt.timedelta(hours=3))
    row = PlayLimits.objects.get(user=alice)
    now = timezone.now()
    limits.check_stake(row, alice.pk, new_bet=True, stake=10, now=now)
    with pytest.raises(limits.LimitRefused) as refused:
        limits.check_stake(row, alice.pk, new_bet=True, stake=11, now=now)
    assert refused.value.code == "loss_limit"
    assert "loss limit per day of 50 chips: you have lost 40 in the last 24 hours" in refused.value.message
    # The 40 leaves the window 21 hours from now.
    resets = timezone.localtime(timezone.now() - dt.timedelta(hours=3) + dt.timedelta(days=1))
    assert f"fits again from {resets:%Y-%m-%d %H:%M}" in refused.value.message


def test_a_stake_over_the_limit_itself_never_fits(alice):
    limits.do_set_limits(alice, {"loss_month": 50})
    with pytest.raises(limits.LimitRefused, match="A stake of 60 is more than your loss limit per month of 50"):
        limits.check_stake(PlayLimits.objects.get(user=alice), alice.pk, new_bet=True, stake=60, now=timezone.now())


def test_the_session_time_limit_lets_the_round_finish_then_refuses_bets(alice):
    limits.do_set_limits(alice, {"session_minutes": 30})
    row = PlayLimits.objects.get(user=alice)
    start = timezone.now()
    limits.check_stake(row, alice.pk, new_bet=True, stake=10, now=start)
    row.refresh_from_db()
    assert row.session_started_at == start
    later = start + dt.timedelta(minutes=29)
    limits.check_stake(row, alice.pk, new_bet=True, stake=10, now=later)
    row.refresh_from_db()
    up = start + dt.timedelta(minutes=30)
    # A double in the round being played is no new bet.
    limits.check_stake(row, alice.pk, new_bet=False, stake=10, now=up)
    with pytest.raises(limits.LimitRefused) as refused:
        limits.check_stake(row, alice.pk, new_bet=True, stake=10, now=up)
    assert refused.value.code == "session_time"
    assert f"bet again from {limits.fmt(later + limits.SESSION_GAP)}" in refused.value.message
    # 30 minutes after the last bet the session is over: a new one begins.
    limits.check_stake(row, alice.pk, new_bet=True, stake=10, now=later + limits.SESSION_GAP)
    row.refresh_from_db()
    assert row.session_started_at == later + limits.SESSION_GAP


def test_the_reality_check_comes_due_and_keep_playing_puts_it_off(alice):
    limits.do_set_limits(alice, {"reality_check_minutes": 15})
    row = PlayLimits.objects.get(user=alice)
    start = timezone.now() - dt.timedelta(minutes=16)
    limits.check_stake(row, alice.pk, new_bet=True, stake=10, now=start)
    lose_at_a_table(alice, 25, ago=dt.timedelta(minutes=5))
    row.refresh_from_db()
    with pytest.raises(limits.RealityCheckDue) as due:
        limits.check_stake(row, alice.pk, new_bet=True, stake=10, now=timezone.now())
    assert (due.value.minutes, due.value.net) == (16, -25)
    assert "played for 16 minutes this session and lost 25 chips" in due.value.message
    assert "15 minutes" in limits.do_keep_playing(alice)
    row.refresh_from_db()
    limits.check_stake(row, alice.pk, new_bet=True, stake=10, now=timezone.now())


def test_no_refill_once_a_loss_limit_is_reached(alice):
    limits.do_set_limits(alice, {"loss_week": 50})
    lose_at_a_table(alice, 50)
    ledger.admin_adjust(user=alice, amount=-950, reason="Lost elsewhere", admin=alice)
    with pytest.raises(RefillRefused, match="reached your loss limit per week"):
        do_refill(alice)


def test_the_page_usage_counts_losses_and_session_minutes(alice):
    limits.do_set_limits(alice, {"loss_day": 100, "session_minutes": 60})
    lose_at_a_table(alice, 30)
    rows = {row.name: row for row in limits.usage(alice)}
    assert (rows["loss_day"].used, rows["loss_day"].limit, rows["loss_day"].percent) == (30, 100, 30)
    assert rows["session_minutes"].used == 0
