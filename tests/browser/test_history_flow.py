"""A real browser: play two rounds at a solo table, find them in the history, replay one, download the CSV.

The shoe is not rigged (daphne deals from real seeds), so the player declines
insurance and stands, and the test checks what was recorded, whatever it was.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from playwright.sync_api import Page, expect

from tables.models import RoundSeat, Table
from tests.browser.test_tables_flow import bet, open_window_now, play_out, sign_up, sit

pytestmark = pytest.mark.browser


def step_number(page: Page) -> int:
    return int(page.locator("#replay [data-step]").get_attribute("data-step"))


def test_a_player_replays_a_round_step_by_step_and_downloads_the_csv(live_daphne, browser, screenshot):
    page = sign_up(browser, live_daphne, "erin")
    page.goto(live_daphne + "/tables/")
    page.get_by_role("button", name="Play solo").click()
    sit(page, 1, buy_in=200)
    table = Table.objects.get(owner__username="erin")
    for _ in range(2):
        bet(page, 10)
        play_out(page)
        if table.rounds.count() < 2:
            open_window_now(table, page)
    rows = list(RoundSeat.objects.filter(player__username="erin").order_by("-id"))
    assert len(rows) == 2

    # The history: two rounds, newest first, and their summary.
    page.get_by_role("navigation", name="Main").get_by_role("link", name="History").click()
    expect(page).to_have_url(re.compile(r"/history/$"))
    expect(page.locator("#results tbody tr")).to_have_count(2)
    assert page.locator("#results tbody tr").evaluate_all("rs => rs.map(r => +r.dataset.round)") == [
        row.round_id for row in rows
    ]
    expect(page.locator('[data-summary="rounds"]')).to_have_text("2")
    net = sum(row.net for row in rows)
    expect(page.locator('[data-summary="net"]')).to_have_text(f"+{net}" if net > 0 else str(net))
    screenshot(page, "history")

    # Replay the older round with Next, one step at a time.
    older = rows[1]
    page.locator(f'#results tr[data-round="{older.round_id}"]').get_by_role("link", name=re.compile("Replay")).click()
    expect(page).to_have_url(re.compile(rf"/history/{older.round_id}/$"))
    assert step_number(page) == 0
    last = int(page.get_by_label("Step", exact=True).get_attribute("max"))
    up_card, hole_card = older.round.state["dealer"][:2]
    reveal = next(n for n, e in enumerate(older.round.state["events"], start=1) if e["kind"] == "hole_card_revealed")
    for n in range(1, reveal + 1):
        page.get_by_role("link", name="Next →").click()
        expect(page.locator("#replay [data-step]")).to_have_attribute("data-step", str(n))
        expect(page).to_have_url(re.compile(rf"\?step={n}$"))  # htmx swapped the replay and kept the URL
        dealer = page.locator("#replay .dealer .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
        if n < reveal:
            # Until the hole card is turned the dealer shows the up-card and at most a back.
            assert dealer in ([], [up_card], [up_card, "hidden"]), (n, dealer)
        else:
            assert dealer == [up_card, hole_card]
            expect(page.locator("#replay .caption")).to_contain_text("turns the hole card")
    screenshot(page, "replay-revealed")

    # The slider jumps to the last step; Previous steps back.
    page.get_by_label("Step", exact=True).fill(str(last))
    expect(page.locator("#replay [data-step]")).to_have_attribute("data-step", str(last))
    expect(page.locator("#replay .outcome").first).to_be_visible()
    expect(page.locator('#replay .seat[data-seat="1"] [data-stack]')).to_have_text(str(older.stack_after))
    page.get_by_role("link", name="← Previous").click()
    expect(page.locator("#replay [data-step]")).to_have_attribute("data-step", str(last - 1))
    screenshot(page, "replay-end")

    # Game recall: the table's last rounds link to the replay.
    page.goto(f"{live_daphne}/tables/{table.pk}/rounds/")
    page.get_by_role("link", name=re.compile(rf"^{older.round.number}")).click()
    expect(page).to_have_url(re.compile(rf"/history/{older.round_id}/$"))

    # The CSV download holds both rounds, oldest first.
    page.goto(live_daphne + "/history/")
    with page.expect_download() as download_info:
        page.get_by_role("link", name="CSV").click()
    download = download_info.value
    assert re.fullmatch(r"hand-history-\d{4}-\d{2}-\d{2}\.csv", download.suggested_filename)
    with open(download.path(), encoding="utf-8", newline="") as downloaded:
        records = list(csv.DictReader(io.StringIO(downloaded.read(), newline="")))
    assert [int(r["round_id"]) for r in records] == [row.round_id for row in reversed(rows)]
    assert [int(r["net"]) for r in records] == [row.net for row in reversed(rows)]
    assert all(r["table"] == "erin's solo table" and r["profile"] == "atlantic-city" for r in records)
