"""A way back for broke players (issue 14): "Refill chips", at most once a day.

A player holding fewer than REFILL_BELOW_CHIPS in all (bankroll and seats)
may have their bankroll topped up to REFILL_TO_CHIPS: a grant of its own
transfer kind, refused during a break or self-exclusion and once a loss
limit is reached (accounts.limits).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts import balances, ledger, limits, pauses
from accounts.models import AccountKind, LedgerAccount, Transfer, TransferKind, User

REFILL_EVERY = dt.timedelta(hours=24)


class RefillRefused(Exception):
    """No refill now; the message says why, for the player."""


@dataclass(frozen=True)
class RefillOffer:
    """Whether the profile offers `Refill chips`, and if not yet, from when."""

    eligible: bool  # holds fewer chips than the threshold
    next_at: dt.datetime | None  # the last refill was under 24 h ago: the next one from then

    @property
    def available(self) -> bool:
        return self.eligible and self.next_at is None


def refill_offer(user: User, bankroll: int, at_tables: int, now: dt.datetime | None = None) -> RefillOffer:
    now = now or timezone.now()
    if bankroll + at_tables >= settings.REFILL_BELOW_CHIPS:
        return RefillOffer(eligible=False, next_at=None)
    last = _last_refill(user, now)
    return RefillOffer(eligible=True, next_at=last + REFILL_EVERY if last is not None else None)


def _last_refill(user: User, now: dt.datetime) -> dt.datetime | None:
    return (
        Transfer.objects.filter(
            kind=TransferKind.REFILL, destination__kind=AccountKind.BANKROLL, destination__user=user,
            created_at__gt=now - REFILL_EVERY,
        )
        .values_list("created_at", flat=True)
        .first()
    )


def check_refill(user: User, bankroll: LedgerAccount, now: dt.datetime) -> int:
    """The chips a refill grants now; RefillRefused if none."""
    if pauses.is_paused(user, now):
        raise RefillRefused(f"You are taking a break until {pauses.until_words(user)}: no refill until then.")
    held = bankroll.balance + balances.at_tables_balance(user.pk)
    if held >= settings.REFILL_BELOW_CHIPS:
        raise RefillRefused(
            f"You hold {held:,} chips; a refill is for players with fewer than {settings.REFILL_BELOW_CHIPS:,}."
        )
    reached = limits.loss_limit_reached(user, now)
    if reached is not None:
        raise RefillRefused(f"You have reached your {reached}: no refill until it resets.")
    last = _last_refill(user, now)
    if last is not None:
        next_at = timezone.localtime(last + REFILL_EVERY)
        raise RefillRefused(f"One refill a day: your next one is from {next_at:%Y-%m-%d %H:%M}.")
    amount = settings.REFILL_TO_CHIPS - bankroll.balance
    if amount < 1:  # only when chips at tables are negative, which the ledger forbids; never a refill of 0
        raise RefillRefused("Your bankroll is full already.")
    return amount


def do_refill(user: User) -> Transfer:
    """Top the player's bankroll up to REFILL_TO_CHIPS, under the bankroll's row lock."""
    with transaction.atomic():
        # The lock makes two clicks (two tabs) wait for each other: the second sees the first refill.
        bankroll = LedgerAccount.objects.select_for_update().get(kind=AccountKind.BANKROLL, user=user)
        user = User.objects.get(pk=user.pk)  # as it stands now: a break taken in another tab counts
        now = timezone.now()
        amount = check_refill(user, bankroll, now)
        return ledger.transfer(
            source=ledger.grants_account(),
            destination=bankroll,
            amount=amount,
            kind=TransferKind.REFILL,
            reason=f"Refill to {settings.REFILL_TO_CHIPS:,} chips",
        )
