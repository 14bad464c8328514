"""Making a player's account: the user, their bankroll and the sign-up grant, together or not at all.

Every way an account is made calls `do_create_account`: sign-up, the admin's
"Add user", `manage.py createsuperuser`, the load test's bots and the tests.
"""

from __future__ import annotations

from django.db import transaction

from accounts import ledger
from accounts.models import User


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


def do_set_coach_hints(user: User, on: bool) -> None:
    """The player's Hints switch: remembered on their account, for every table and every visit."""
    User.objects.filter(pk=user.pk).update(coach_hints=on)
    user.coach_hints = on
