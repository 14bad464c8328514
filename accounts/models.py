"""Players and the chip ledger.

Every chip lives in exactly one LedgerAccount. Chips move only by a Transfer,
written by accounts.ledger inside the transaction of the change that moved
them; `balance` is a cache of the transfers, kept by F() updates in that same
transaction, and `manage.py audit_ledger` proves it.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models import Q
from django.utils.crypto import salted_hmac


def fit_to_field(model: type[models.Model], field_name: str, text: str) -> str:
    """`text` as it fits the field: cut to its max_length, ending in "…" when cut.

    Names and labels built from a player's name (150 characters at most) can
    outgrow their column; SQLite stores them anyway and PostgreSQL refuses the
    row, so they are cut where they are made (issue 15).
    """
    limit = model._meta.get_field(field_name).max_length
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


class User(AbstractUser):
    """A player (or an admin). The bankroll is the user's LedgerAccount of kind BANKROLL."""

    # Issue 14: the end of the player's latest break or self-exclusion (accounts.pauses);
    # log-in is refused until then. Not editable: nobody ends a pause early.
    paused_until = models.DateTimeField(null=True, blank=True, editable=False)
    coach_hints = models.BooleanField(
        default=False,
        help_text="Show the exact value of every play at the player's decisions (the table's Hints switch).",
    )

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"

    def _get_session_auth_hash(self, secret: str | None = None) -> str:
        # A break changes the hash, so every session of the player ends with it
        # (as a new password does). Unpaused players keep Django's own hash.
        if self.paused_until is None:
            return super()._get_session_auth_hash(secret=secret)
        return salted_hmac(
            "accounts.User.get_session_auth_hash",
            f"{self.password}|{self.paused_until.isoformat()}",
            secret=secret,
            algorithm="sha256",
        ).hexdigest()


class AccountKind(models.TextChoices):
    BANKROLL = "bankroll", "Bankroll"
    SEAT = "seat", "Seat stack"
    HOUSE = "house", "House"
    GRANTS = "grants", "Grants"


# Only the house (which wins and loses) and the grants account (which issues
# play-money) may go below zero; the sum over all accounts is always zero.
OVERDRAFT_KINDS = (AccountKind.HOUSE, AccountKind.GRANTS)


class LedgerAccount(models.Model):
    kind = models.CharField(max_length=16, choices=AccountKind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ledger_accounts",
        help_text="The owner of a bankroll or a seat stack.",
    )
    label = models.CharField(max_length=120)
    balance = models.BigIntegerField(default=0, editable=False)
    # A seat's outstanding top-up: chips the grants account lent it (ledger.top_up).
    # Capped at the stack as each round settles; repaid first when it cashes out.
    credit = models.BigIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(balance__gte=0) | Q(kind__in=OVERDRAFT_KINDS),
                name="ledger_account_no_overdraft",
            ),
            models.CheckConstraint(
                condition=Q(credit=0) | Q(kind=AccountKind.SEAT, credit__gt=0), name="ledger_account_credit_on_seats"
            ),
            models.UniqueConstraint(
                fields=["user"], condition=Q(kind=AccountKind.BANKROLL), name="one_bankroll_per_user"
            ),
            models.UniqueConstraint(
                fields=["kind"], condition=Q(kind__in=OVERDRAFT_KINDS), name="one_house_one_grants"
            ),
            models.CheckConstraint(
                condition=Q(user__isnull=False) | ~Q(kind__in=[AccountKind.BANKROLL, AccountKind.SEAT]),
                name="player_accounts_have_an_owner",
            ),
        ]
        indexes = [models.Index(fields=["kind", "user"])]

    def __str__(self) -> str:
        return self.label


class TransferKind(models.TextChoices):
    SIGNUP_GRANT = "signup_grant", "Sign-up grant"
    ADMIN_GRANT = "admin_grant", "Admin grant"
    CORRECTION = "correction", "Correction"
    BUY_IN = "buy_in", "Buy-in"
    CASH_OUT = "cash_out", "Cash-out"
    TOP_UP = "top_up", "Top-up"
    TOP_UP_REPAID = "top_up_repaid", "Top-up repaid"
    REFILL = "refill", "Refill"
    BET = "bet", "Bet"
    DOUBLE = "double", "Double"
    SPLIT = "split", "Split"
    INSURANCE = "insurance", "Insurance"
    PAYOUT = "payout", "Payout"


