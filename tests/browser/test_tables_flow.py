"""Real browsers at live tables: sign up, sit, bet and play rounds to settlement over the websocket.

The shoe is not rigged here (the live daphne deals from real seeds), so the
players follow whatever comes: they decline insurance and stand.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tables.models import RuleProfile, Table

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery staple"


def sign_up(browser, base: str, username: str) -> Page:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.goto(base + "/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator("#bankroll")).to_have_text("1,000")
    return page


def sit(page: Page, seat: int, buy_in: int = 100) -> None:
    # The websocket is up and its first frame is on the page.
    expect(page.locator('body[data-connection="open"][data-synced]')).to_have_count(1)
    seat_box = page.locator(f"#seat-{seat}")
    seat_box.get_by_label("Buy-in").fill(str(buy_in))
    seat_box.get_by_role("button", name="Sit here").click()
    expect(page.locator(f"#seat-{seat}").get_by_role("button", name="Leave table")).to_be_visible()


def open_window_now(table: Table, page: Page) -> None:
    """Skip the pause before the betting window: make it overdue, and reconnect, which settles it."""
    from django.utils import timezone

    Table.objects.filter(pk=table.pk).update(deadline=timezone.now())
    page.reload()
    expect(page.locator('body[data-connection="open"][data-synced]')).to_have_count(1)


def bet(page: Page, amount: int, seat: int | None = None) -> None:
    control = page.locator("#controls form" + (f'[data-seat="{seat}"]' if seat else "")).first
    expect(control.get_by_role("button", name="Deal")).to_be_visible(timeout=15_000)
    control.get_by_label("Bet", exact=True).fill(str(amount))
    control.get_by_role("button", name="Deal").click()


def play_out(*pages: Page, timeout_s: float = 60) -> None:
    """Decline insurance and stand until every page shows the round is over."""
    import time

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if all("Round over" in page.locator("#status").inner_text() for page in pages):
            return
        for page in pages:
            for name in ("No insurance", "Stand"):
                button = page.locator("#controls").get_by_role("button", name=name, exact=True)
                if button.count():
                    try:
                        button.first.click(timeout=1000)
                    except Exception:  # noqa: BLE001 - re-rendered under the click; the loop retries
                        pass
        pages[0].wait_for_timeout(150)
    raise AssertionError("the round did not settle")


def seat_cards(page: Page, seat: int) -> list[str]:
    return page.locator(f"#seat-{seat} .card").evaluate_all("els => els.map(e => e.dataset.card)")


def test_two_players_play_an_atlantic_city_multi_round_and_see_each_other(live_daphne, browser, screenshot):
    table = Table.objects.create(
        name="Boardwalk", profile=RuleProfile.ATLANTIC_CITY_MULTI, seat_count=5, min_bet=5, max_bet=100, pause_seconds=60
    )
    alice = sign_up(browser, live_daphne, "alice")
    bob = sign_up(browser, live_daphne, "bob")
    for page in (alice, bob):
        page.goto(f"{live_daphne}/tables/{table.pk}/")
    sit(alice, 1)
    expect(bob.locator("#seat-1")).to_contain_text("alice")  # live, without a reload
    sit(bob, 3)
    expect(alice.locator("#seat-3")).to_contain_text("bob")
    open_window_now(table, alice)

    bet(alice, 10)
    # bob bets once alice's bet has reached his page: a click landing on a
    # button that a live frame is replacing at that instant would be lost.
    expect(bob.locator("#seat-1 .bet")).to_contain_text("Bet 10")
    bet(bob, 20)
    expect(alice.locator("#seat-3 .card")).to_have_count(2, timeout=10_000)
    expect(bob.locator("#seat-1 .card")).to_have_count(2)
    assert seat_cards(alice, 3) == seat_cards(bob, 3)
    assert seat_cards(bob, 1) == seat_cards(alice, 1)
    # Each bet as typed, though the controls were re-rendered while bob typed.
    expect(alice.locator("#seat-3 .bet")).to_contain_text("Bet 20")
    expect(bob.locator("#seat-1 .bet")).to_contain_text("Bet 10")
    assert alice.locator('#dealer [data-card="hidden"]').count() == 1 or "Round over" in alice.inner_text("#status")
    screenshot(alice, "alice-mid-round")

    play_out(alice, bob)
    expect(alice.locator("#dealer .card.back")).to_have_count(0)
    assert seat_cards(alice, 3) == seat_cards(bob, 3)
    screenshot(alice, "alice-settled")
    screenshot(bob, "bob-settled")
    # Each stack equals 100 + its win/loss, and the ledger agrees.
    for page, seat in ((alice, 1), (bob, 3)):
        stack = int(page.locator(f"#seat-{seat} [data-stack]").inner_text())
        from tables.models import Seat

        assert Seat.objects.get(table=table, number=seat).account.balance == stack


def test_one_player_plays_two_seats_at_a_rocket_academy_table(live_daphne, browser, screenshot):
    page = sign_up(browser, live_daphne, "carol")
    page.goto(live_daphne + "/tables/")
    page.get_by_label("Seats").fill("3")
    page.get_by_role("button", name="Create table").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    table = Table.objects.get(profile=RuleProfile.ROCKET_ACADEMY)
    sit(page, 1)
    sit(page, 2)
    open_window_now(table, page)
    bet(page, 10, seat=1)
    expect(page.locator("#seat-1 .bet")).to_contain_text("Bet 10")
    bet(page, 15, seat=2)
    expect(page.locator("#seat-2 .card")).to_have_count(2, timeout=10_000)
    screenshot(page, "two-seats")
    play_out(page)
    screenshot(page, "two-seats-settled")
    assert page.locator("#seat-1 .outcome").count() >= 1
    assert page.locator("#seat-2 .outcome").count() >= 1


def test_a_solo_atlantic_city_round(live_daphne, browser, screenshot):
    page = sign_up(browser, live_daphne, "dave")
    page.goto(live_daphne + "/tables/")
    page.get_by_role("button", name="Play solo").click()
    sit(page, 1, buy_in=200)
    expect(page.locator("#bankroll")).to_have_text("800")  # the top bar follows the table live
    expect(page.locator("#at-tables")).to_have_text("200")
    bet(page, 25)
    expect(page.locator("#seat-1 .card")).to_have_count(2, timeout=10_000)
    # Keyboard: S stands (when standing is still a choice).
    if page.locator("#controls").get_by_role("button", name="Stand").count():
        page.keyboard.press("s")
    play_out(page)
    screenshot(page, "solo-settled")
    # The top bar's chips at the tables followed the round: the seat's stack as it settled.
    expect(page.locator("#at-tables")).to_have_text(page.locator("#seat-1 [data-stack]").inner_text())
    page.reload()
    expect(page.locator("#bankroll")).to_have_text("800")
    stack = int(page.locator("#seat-1 [data-stack]").inner_text())
    expect(page.locator("#at-tables")).to_have_text(f"{stack:,}")
    page.get_by_role("button", name="Leave table").click()
    expect(page.locator("#bankroll")).to_have_text(f"{800 + stack:,}")
    expect(page.locator("#at-tables")).to_have_text("0")
