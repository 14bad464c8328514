"""The demo tables `make run` creates: one per rule profile."""

from __future__ import annotations

from tables.models import RuleProfile, Table

DEMO_TABLES: list[dict] = [
    {"name": "Atlantic City", "profile": RuleProfile.ATLANTIC_CITY, "seat_count": 1, "min_bet": 5, "max_bet": 100},
    {"name": "Boardwalk", "profile": RuleProfile.ATLANTIC_CITY_MULTI, "seat_count": 5, "min_bet": 5, "max_bet": 100},
    {"name": "Seven Seas", "profile": RuleProfile.INTERNET_7, "seat_count": 7, "min_bet": 1, "max_bet": 100},
    {"name": "Six Shooter", "profile": RuleProfile.INTERNET_6, "seat_count": 6, "min_bet": 1, "max_bet": 100},
    {"name": "Rocket Academy", "profile": RuleProfile.ROCKET_ACADEMY, "seat_count": 3, "min_bet": 1, "max_bet": 100},
]


def ensure_demo_tables() -> list[Table]:
    """Create any demo table that does not exist yet; never touches existing ones."""
    tables = []
    for spec in DEMO_TABLES:
        defaults = {key: value for key, value in spec.items() if key != "name"}
        table, _ = Table.objects.get_or_create(name=spec["name"], defaults=defaults)
        tables.append(table)
    return tables
