"""Tables, their seats, shoes and rounds: the database holds the truth of every table.

A change to a table (tables.play.services) locks the Table row, applies the engine
to the current round's state, writes the ledger transfers and bumps
`Table.version`, all in one transaction.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q

from tables.engine import PROFILES, RuleSet
from tables.engine.exact.edge_figures import basic_strategy_edge_pct

# The largest id a row can have (BigAutoField, a signed 64-bit integer): an id
# beyond it, in a path or a query, names nothing (casino/converters.py, tables/forms.py).
BIGGEST_ID = 2**63 - 1


class RuleProfile(models.TextChoices):
    """The five rule profiles of RULES.md, by slug (the engine's PROFILES keys)."""

    ATLANTIC_CITY = "atlantic-city", "Atlantic City"
    ATLANTIC_CITY_MULTI = "atlantic-city-multi", "Atlantic City, five seats"
    INTERNET_7 = "internet-7", "Internet casino, seven seats"
    INTERNET_6 = "internet-6", "Internet casino, six seats"
    ROCKET_ACADEMY = "rocket-academy", "Rocket Academy single deck"


class Table(models.Model):
    name = models.CharField(max_length=80, unique=True)
    profile = models.CharField(max_length=32, choices=RuleProfile.choices)
    seat_count = models.PositiveSmallIntegerField()
    min_bet = models.PositiveIntegerField(default=1)
    max_bet = models.PositiveIntegerField(default=100)
    default_bet = models.PositiveIntegerField(
        default=10, help_text="The bet a betting window offers first (kept within the table's limits)."
    )
    # RULES.md "Multiplayer timing": per-table settings with these defaults.
    betting_seconds = models.PositiveSmallIntegerField(default=15)
    insurance_seconds = models.PositiveSmallIntegerField(default=10)
    decision_seconds = models.PositiveSmallIntegerField(default=20)
    top_up = models.BooleanField(
        default=True, help_text="Grant 100 chips to a seat holding less than 1 chip as a betting window opens."
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="private_tables",
        help_text="Set for a private solo table: only its owner may sit there.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_tables",
        help_text="The player who opened it from the lobby (a solo or Rocket Academy table); empty for the house's tables.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    # The live state: bumped by every change, so a render or an action can say
    # which state it was made against.
    version = models.PositiveBigIntegerField(default=0, editable=False)
    current_round = models.ForeignKey(
        "Round", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", editable=False
    )
    # When something happens by itself next: the betting window closes, a
    # decision times out, or the next window opens. Null: nothing is pending.
    deadline = models.DateTimeField(null=True, blank=True, editable=False)
    # Per seat: [decision key, version at which that decision was first offered].
    # An action made against an older version than its decision is stale.
    decisions = models.JSONField(default=dict, blank=True, editable=False)
    # Pause between a settled round and the next betting window.
    pause_seconds = models.PositiveSmallIntegerField(default=4)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["deadline"], name="table_deadline")]
        constraints = [
            models.CheckConstraint(condition=Q(seat_count__gte=1, seat_count__lte=7), name="table_seats_1_to_7"),
            models.CheckConstraint(condition=Q(min_bet__gte=1), name="table_min_bet_at_least_1"),
            models.CheckConstraint(condition=Q(max_bet__gte=F("min_bet")), name="table_max_bet_not_below_min"),
            models.CheckConstraint(
                condition=Q(betting_seconds__gte=1, insurance_seconds__gte=1, decision_seconds__gte=1),
                name="table_timers_at_least_1s",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        rules = PROFILES.get(self.profile)
        if rules is not None and self.seat_count and self.seat_count > rules.seats:
            raise ValidationError(
                {"seat_count": f"A {self.get_profile_display()} table has at most {rules.seats} seat(s)."}
            )
        if self.min_bet and self.max_bet and not self.min_bet <= self.default_bet <= self.max_bet:
            raise ValidationError({"default_bet": "The default bet must lie between the minimum and the maximum."})

    @property
    def rules(self) -> RuleSet:
        """The engine's rules for this table's profile (RULES.md)."""
        return PROFILES[self.profile]

    @property
    def basic_strategy_edge_pct(self) -> float | None:
        """The exact house edge of basic strategy at this table's rules, in per cent (precomputed)."""
        return basic_strategy_edge_pct(self.rules)

    @property
    def is_private(self) -> bool:
        return self.owner_id is not None

    @property
    def timed(self) -> bool:
        """RULES.md: the multiplayer timers hold at every table with more than one seat."""
        return self.seat_count > 1


class Seat(models.Model):
    """One of a table's places; `player` is null while it is free."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    # The stack: a ledger account opened when the player sits down.
    account = models.OneToOneField(
        "accounts.LedgerAccount", null=True, blank=True, on_delete=models.PROTECT, related_name="seat"
    )
    sat_at = models.DateTimeField(null=True, blank=True)
    # Win/loss since sitting down: the sum of the seat's round results.
    net = models.BigIntegerField(default=0)
    missed_windows = models.PositiveSmallIntegerField(default=0)
    # Asked to leave during a round: cashed out when the round ends.
    leaving = models.BooleanField(default=False)
    # The table version at which the seat last changed hands: a sit, leave or
    # move made against an older version is stale.
    changed_version = models.PositiveBigIntegerField(default=0)
    # The original bet of the seat's last round played: the next round's bet
    # starts from it (the chip tray's Rebet). 0 before the first.
    last_bet = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_seat_per_number"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.number}"

    # One lifecycle for every way a seat changes hands (sit, move, stand up):
    # `version` is the table version the change commits as (stale clicks are
    # told from it). The caller holds the table's lock and moves the chips.

    def occupy(
        self, player, account, *, version: int, sat_at, net: int = 0, missed_windows: int = 0, last_bet: int = 0
    ) -> None:
        """`player` takes the seat, with `account` as its stack (and, when moving seats, their record so far)."""
        self.player, self.account, self.sat_at = player, account, sat_at
        self.net, self.missed_windows, self.last_bet = net, missed_windows, last_bet
        self.leaving = False
        self.changed_version = version
        self.save()

    def vacate(self, *, version: int) -> None:
        """The seat is free again: nobody, no stack, no record."""
        self.player = self.account = self.sat_at = None
        self.net = self.missed_windows = self.last_bet = 0
        self.leaving = False
        self.changed_version = version
        self.save()


class SeatAccount(models.Model):
    """The stack a player last had at a seat: sitting there again reuses it, not a new ledger account each time.

    One row per seat and player (issue 15: a hundred sit/leave cycles made a
    hundred accounts). The account is reused only while no seat holds it and
    it is empty; otherwise the sit opens a new one and remembers that instead.
    """

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    account = models.OneToOneField("accounts.LedgerAccount", on_delete=models.PROTECT, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["seat", "player"], name="one_stack_per_seat_and_player")]

    def __str__(self) -> str:
        return f"{self.seat}: {self.account}"


class Shoe(models.Model):
    """A shoe in use at a table. The seed stays secret until the shoe is retired."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="shoes")
    decks = models.PositiveSmallIntegerField()
    commitment = models.CharField(max_length=64, help_text="SHA-256 of the seed, published before use.")
    seed = models.CharField(max_length=64, help_text="Hex; shown only once the shoe is retired.")
    created_at = models.DateTimeField(auto_now_add=True)
    retired_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"Shoe {self.commitment[:12]}…"


class RoundPhase(models.TextChoices):
    BETTING = "betting", "Betting"
    INSURANCE = "insurance", "Insurance"
    PLAYERS = "players", "Players"
    SETTLED = "settled", "Settled"


class Round(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField(help_text="The round's number at its table.")
    profile = models.CharField(max_length=32, choices=RuleProfile.choices)
    shoe = models.ForeignKey(Shoe, on_delete=models.PROTECT, related_name="rounds")
    phase = models.CharField(max_length=16, choices=RoundPhase.choices, default=RoundPhase.BETTING)
    # The engine's round (tables.engine.Round.to_json), the hole card and the
    # shoe included: it never leaves the server as it is.
    state = models.JSONField()
    # When each engine event happened, parallel to state["events"].
    event_times = models.JSONField(default=list)
    # Who played each seat ({"3": "alice"}), written as the betting window
    # opens: the log keeps their names after they leave.
    names = models.JSONField(default=dict, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="one_round_number_per_table")]
        indexes = [models.Index(fields=["table", "-id"], name="round_table_latest")]

    def __str__(self) -> str:
        return f"{self.table} round {self.number}"


class SeatResult(models.TextChoices):
    WIN = "win", "Win"
    LOSS = "loss", "Loss"
    PUSH = "push", "Push"


class RoundSeat(models.Model):
    """One seat's part in one settled round: the hand history's row, one per player per round.

    Written once, at settlement, from the engine's result; the round's events
    (Round.state) say how it came about. Denormalised (table, profile, player,
    settled_at) so a player's history of hundreds of thousands of rounds is
    filtered and paged from its indexes alone.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="players")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    profile = models.CharField(max_length=32, choices=RuleProfile.choices)
    player = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="round_seats")
    account = models.ForeignKey("accounts.LedgerAccount", on_delete=models.PROTECT, related_name="+")
    seat = models.PositiveSmallIntegerField()
    settled_at = models.DateTimeField()
    stack_before = models.BigIntegerField()
    stack_after = models.BigIntegerField()
    net = models.BigIntegerField()
    bet = models.PositiveIntegerField(help_text="The original bet.")
    staked = models.PositiveIntegerField(help_text="Everything staked: bet, doubles, splits and insurance.")
    insurance = models.PositiveIntegerField(default=0)
    hands = models.JSONField(help_text="Each hand: cards, total, bet (doubles included), outcome.")
    result = models.CharField(max_length=8, choices=SeatResult.choices)
    blackjacks = models.PositiveSmallIntegerField(default=0)
    # The coach's review of the seat's decisions (tables/play/reviews.py), written after
    # settlement; null until then. The four figures sum up the list for the history.
    review = models.JSONField(
        null=True, blank=True, help_text="Each decision priced against the best play (docs/hand-history-format.md)."
    )
    decisions = models.PositiveSmallIntegerField(default=0)
    best_decisions = models.PositiveSmallIntegerField(default=0)
    ev_given = models.FloatField(default=0, help_text="Chips of expected value given away by the decisions.")
    worst_cost = models.FloatField(default=0, help_text="The costliest decision's cost in chips.")

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "seat"], name="one_result_per_seat_per_round"),
            models.CheckConstraint(condition=Q(net=F("stack_after") - F("stack_before")), name="round_seat_net_adds_up"),
        ]
        indexes = [
            models.Index(fields=["player", "-id"], name="history_newest"),
            models.Index(fields=["player", "settled_at"], name="history_by_date"),
            models.Index(fields=["player", "table", "-id"], name="history_by_table"),
            models.Index(fields=["player", "profile", "-id"], name="history_by_profile"),
            models.Index(fields=["player", "result", "-id"], name="history_by_result"),
            # Covers the history summary (one aggregate over all of a player's rows).
            models.Index(fields=["player", "net", "result", "blackjacks"], name="history_summary"),
            # The rows the coach has not reviewed yet (manage.py review_rounds): a few at any time.
            models.Index(fields=["id"], condition=Q(review__isnull=True), name="history_unreviewed"),
        ]

    def __str__(self) -> str:
        return f"{self.round}, seat {self.seat} ({self.player})"
