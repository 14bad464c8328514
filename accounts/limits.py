"""A player's own limits (issue 14): loss limits, a session time limit, reality checks.

The rules are small pure functions (`is_stricter`, `session_open`, ...); the
services change the limits (`do_set_limits`, `do_confirm_change`, ...) and
check a stake (`check_stake`, called by tables.play.services inside the
bet's own locked transaction). Losses are read from the ledger: the net
chips a player's seats staked and were paid at the tables, in a rolling window.

UKGC RTS 12 (as the issue asks): lowering a limit takes effect at once;
raising or removing one only after 24 hours and a confirmation by the player.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import BigIntegerField, Case, F, Q, Sum, When
from django.utils import timezone

from accounts.models import (
    AccountKind,
    LimitChange,
    LimitChangeStatus,
    LimitName,
    PlayLimits,
    Transfer,
    TransferKind,
    User,
)
from tables.engine import ACTIONS

# The rolling windows of the loss limits.
WINDOWS: dict[str, dt.timedelta] = {
    LimitName.LOSS_DAY: dt.timedelta(days=1),
    LimitName.LOSS_WEEK: dt.timedelta(days=7),
    LimitName.LOSS_MONTH: dt.timedelta(days=30),
}
WINDOW_WORDS = {LimitName.LOSS_DAY: "24 hours", LimitName.LOSS_WEEK: "7 days", LimitName.LOSS_MONTH: "30 days"}
# A play session ends after this long without a bet.
SESSION_GAP = dt.timedelta(minutes=30)
# A raise or removal waits this long, then needs the player's confirmation.
RAISE_WAIT = dt.timedelta(hours=24)
REALITY_CHECK_CHOICES = (15, 30, 60)
# The session's last bet is written at most this often (the gap is half an hour).
LAST_BET_PRECISION = dt.timedelta(seconds=60)
MAX_LIMIT = 100_000_000

# The chips a seat stakes (the action registry says which) and is paid.
STAKE_KINDS = [TransferKind(spec.stake) for spec in ACTIONS if spec.stake is not None]
_LOSS = Case(
    When(kind=TransferKind.PAYOUT, then=-F("amount")), default=F("amount"), output_field=BigIntegerField()
)


class LimitRefused(Exception):
    """A play or a change the limits refuse; `message` is for the player, `code` for programs."""

    def __init__(self, message: str, code: str = "limit") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


class RealityCheckDue(LimitRefused):
    """The reality check is due: the bet waits for `Keep playing` (or `Stop playing`)."""

    def __init__(self, played: dt.timedelta, net: int) -> None:
        minutes = int(played.total_seconds() // 60)
        result = f"won {net:,}" if net > 0 else f"lost {-net:,}" if net < 0 else "neither won nor lost"
        super().__init__(
            f"Reality check: you have played for {minutes} minutes this session and {result} chips.", "reality_check"
        )
        self.minutes = minutes
        self.net = net


# --- The rules ------------------------------------------------------------------------


def is_stricter(old: int | None, new: int | None) -> bool:
    """For every limit a lower number is stricter, and None (no limit) the loosest."""
    return new is not None and (old is None or new < old)


def session_open(limits: PlayLimits, now: dt.datetime) -> bool:
    return (
        limits.session_started_at is not None
        and limits.last_bet_at is not None
        and now - limits.last_bet_at < SESSION_GAP
    )


def tracks_sessions(limits: PlayLimits) -> bool:
    return limits.session_minutes is not None or limits.reality_check_minutes is not None


def has_loss_limit(limits: PlayLimits) -> bool:
    return any(getattr(limits, name) is not None for name in WINDOWS)


def fmt(when: dt.datetime) -> str:
    return f"{timezone.localtime(when):%Y-%m-%d %H:%M}"


# --- Reading the ledger ---------------------------------------------------------------


def _table_transfers(user_id: int):
    return Transfer.objects.filter(
        Q(kind__in=STAKE_KINDS, source__kind=AccountKind.SEAT, source__user_id=user_id)
        | Q(kind=TransferKind.PAYOUT, destination__kind=AccountKind.SEAT, destination__user_id=user_id)
    )


def losses(user_id: int, now: dt.datetime) -> dict[str, int]:
    """Net chips lost at the tables in each window (negative: won), in one query."""
    longest = max(WINDOWS.values())
    totals = _table_transfers(user_id).filter(created_at__gt=now - longest).aggregate(
        **{name: Sum(_LOSS, filter=Q(created_at__gt=now - window)) for name, window in WINDOWS.items()}
    )
    return {name: totals[name] or 0 for name in WINDOWS}


def net_since(user_id: int, since: dt.datetime) -> int:
    """The player's net result at the tables since `since` (positive: won)."""
    lost = _table_transfers(user_id).filter(created_at__gte=since).aggregate(lost=Sum(_LOSS))["lost"]
    return -(lost or 0)


