"""Tables and their settings. Seats and rounds are added by the live-tables work."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q


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
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=Q(seat_count__gte=1, seat_count__lte=7), name="table_seats_1_to_7"),
            models.CheckConstraint(condition=Q(min_bet__gte=1), name="table_min_bet_at_least_1"),
            models.CheckConstraint(condition=Q(max_bet__gte=F("min_bet")), name="table_max_bet_not_below_min"),
        ]

    def __str__(self) -> str:
        return self.name
