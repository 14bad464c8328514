"""Tables to play at, and rigged shoes: every card a test depends on is chosen by the test."""

from __future__ import annotations

import pytest

from tables.engine import CardShoe
from tables.fairness import shoes
from tables.models import RuleProfile, Table


@pytest.fixture
def rig(monkeypatch):
    """rig(cards, ...): the next shoes a table opens deal exactly these cards, in order."""
    queue: list[list[str]] = []

    def source(rules):
        cards = queue.pop(0) if queue else []
        return CardShoe.stacked(cards, rules.decks)

    monkeypatch.setattr(shoes, "shoe_source", source)

    def add(*decks_of_cards: list[str]) -> None:
        queue.extend(list(cards) for cards in decks_of_cards)

    return add


def make_table(profile: str = RuleProfile.ATLANTIC_CITY_MULTI, **fields) -> Table:
    seats = {"atlantic-city": 1, "atlantic-city-multi": 5, "internet-7": 7, "internet-6": 6, "rocket-academy": 3}
    values = {
        "name": f"{profile} table",
        "profile": profile,
        "seat_count": seats[profile],
        "min_bet": 1,
        "max_bet": 100,
        # Long pauses: the tests open each next window themselves (open_next_window).
        "pause_seconds": 60,
        **fields,
    }
    return Table.objects.create(**values)


@pytest.fixture
def staff(client, carol):
    """A client signed in as carol, made staff: the admin."""
    carol.is_staff = carol.is_superuser = True
    carol.save()
    client.force_login(carol)
    return client


@pytest.fixture
def solo_table(db):
    return make_table(RuleProfile.ATLANTIC_CITY)


@pytest.fixture
def multi_table(db):
    return make_table(RuleProfile.ATLANTIC_CITY_MULTI)


def open_next_window(table: Table) -> None:
    """Skip the pause before the next betting window (default: 4 s after the last sit or round)."""
    from django.utils import timezone

    from tables.play import services

    Table.objects.filter(pk=table.pk, deadline__isnull=False).update(deadline=timezone.now())
    services.settle_overdue(table.pk)


def seat_and_bet(table: Table, *players, amount: int = 10) -> None:
    """Each player sits in the next seat (1, 2, ...), the betting window opens, and each bets `amount`."""
    from tables.play import services

    for seat, player in enumerate(players, start=1):
        services.do_sit(table.pk, player, seat)
    open_next_window(table)
    for seat, player in enumerate(players, start=1):
        version = Table.objects.values_list("version", flat=True).get(pk=table.pk)
        services.do_act(table.pk, player, "bet", seat=seat, amount=amount, version=version)


@pytest.fixture
def betting(multi_table, alice, bob):
    """alice in seat 1 and bob in seat 2 of the multi-seat table, in a betting window."""
    from tables.play import services

    services.do_sit(multi_table.pk, alice, 1)
    services.do_sit(multi_table.pk, bob, 2)
    open_next_window(multi_table)
    return multi_table