def resets_at(user_id: int, name: str, limit: int, lost: int, stake: int, now: dt.datetime) -> dt.datetime | None:
    """When, with no more play, `stake` fits under the limit again as losses leave the window (None: never)."""
    if stake > limit:
        return None
    window = WINDOWS[name]
    remaining = lost
    rows = (
        _table_transfers(user_id)
        .filter(created_at__gt=now - window)
        .annotate(loss=_LOSS)
        .order_by("created_at", "id")
        .values_list("created_at", "loss")
    )
    for created_at, loss in rows.iterator():
        remaining -= loss
        if remaining + stake <= limit:
            return created_at + window
    return now


# --- The check at the table (tables.play.services.do_act) ------------------------------


def limits_of_player(user: User) -> PlayLimits | None:
    """The player's limits if they ever set any (read with the seats: select_related("player__play_limits"))."""
    try:
        return user.play_limits
    except PlayLimits.DoesNotExist:
        return None


def check_stake(limits: PlayLimits | None, user_id: int, *, new_bet: bool, stake: int, now: dt.datetime) -> None:
    """Refuse a play that a limit forbids (LimitRefused), else note the session's bet.

    `new_bet`: the play is a round's first bet (the session and reality-check
    rules apply to it alone: a round once begun is played out); `stake`: the
    chips it puts on the table. Called under the table's lock, in the play's
    transaction: a refusal undoes the play.
    """
    if limits is None:
        return
    if connection.features.has_select_for_update and (has_loss_limit(limits) or tracks_sessions(limits)):
        # Two tables' plays do not share a table lock: the player's limits row serialises them.
        limits = PlayLimits.objects.select_for_update().get(pk=limits.pk)
    is_open = session_open(limits, now)
    if new_bet and is_open and limits.session_minutes is not None:
        ends = limits.session_started_at + dt.timedelta(minutes=limits.session_minutes)
        if now >= ends:
            raise LimitRefused(
                f"Your session time limit of {limits.session_minutes} minutes is up. You can bet again from "
                f"{fmt(limits.last_bet_at + SESSION_GAP)}, after {int(SESSION_GAP.total_seconds() // 60)} minutes "
                "without play.",
                "session_time",
            )
    if new_bet and is_open and limits.reality_check_at is not None and now >= limits.reality_check_at:
        raise RealityCheckDue(now - limits.session_started_at, net_since(user_id, limits.session_started_at))
    if stake > 0 and has_loss_limit(limits):
        lost = losses(user_id, now)
        for name in WINDOWS:
            limit = getattr(limits, name)
            if limit is None or lost[name] + stake <= limit:
                continue
            label = LimitName(name).label.lower()
            if stake > limit:
                raise LimitRefused(f"A stake of {stake:,} is more than your {label} of {limit:,} chips.", "loss_limit")
            when = resets_at(user_id, name, limit, lost[name], stake, now)
            raise LimitRefused(
                f"That would pass your {label} of {limit:,} chips: you have lost {max(lost[name], 0):,} in the "
                f"last {WINDOW_WORDS[name]}. A stake of {stake:,} fits again from {fmt(when)}.",
                "loss_limit",
            )
    if new_bet and tracks_sessions(limits):
        _note_bet(limits, now, is_open)


def _note_bet(limits: PlayLimits, now: dt.datetime, is_open: bool) -> None:
    if not is_open:
        limits.session_started_at = limits.last_bet_at = now
        limits.reality_check_at = (
            now + dt.timedelta(minutes=limits.reality_check_minutes) if limits.reality_check_minutes else None
        )
        limits.save(update_fields=["session_started_at", "last_bet_at", "reality_check_at"])
    elif now - limits.last_bet_at >= LAST_BET_PRECISION:
        limits.last_bet_at = now
        limits.save(update_fields=["last_bet_at"])


def loss_limit_reached(user: User, now: dt.datetime | None = None) -> str | None:
    """The first loss limit the player has reached, by its label; None if none (a refill is refused then)."""
    limits = PlayLimits.objects.filter(user=user).first()
    if limits is None or not has_loss_limit(limits):
        return None
    lost = losses(user.pk, now or timezone.now())
    for name in WINDOWS:
        limit = getattr(limits, name)
        if limit is not None and lost[name] >= limit:
            return LimitName(name).label.lower()
    return None


def do_keep_playing(user: User) -> str:
    """`Keep playing` at a reality check: the next one in the chosen interval."""
    with transaction.atomic():
        limits = PlayLimits.objects.select_for_update().filter(user=user).first()
        if limits is None or not limits.reality_check_minutes:
            return "Enjoy the game."
        limits.reality_check_at = timezone.now() + dt.timedelta(minutes=limits.reality_check_minutes)
        limits.save(update_fields=["reality_check_at"])
    return f"Enjoy the game. The next reality check comes in {limits.reality_check_minutes} minutes."


# --- Changing the limits ---------------------------------------------------------------


