"""Take a break and self-exclusion (issue 14).

A break of 24 hours, 7 days or 30 days; a self-exclusion of 6 months, 1 year
or 5 years. Confirmed with the password, each takes effect at once: the
player's `paused_until` changes their session hash (every session ends), and
`pause_taken` tells the tables (connected in accounts.apps): their sockets
close and their seats leave, cashing out after the round. Log-in is refused
until the end (accounts.forms.LoginForm). Nobody ends a pause early: there is
no service for it, and the admin shows pauses read-only.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from accounts.models import Pause, PauseKind, User

# Sent after a pause is recorded (receivers act on commit): sender=Pause, user=, pause=.
pause_taken = Signal()


@dataclass(frozen=True)
class PauseLength:
    kind: PauseKind
    length: dt.timedelta
    label: str


LENGTHS: dict[str, PauseLength] = {
    "break-24h": PauseLength(PauseKind.BREAK, dt.timedelta(hours=24), "A break of 24 hours"),
    "break-7d": PauseLength(PauseKind.BREAK, dt.timedelta(days=7), "A break of 7 days"),
    "break-30d": PauseLength(PauseKind.BREAK, dt.timedelta(days=30), "A break of 30 days"),
    "exclusion-6m": PauseLength(PauseKind.SELF_EXCLUSION, dt.timedelta(days=183), "Self-exclusion for 6 months"),
    "exclusion-1y": PauseLength(PauseKind.SELF_EXCLUSION, dt.timedelta(days=365), "Self-exclusion for 1 year"),
    "exclusion-5y": PauseLength(PauseKind.SELF_EXCLUSION, dt.timedelta(days=5 * 365 + 1), "Self-exclusion for 5 years"),
}


class PauseRefused(Exception):
    """The pause was not taken; the message says why, for the player."""


def is_paused(user: object, now: dt.datetime | None = None) -> bool:
    until = getattr(user, "paused_until", None)
    return until is not None and until > (now or timezone.now())


def until_words(user: User) -> str:
    return f"{timezone.localtime(user.paused_until):%Y-%m-%d %H:%M}"


def do_take_pause(user: User, length: str, password: str, *, by: User | None = None) -> Pause:
    """Record the pause and end the player's play at once (on commit: sockets, seats)."""
    choice = LENGTHS.get(length)
    if choice is None:
        raise PauseRefused("Choose how long the break or self-exclusion lasts.")
    if not password or not user.check_password(password):
        raise PauseRefused("That is not your password: nothing was changed.")
    now = timezone.now()
    with transaction.atomic():
        row = User.objects.select_for_update().get(pk=user.pk)
        ends = now + choice.length
        # A shorter pause never shortens one already running.
        until = max(ends, row.paused_until) if row.paused_until is not None else ends
        pause = Pause.objects.create(user=row, kind=choice.kind, starts_at=now, ends_at=ends, created_by=by or user)
        User.objects.filter(pk=user.pk).update(paused_until=until)
        user.paused_until = until
        pause_taken.send(sender=Pause, user=user, pause=pause)
    return pause
