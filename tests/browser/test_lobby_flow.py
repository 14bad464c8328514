"""A real browser in the lobby on a phone: seats and rounds change without a reload, the filters narrow the list."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tables.models import RuleProfile, Table
from tables.play import services
from tests.browser.conftest import in_a_thread
from tests.conftest import make_player

pytestmark = pytest.mark.browser

# The lobby polls every 5 s: a change shows within a poll and a request.
LIVE_MS = 12_000


def sit(table: Table, player, seat: int) -> None:
    """A player sits down elsewhere: the service runs off this thread, where Playwright's event loop runs
    (its after-commit announcement goes through async_to_sync)."""
    in_a_thread(services.do_sit, table.pk, player, seat)


def test_a_phone_in_the_lobby_sees_players_sit_and_filters_the_tables(live_daphne, browser, screenshot, django_user_model):
    boardwalk = Table.objects.create(
        name="Boardwalk", profile=RuleProfile.ATLANTIC_CITY_MULTI, seat_count=5, min_bet=5, max_bet=100, pause_seconds=60
    )
    seas = Table.objects.create(name="Seven Seas", profile=RuleProfile.INTERNET_7, seat_count=7, min_bet=1, max_bet=100)
    bob, carol = make_player(django_user_model, "bob"), make_player(django_user_model, "carol")
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.goto(live_daphne + "/tables/")
    page.evaluate("window.sameDocument = true")
    card = page.locator(f"#table-{boardwalk.pk}")
    expect(card.locator("[data-seats]")).to_have_text("0 of 5 seats taken")
    expect(card.locator(".state")).to_have_text("Waiting for players")

    # The keyboard rests on Seven Seas' link while Boardwalk changes: it stays there.
    page.locator(f"#go-{seas.pk}").focus()
    sit(boardwalk, bob, 2)
    expect(card.locator("[data-seats]")).to_have_text("1 of 5 seats taken: bob", timeout=LIVE_MS)
    expect(card.locator(".state")).to_have_text("Between rounds")
    assert page.evaluate("window.sameDocument") is True  # no reload
    assert page.evaluate("document.activeElement.id") == f"go-{seas.pk}"
    screenshot(page, "bob-sat")

    # Filter by rules: only the matching tables, the address says so, and the list stays live.
    page.get_by_label("Rules", exact=True).select_option(label="Internet casino, seven seats")
    expect(page).to_have_url(re.compile(r"/tables/\?profile=internet-7"))
    expect(page.locator("article.table-card")).to_have_count(1)
    expect(page.locator(f"#table-{seas.pk}")).to_be_visible()
    sit(seas, carol, 4)
    expect(page.locator(f"#table-{seas.pk} [data-seats]")).to_have_text("1 of 7 seats taken: carol", timeout=LIVE_MS)
    assert page.evaluate("window.sameDocument") is True
    screenshot(page, "filtered")

    # Without script the same list is a link away.
    page.get_by_role("link", name="Refresh").click()
    expect(page.locator("article.table-card")).to_have_count(1)
    assert page.evaluate("window.sameDocument") is None
