"""Issue 14 in a real browser: limits set on the page, the reality check's popup, Keep playing and Stop playing."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from accounts.models import PlayLimits
from tests.browser.test_tables_flow import bet, play_out, sign_up, sit

pytestmark = pytest.mark.browser


def make_the_check_due(username: str, minutes_played: int = 20) -> None:
    now = timezone.now()
    PlayLimits.objects.filter(user__username=username).update(
        session_started_at=now - dt.timedelta(minutes=minutes_played), last_bet_at=now, reality_check_at=now
    )


def test_the_reality_check_pops_up_and_stop_playing_leaves_the_table(live_daphne, browser, screenshot):
    page = sign_up(browser, live_daphne, "erin")
    # The top bar's menu (a row at this width) links the limits page.
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Limits").click()
    page.get_by_label("Reality check").select_option("15")
    page.get_by_role("button", name="Save limits").click()
    expect(page.get_by_text("Reality check: 15 minutes, in effect now.")).to_be_visible()

    page.goto(live_daphne + "/tables/")
    page.get_by_role("button", name="Play solo").click()
    sit(page, 1, buy_in=200)
    make_the_check_due("erin")
    bet(page, 25)
    check = page.get_by_role("alertdialog", name="Reality check")
    expect(check).to_be_visible()
    expect(check).to_contain_text("You have played for 20 minutes this session")
    expect(check.get_by_role("button", name="Keep playing")).to_be_focused()
    screenshot(page, "reality-check")

    check.get_by_role("button", name="Keep playing").click()
    expect(check).to_be_hidden()
    expect(page.locator("#notice")).to_contain_text("next reality check comes in 15 minutes")
    bet(page, 25)
    expect(page.locator("#seat-1 .card")).to_have_count(2, timeout=10_000)
    play_out(page)

    make_the_check_due("erin", minutes_played=40)
    bet(page, 25)
    expect(check).to_contain_text("40 minutes")
    check.get_by_role("button", name="Stop playing").click()
    expect(check).to_be_hidden()
    expect(page.locator("#seat-1").get_by_role("button", name="Sit here")).to_be_visible(timeout=10_000)
    expect(page.locator("#at-tables")).to_have_text("0")
    screenshot(page, "stopped-playing")