def limits_of(user: User) -> PlayLimits:
    limits, _ = PlayLimits.objects.get_or_create(user=user)
    return limits


def check_value(name: str, value: int | None) -> int | None:
    if value is None:
        return None
    if type(value) is not int or value < 1 or value > MAX_LIMIT:
        raise LimitRefused(f"{LimitName(name).label}: a whole number from 1, or empty for no limit.", "bad_value")
    if name == LimitName.REALITY_CHECK_MINUTES and value not in REALITY_CHECK_CHOICES:
        raise LimitRefused("A reality check comes every 15, 30 or 60 minutes, or never.", "bad_value")
    return value


def do_set_limits(user: User, values: dict[str, int | None], *, by: User | None = None) -> list[LimitChange]:
    """Change the player's limits: a stricter one at once, a looser one pending for 24 hours.

    A new request for a limit replaces that limit's pending change. Returns the changes made.
    """
    values = {str(LimitName(name)): check_value(name, value) for name, value in values.items()}
    now = timezone.now()
    changes: list[LimitChange] = []
    with transaction.atomic():
        limits_of(user)
        limits = PlayLimits.objects.select_for_update().get(user=user)
        for name, new in values.items():
            old = getattr(limits, name)
            pending = LimitChange.objects.filter(user=user, limit=name, status=LimitChangeStatus.PENDING)
            if new == old:
                # Back to the limit as it stands: a pending raise is withdrawn.
                pending.update(status=LimitChangeStatus.CANCELLED, decided_at=now)
                continue
            if pending.filter(new_value=new).exists():
                continue  # the same raise asked again: it keeps its time
            pending.update(status=LimitChangeStatus.CANCELLED, decided_at=now)
            stricter = is_stricter(old, new)
            change = LimitChange.objects.create(
                user=user, limit=name, old_value=old, new_value=new, created_at=now, created_by=by,
                status=LimitChangeStatus.APPLIED if stricter else LimitChangeStatus.PENDING,
                applies_at=now if stricter else now + RAISE_WAIT, decided_at=now if stricter else None,
            )
            if stricter:
                _apply(limits, name, new, now)
            changes.append(change)
    return changes


def _apply(limits: PlayLimits, name: str, value: int | None, now: dt.datetime) -> None:
    setattr(limits, name, value)
    fields = [name]
    if name == LimitName.REALITY_CHECK_MINUTES:
        # A new interval counts from now in an open session.
        limits.reality_check_at = now + dt.timedelta(minutes=value) if value and session_open(limits, now) else None
        fields.append("reality_check_at")
    limits.save(update_fields=fields)


def _pending(user: User, change_id: int) -> LimitChange:
    change = LimitChange.objects.select_for_update().filter(
        pk=change_id, user=user, status=LimitChangeStatus.PENDING
    ).first()
    if change is None:
        raise LimitRefused("That change is no longer pending.", "stale")
    return change


def do_confirm_change(user: User, change_id: int) -> LimitChange:
    """The player confirms a raise or removal, 24 hours or more after asking for it."""
    now = timezone.now()
    with transaction.atomic():
        limits = limits_of(user)
        limits = PlayLimits.objects.select_for_update().get(pk=limits.pk)
        change = _pending(user, change_id)
        if now < change.applies_at:
            raise LimitRefused(f"This change can be confirmed from {fmt(change.applies_at)}.", "too_soon")
        _apply(limits, change.limit, change.new_value, now)
        change.status, change.decided_at = LimitChangeStatus.APPLIED, now
        change.save(update_fields=["status", "decided_at"])
    return change


def do_cancel_change(user: User, change_id: int) -> LimitChange:
    with transaction.atomic():
        change = _pending(user, change_id)
        change.status, change.decided_at = LimitChangeStatus.CANCELLED, timezone.now()
        change.save(update_fields=["status", "decided_at"])
    return change


# --- What the limits page shows -------------------------------------------------------


@dataclass(frozen=True)
class Usage:
    name: str
    label: str
    limit: int | None
    used: int  # chips lost in the window, or minutes of the open session
    unit: str

    @property
    def percent(self) -> int:
        if not self.limit:
            return 0
        return max(0, min(100, round(100 * self.used / self.limit)))


def usage(user: User, now: dt.datetime | None = None) -> list[Usage]:
    now = now or timezone.now()
    limits = limits_of(user)
    lost = losses(user.pk, now)
    rows = [
        Usage(name, LimitName(name).label, getattr(limits, name), max(lost[name], 0), "chips") for name in WINDOWS
    ]
    played = int((now - limits.session_started_at).total_seconds() // 60) if session_open(limits, now) else 0
    rows.append(Usage(LimitName.SESSION_MINUTES, LimitName.SESSION_MINUTES.label, limits.session_minutes, played, "minutes"))
    return rows


def pending_changes(user: User) -> list[LimitChange]:
    return list(LimitChange.objects.filter(user=user, status=LimitChangeStatus.PENDING).order_by("applies_at"))
