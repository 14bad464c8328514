"""Making a player's account: the user, their bankroll and the sign-up grant, together or not at all.

Every way an account is made calls `do_create_account`: sign-up, the admin's
"Add user", `manage.py createsuperuser`, the load test's bots and the tests.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts import ledger
from accounts.models import Signup, User

SIGNUP_WINDOW = dt.timedelta(hours=1)


class SignupLimitReached(Exception):
    """Too many accounts made from one address within the hour; the message is fit for the visitor."""


def do_create_account(user: User) -> User:
    """Save a new `user` (its password already hashed) with a bankroll and the sign-up grant, in one transaction.

    Hash the password before calling (`set_password`, or a creation form's
    `save(commit=False)`): it takes a fifth of a second, and on SQLite the
    transaction holds the database's one write lock.
    """
    with transaction.atomic():
        user.save()
        ledger.open_bankroll(user)
    return user


def create_player(username: str, password: str | None, *, email: str = "", **fields: object) -> User:
    """A new player from plain values (commands, tests): `do_create_account` with the password hashed first."""
    user = User(username=User.normalize_username(username), email=User.objects.normalize_email(email), **fields)
    user.set_password(password)
    return do_create_account(user)


def check_may_sign_up(address: str) -> None:
    """Raise SignupLimitReached when `address` made SIGNUPS_PER_ADDRESS_PER_HOUR accounts within the hour."""
    limit = settings.SIGNUPS_PER_ADDRESS_PER_HOUR
    recent = Signup.objects.filter(address=address[:64], created_at__gte=timezone.now() - SIGNUP_WINDOW)
    if recent.count() >= limit:
        raise SignupLimitReached(
            "Too many accounts were made from your address in the last hour. Please try again later, "
            "or log in if you already have an account."
        )


def do_sign_up(user: User, address: str) -> User:
    """`do_create_account` for the sign-up page: counted against `address`, refused past the hourly limit."""
    address = address[:64]
    with transaction.atomic():
        # Checked again inside the transaction that records it (on SQLite it holds the write lock).
        check_may_sign_up(address)
        do_create_account(user)
        now = timezone.now()
        Signup.objects.filter(address=address, created_at__lt=now - SIGNUP_WINDOW).delete()
        Signup.objects.create(address=address, user=user)
    return user


def do_set_coach_hints(user: User, on: bool) -> None:
    """The player's Hints switch: remembered on their account, for every table and every visit."""
    User.objects.filter(pk=user.pk).update(coach_hints=on)
    user.coach_hints = on
