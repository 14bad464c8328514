"""Real browsers and the coach: hints for the player who asked and nobody else; a mistake's cost in the replay.

The shoes are rigged in this process (the rounds' states live in the test
database the daphne child reads); the plays go through the browser, so the
hint is worked out on the daphne's coach thread and the review on its review
thread, after the settlement commits, as in production.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from accounts.models import User
from tables.engine import CardShoe
from tables.fairness import shoes
from tables.models import RoundSeat, RuleProfile, Table
from tables.play import services
from tests.browser.conftest import in_a_thread
from tests.browser.test_crash_recovery import (
    SYNCED,
    WAIT_MS,
    bet,
    signed_in_page,
    sit,
    table_state,
    wait_until,
)
from tests.tables.conftest import open_next_window

pytestmark = pytest.mark.browser

# Seats 1 and 3: alice 10,6 and bob 9,8 against a ten, a 7 in the hole; then cards to draw.
HINT_CARDS = ["TS", "9C", "TD", "6H", "8D", "7C", "2S", "3S", "4S", "5S"]
# alice alone: 10,queen (20) against a 7, a 9 in the hole; her hit draws the 5 and busts.
HIT_ON_20 = ["TS", "7H", "QD", "9C", "5S"]


def rig(monkeypatch, cards: list[str]) -> None:
    monkeypatch.setattr(shoes, "shoe_source", lambda rules: CardShoe.stacked(cards, rules.decks))


def test_hints_show_to_the_player_who_turned_them_on_and_to_nobody_else(
    live_daphne, browser, screenshot, alice, bob, carol, monkeypatch
):
    rig(monkeypatch, HINT_CARDS)
    table = Table.objects.create(
        name="Boardwalk", profile=RuleProfile.ATLANTIC_CITY_MULTI, seat_count=5, min_bet=5, max_bet=100,
        pause_seconds=3600, betting_seconds=120, insurance_seconds=120, decision_seconds=120,
    )  # fmt: skip
    pages = [signed_in_page(browser, live_daphne, player) for player in (alice, bob, carol)]
    for page in pages:
        page.goto(f"{live_daphne}/tables/{table.pk}/")
    alice_page, bob_page, carol_page = pages
    sit(alice_page, 1)
    sit(bob_page, 3)
    # alice switches her hints on; it is remembered on her account.
    alice_page.locator("#hints-switch").get_by_role("button", name="Hints: off").click()
    expect(alice_page.locator("#hints-switch").get_by_role("button", name="Hints: on")).to_be_visible()
    assert User.objects.get(pk=alice.pk).coach_hints and not User.objects.get(pk=bob.pk).coach_hints
    expect(carol_page.locator("#hints-switch").get_by_role("button", name=re.compile("Hints"))).to_have_count(0)

    in_a_thread(open_next_window, table)  # the window opens here, with the rigged shoe
    for page in pages:
        page.reload()
        expect(page.locator(SYNCED)).to_have_count(1)
    expect(alice_page.locator("#hints-switch").get_by_role("button", name="Hints: on")).to_be_visible()
    bet(alice_page, 10)
    bet(bob_page, 10)
    wait_until(lambda: table_state(table).current_round.phase == "players", "the deal")

    # alice's decision: every play's value in chips for her 10, the best marked.
    hint = alice_page.locator('#controls [data-hint="exact"]')
    expect(hint).to_be_visible(timeout=WAIT_MS)
    expect(hint.locator('[data-play="hit"]')).to_have_text(re.compile(r"^Hit -5\.\d\d \(best\)$"))
    expect(hint.locator('[data-play="stand"]')).to_have_text(re.compile(r"^Stand -5\.\d\d$"))
    expect(hint.locator('[data-play="double"]')).to_have_text(re.compile(r"^Double -10\.\d\d$"))
    screenshot(alice_page, "alice-hint")
    # bob (hints off) and carol (watching) see the same table, and no hint.
    for page in (bob_page, carol_page):
        expect(page.locator("#seat-1 .card")).to_have_count(2)
        expect(page.locator("#turn")).to_contain_text("alice to act")
        expect(page.locator("[data-hint]")).to_have_count(0)
        assert "Expected value" not in page.content()
    screenshot(carol_page, "carol-no-hint")

    # alice hits (18 now): the hint follows her hand; still nobody else's.
    alice_page.locator("#controls").get_by_role("button", name="Hit", exact=True).click()
    expect(hint.locator('[data-play="stand"]')).to_have_text(re.compile(r"\(best\)$"), timeout=WAIT_MS)
    expect(hint.locator('[data-play="double"]')).to_have_count(0)
    for page in (bob_page, carol_page):
        expect(page.locator("#seat-1 .card")).to_have_count(3)
        expect(page.locator("[data-hint]")).to_have_count(0)


def test_the_replay_shows_what_hitting_a_hard_20_cost(live_daphne, browser, screenshot, alice, monkeypatch):
    rig(monkeypatch, HIT_ON_20)
    table = Table.objects.create(name="Alice's corner", profile=RuleProfile.ATLANTIC_CITY, seat_count=1, owner=alice)
    in_a_thread(services.do_sit, table.pk, alice, 1)  # the window opens here, with the rigged shoe
    page = signed_in_page(browser, live_daphne, alice)
    page.goto(f"{live_daphne}/tables/{table.pk}/")
    expect(page.locator(SYNCED)).to_have_count(1)
    bet(page, 10)
    page.locator("#controls").get_by_role("button", name="Hit", exact=True).click()
    expect(page.locator("#status")).to_contain_text("Round over")

    # The daphne reviews the round on its review thread, once the settlement is committed.
    wait_until(lambda: RoundSeat.objects.filter(player=alice, review__isnull=False).exists(), "the review")
    row = RoundSeat.objects.get(player=alice)
    (verdict,) = row.review
    assert (verdict["action"], verdict["best"]) == ("hit", "stand") and verdict["cost_chips"] > 8
    hit_step = verdict["seq"] + 1

    page.goto(f"{live_daphne}/history/{row.round_id}/")
    review = page.locator("#review")
    expect(review).to_contain_text(f"cost {verdict['cost_chips']:.2f} chips")
    review.get_by_role("link", name="T,Q against 7").click()
    expect(page.locator("#replay [data-step]")).to_have_attribute("data-step", str(hit_step))
    line = page.locator('#replay [data-review="hit"]')
    expect(line).to_have_text(re.compile(
        rf"Best: Stand \({verdict['best_ev']:.3f}\) · You: Hit \({verdict['ev']:.3f}\) · cost {verdict['cost_chips']:.2f} chips"
    ))
    screenshot(page, "replay-review")

    # The history's summary and the profile's "Your play" count the mistake.
    page.goto(f"{live_daphne}/history/")
    expect(page.locator('[data-summary="accuracy"]')).to_contain_text("0.0 %")
    expect(page.locator('[data-summary="given-away"]')).to_have_text(f"{verdict['cost_chips']:.2f}")
    page.goto(f"{live_daphne}/accounts/profile/")
    expect(page.locator("#your-play")).to_contain_text(f"cost {verdict['cost_chips']:.2f} chips")
