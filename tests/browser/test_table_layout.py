"""The table as players see it, phones first: alice on a 390x844 phone, bob at a 1280x800 desk, a 7-seat table.

On each one's turn, the dealer's cards, their hand, their buttons and their
countdown are on screen together without scrolling (element positions). The
chip tray builds alice's bet and keeps to her stack; the round's result shows
as a banner; a card dealt earlier does not animate again when a later frame
redraws its seat; the next round starts from her last bet and Rebet brings it
back. Every phase is saved at both sizes in test-output/browser/, and the
turns as docs/images/table-phone.png and table-desk.png (the README's pictures).

The first round is dealt from a stacked shoe, written in this process before
the pages open: alice (seat 2) T 6, bob (seat 5) T K, the dealer 9 up and 8
down; alice hits a 5.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import OUTPUT, REPO, module_daphne

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 800}
DOCS = REPO / "docs" / "images"
# Seat 2 T 6, seat 5 T K, dealer 9 (up); seat 2 ... the hole card 8; alice's hit 5; spares.
CARDS = ["TS", "TC", "9H", "6H", "KD", "8D", "5C", *(["2S", "3S", "4S", "2H", "3H", "4H"] * 4)]


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[str]:
    with django_db_blocker.unblock(), module_daphne("layout", tmp_path_factory) as url:
        yield url


def session_of(user) -> str:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def open_table(browser, server: str, path: str, user, viewport: dict) -> Page:
    context = browser.new_context(viewport=viewport)
    context.add_cookies([{"name": "sessionid", "value": session_of(user), "url": server}])
    page = context.new_page()
    page.goto(server + path)
    expect(page.locator('body[data-connection="open"][data-synced]')).to_have_count(1)
    return page


def on_screen(page: Page, selector: str) -> None:
    """Every element `selector` matches lies inside the viewport as the page stands (nobody scrolled)."""
    viewport = page.viewport_size
    boxes = page.locator(selector).evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"
    )
    assert boxes, f"nothing matches {selector}"
    for left, top, right, bottom in boxes:
        assert 0 <= top and bottom <= viewport["height"], f"{selector} spans y {top}..{bottom} of {viewport['height']}"
        assert 0 <= left and right <= viewport["width"], f"{selector} spans x {left}..{right} of {viewport['width']}"


def decision_on_screen(page: Page, seat: int) -> None:
    """The dealer's cards, the player's hand, their buttons and their countdown, all on screen together."""
    assert page.evaluate("window.scrollY") == 0
    on_screen(page, "#dealer .card")
    on_screen(page, f"#seat-{seat} .hand")
    on_screen(page, "#controls button[name=action]")
    on_screen(page, "#controls [role=timer]")


def shot(page: Page, name: str, *, docs: str | None = None) -> None:
    page.wait_for_timeout(600)  # cards dealt and banners in place
    OUTPUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUTPUT / f"table-layout-{name}.png"), full_page=True)
    if docs:
        DOCS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(DOCS / docs))  # the screen as the player sees it


def no_serious_violation(page: Page) -> None:
    """axe-core finds nothing serious or critical on the table as it stands (the chip tray and the rings included)."""
    from axe_playwright_python.sync_playwright import Axe

    violations = Axe().run(page).response["violations"]
    failing = [(v["id"], [node["target"] for node in v["nodes"]]) for v in violations if v["impact"] in {"serious", "critical"}]
    assert not failing, failing


def bet_field(page: Page):
    return page.locator("#controls").get_by_label("Bet", exact=True)


def chips(page: Page, *names: str) -> None:
    for name in names:
        page.locator("#controls").get_by_role("button", name=name, exact=True).click()


@pytest.mark.django_db(transaction=True)
def test_it_shows_a_decision_on_one_screen_at_both_sizes_and_bets_with_chips(server, browser):
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from accounts.services import do_create_account
    from tables.engine import CardShoe
    from tables.fairness import shoes
    from tables.models import RuleProfile, Seat, Table
    from tables.play import services

    User = get_user_model()
    alice, bob, carol = (do_create_account(User(username=name)) for name in ("alice", "bob", "carol"))
    table = Table.objects.create(
        name="Boardwalk", profile=RuleProfile.ATLANTIC_CITY_MULTI, seat_count=7, min_bet=5, max_bet=500,
        betting_seconds=120, decision_seconds=120, insurance_seconds=120, pause_seconds=60,
    )
    services.do_sit(table.pk, alice, 2, 200)
    services.do_sit(table.pk, bob, 5, 300)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(shoes, "shoe_source", lambda rules: CardShoe.stacked(CARDS, rules.decks))
        Table.objects.filter(pk=table.pk).update(deadline=timezone.now())
        services.settle_overdue(table.pk)  # the betting window opens, on the stacked shoe
    path = f"/tables/{table.pk}/"
    phone = open_table(browser, server, path, alice, PHONE)
    desk = open_table(browser, server, path, bob, DESK)

    # The top bar on one line on the phone; no sideways scrolling.
    tops = [phone.locator(selector).bounding_box()["y"] for selector in (".brand", ".chips", ".menu-button")]
    assert max(tops) - min(tops) < 12, tops
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Free seats are small and offer nothing to a seated player mid-round; the players' seats read alike.
    expect(phone.locator("#seats .seat")).to_have_count(7)
    expect(desk.locator("#seat-2")).to_contain_text("alice")
    shot(phone, "betting-390x844")
    shot(desk, "betting-1280x800")
    # Sounds: a switch in the top bar's menu, off until the player turns it on.
    sound = desk.locator("header.topbar #main-menu .sound-toggle")
    expect(sound).to_have_attribute("aria-pressed", "false")
    expect(sound).to_have_text("Sound off")
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "true")
    expect(sound).to_have_text("Sound on")

    # The chip tray: only chips within the table's limits, each "Add N"; they build the bet.
    tray = phone.locator("#controls .chip-tray")
    for name in ("Add 1", "Add 5", "Add 25", "Add 100", "Double bet", "Clear bet"):
        expect(tray.get_by_role("button", name=name, exact=True)).to_be_visible()
    expect(tray.get_by_role("button", name="Add 500", exact=True)).to_have_count(0)  # alice holds 200
    expect(tray.get_by_role("button", name="Rebet", exact=True)).to_have_count(0)  # no last bet yet
    chips(phone, "Clear bet", "Add 5", "Add 5")
    expect(bet_field(phone)).to_have_value("10")
    chips(phone, "Double bet")
    expect(bet_field(phone)).to_have_value("20")
    chips(phone, "Add 100", "Add 100")
    expect(bet_field(phone)).to_have_value("200")  # her whole stack, not 220
    expect(phone.locator("#controls input[type=range]")).to_have_value("200")
    chips(phone, "Clear bet", "Add 25")
    expect(bet_field(phone)).to_have_value("25")
    no_serious_violation(phone)  # a table in betting
    phone.locator("#controls").get_by_role("button", name="Deal").click()
    expect(desk.locator("#seat-2 .bet")).to_contain_text("Bet 25")
    bet_field(desk).fill("20")
    desk.locator("#controls").get_by_role("button", name="Deal").click()

    # alice's turn: 16 against a 9.
    expect(phone.locator("#controls").get_by_role("button", name="Hit")).to_be_visible(timeout=10_000)
    expect(phone.locator("#seat-2 .hand .card")).to_have_count(2)
    phone.wait_for_timeout(500)  # the deal's animation over
    decision_on_screen(phone, 2)
    expect(phone.locator("#seat-2")).to_have_class(re.compile(r"\bturn\b"))
    expect(phone.locator("#seat-2 .seat-ring[role=timer]")).to_have_count(1)  # the ring on the active seat
    shot(phone, "your-turn-390x844", docs="table-phone.png")
    shot(desk, "their-turn-1280x800")

    # A card animates once: after the hit, only the new card is dealt; the two before are not again.
    phone.locator("#controls").get_by_role("button", name="Hit").click()
    expect(phone.locator("#seat-2 .hand .card")).to_have_count(3)
    dealt = phone.locator("#seat-2 .hand .card").evaluate_all(
        "els => els.map(e => [e.dataset.card, e.classList.contains('deal'), e.getAnimations().length])"
    )
    assert [card for card, _, _ in dealt] == ["TS", "6H", "5C"]
    assert [(is_new, running) for _, is_new, running in dealt[:2]] == [(False, 0), (False, 0)], dealt
    assert dealt[2][1] is True, dealt

    # bob's turn at the desk: 20 against a 9.
    expect(desk.locator("#controls").get_by_role("button", name="Stand")).to_be_visible(timeout=10_000)
    desk.wait_for_timeout(500)
    decision_on_screen(desk, 5)
    no_serious_violation(desk)  # a table in play
    shot(desk, "your-turn-1280x800", docs="table-desk.png")
    desk.locator("#controls").get_by_role("button", name="Stand").click()

    # Settled: the dealer's 17 loses to both; each sees their result, with the chips.
    expect(phone.locator("#result")).to_have_text("You win +25", timeout=10_000)
    expect(desk.locator("#result")).to_have_text("You win +20")
    expect(phone.locator("#seat-2 .outcome")).to_have_text("Win +25")
    expect(phone.locator("#seat-5 .outcome")).to_have_text("Win +20")
    expect(phone.locator("#seat-2 .stack")).to_contain_text("Stack 225 · session +25")
    # The log's numbers from 10 on keep their room (they were clipped to "ı0.").
    expect(phone.locator("#log-lines li")).to_have_count(10)
    room = phone.locator("#log-lines").evaluate("ol => parseFloat(getComputedStyle(ol).paddingLeft) / parseFloat(getComputedStyle(ol).fontSize)")
    assert room >= 2.5, room
    shot(phone, "settled-390x844")
    shot(desk, "settled-1280x800")
    assert Seat.objects.get(table=table, number=2).last_bet == 25

    # The next round starts from her last bet; Rebet brings it back after a Clear bet.
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now())
    phone.reload()
    expect(phone.locator('body[data-connection="open"][data-synced]')).to_have_count(1)
    expect(phone.locator("#controls").get_by_role("button", name="Deal")).to_be_visible(timeout=10_000)
    expect(bet_field(phone)).to_have_value("25")
    chips(phone, "Clear bet")
    expect(bet_field(phone)).to_have_value("0")
    chips(phone, "Rebet")
    expect(bet_field(phone)).to_have_value("25")
    chips(phone, "Double bet")
    expect(bet_field(phone)).to_have_value("50")
    on_screen(phone, "#controls .chip-tray button")
    on_screen(phone, "#controls button[name=action]")
    shot(phone, "next-round-390x844")

    # An error shows at the seat whose form caused it: carol's buy-in is more than her bankroll.
    watcher = open_table(browser, server, path, carol, PHONE)
    watcher.locator("#seat-7").get_by_label("Buy-in").fill("5000")
    watcher.locator("#seat-7").get_by_role("button", name="Sit here").click()
    expect(watcher.locator("#seat-7 #notice")).to_have_text("Your bankroll holds fewer than 5000 chips.")
    shot(watcher, "sit-refused-390x844")