class Transfer(models.Model):
    source = models.ForeignKey(LedgerAccount, on_delete=models.PROTECT, related_name="outgoing")
    destination = models.ForeignKey(LedgerAccount, on_delete=models.PROTECT, related_name="incoming")
    amount = models.BigIntegerField()
    kind = models.CharField(max_length=16, choices=TransferKind.choices)
    reason = models.CharField(max_length=200, blank=True)
    round = models.ForeignKey(
        "tables.Round",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="transfers",
        help_text="The round whose play moved these chips.",
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="The admin who made a grant or correction.",
    )

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="transfer_amount_positive"),
            models.CheckConstraint(
                condition=~Q(source=models.F("destination")), name="transfer_between_two_accounts"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.amount} chips {self.source} → {self.destination} ({self.get_kind_display()})"


class Signup(models.Model):
    """An account made on the sign-up page, by the client address it came from.

    SIGNUPS_PER_ADDRESS_PER_HOUR counts these (accounts.services.do_sign_up);
    rows older than the hour are pruned as new ones are written.
    """

    address = models.CharField(max_length=64, help_text="The client address (accounts.throttle.client_address).")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["address", "created_at"], name="signups_by_address")]

    def __str__(self) -> str:
        return f"{self.address} at {self.created_at:%Y-%m-%d %H:%M}"


class LimitName(models.TextChoices):
    """The limits a player sets on their own play (issue 14), each optional."""

    LOSS_DAY = "loss_day", "Loss limit per day"
    LOSS_WEEK = "loss_week", "Loss limit per week"
    LOSS_MONTH = "loss_month", "Loss limit per month"
    SESSION_MINUTES = "session_minutes", "Session time limit"
    REALITY_CHECK_MINUTES = "reality_check_minutes", "Reality check"


class PlayLimits(models.Model):
    """A player's own limits, as they stand now, and their current play session.

    Every field of LimitName is a number (chips or minutes) or None for no
    limit; for each, a lower number is the stricter limit. Changes go through
    accounts.limits, which records each one as a LimitChange.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="play_limits")
    loss_day = models.PositiveIntegerField(null=True, blank=True)
    loss_week = models.PositiveIntegerField(null=True, blank=True)
    loss_month = models.PositiveIntegerField(null=True, blank=True)
    session_minutes = models.PositiveIntegerField(null=True, blank=True)
    reality_check_minutes = models.PositiveIntegerField(null=True, blank=True)
    # The play session: from its first bet until SESSION_GAP without one (accounts.limits).
    session_started_at = models.DateTimeField(null=True, blank=True, editable=False)
    last_bet_at = models.DateTimeField(null=True, blank=True, editable=False)
    # When the next reality check is due (None: no check set, or no session yet).
    reality_check_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        verbose_name_plural = "play limits"

    def __str__(self) -> str:
        return f"{self.user}'s limits"


class LimitChangeStatus(models.TextChoices):
    APPLIED = "applied", "Applied"
    PENDING = "pending", "Pending"
    CANCELLED = "cancelled", "Cancelled"


class LimitChange(models.Model):
    """One change of one limit: when, by whom, and whether it applied (a raise waits 24 h and a confirmation)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="limit_changes")
    limit = models.CharField(max_length=32, choices=LimitName.choices)
    old_value = models.PositiveIntegerField(null=True, blank=True)
    new_value = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=LimitChangeStatus.choices)
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # A lowering applies at once; a raise or removal may be confirmed from then on.
    applies_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["user", "status"], name="limit_change_pending")]

    def __str__(self) -> str:
        return f"{self.user}: {self.get_limit_display()} {self.old_value} → {self.new_value} ({self.status})"


class PauseKind(models.TextChoices):
    BREAK = "break", "Break"
    SELF_EXCLUSION = "self_exclusion", "Self-exclusion"


class Pause(models.Model):
    """A break or a self-exclusion the player took (accounts.pauses): history, never edited or ended early."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="pauses")
    kind = models.CharField(max_length=16, choices=PauseKind.choices)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-id"]
        constraints = [models.CheckConstraint(condition=Q(ends_at__gt=models.F("starts_at")), name="pause_ends_after_it_starts")]

    def __str__(self) -> str:
        return f"{self.user}: {self.get_kind_display().lower()} until {self.ends_at:%Y-%m-%d %H:%M}"
