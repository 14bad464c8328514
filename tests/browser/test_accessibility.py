"""axe-core in a real Chromium on every page of the site: no serious or critical violation, on a phone and a desk.

One daphne serves the whole module (starting one per test would cost more than
the checks); each test writes its players, tables and settled round, which are
emptied after it as in every browser test. Each page is also checked for
sideways scrolling and a one-line top bar, and the lobby, help, history and
profile are saved as screenshots at 390x844 and 1280x800 in
test-output/browser/ (accessibility-<page>-<size>.png).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import OUTPUT, launched_chromium, module_daphne

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 800}
#: axe's impacts that fail a page; "moderate" and "minor" ones are printed with them.
FAILING = {"serious", "critical"}


@dataclass(frozen=True)
class Site:
    url: str
    session: str  # alice's session cookie
    round_id: int  # a settled round of alice's (the replay)
    solo_id: int  # her solo table (its last rounds)
    shared_id: int  # a shared table where she and bob sit


@pytest.fixture(scope="module")
def server(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[str]:
    """One daphne for the module, on the test database; its URL."""
    with django_db_blocker.unblock(), module_daphne("axe", tmp_path_factory) as url:
        yield url


@pytest.fixture
def site(transactional_db, server) -> Site:
    """alice, with a settled round at her solo table, a Rocket Academy table and a seat beside bob's; signed in.

    Written afresh for each test (and emptied after it, as every browser test's
    data); the players get no password, which would cost a fifth of a second each.
    """
    from django.contrib.auth import get_user_model
    from django.test import Client

    from accounts.services import do_create_account
    from tables.engine import CardShoe
    from tables.fairness import shoes
    from tables.models import RuleProfile, Table
    from tables.play import lobby, services

    User = get_user_model()  # noqa: N806
    alice, bob = (do_create_account(User(username=name)) for name in ("alice", "bob"))
    shared = Table.objects.create(
        name="Boardwalk", profile=RuleProfile.ATLANTIC_CITY_MULTI, seat_count=5, min_bet=5, max_bet=500, pause_seconds=60
    )
    Table.objects.create(name="Atlantic City", profile=RuleProfile.ATLANTIC_CITY, seat_count=1, min_bet=5, max_bet=100)
    services.do_sit(shared.pk, alice, 1, 35)
    services.do_sit(shared.pk, bob, 3)
    lobby.create_rocket_table(alice, seats=3)
    solo = lobby.solo_table_for(alice)
    with pytest.MonkeyPatch.context() as patch:
        # alice: 10 9 (19) stands; the dealer 9 8 (17).
        patch.setattr(shoes, "shoe_source", lambda rules: CardShoe.stacked(["TS", "9H", "9C", "8D"], rules.decks))
        services.do_sit(solo.pk, alice, 1, 200)
        solo.refresh_from_db()
        services.do_act(solo.pk, alice, "bet", seat=1, amount=10, version=solo.version)
        solo.refresh_from_db()
        services.do_act(solo.pk, alice, "stand", seat=1, hand=0, version=solo.version)
    client = Client()
    client.force_login(alice)
    return Site(
        url=server,
        session=client.cookies["sessionid"].value,
        round_id=solo.rounds.get().pk,
        solo_id=solo.pk,
        shared_id=shared.pk,
    )


@pytest.fixture(scope="module")
def chromium() -> Iterator[object]:
    with launched_chromium() as browser:
        yield browser


@pytest.fixture
def open_page(site, chromium) -> Iterator[Callable[..., Page]]:
    """open_page(path, viewport, signed_in=True): a page of the site in a fresh context, as alice or a visitor."""
    contexts = []

    def open_(path: str, viewport: dict, *, signed_in: bool = True) -> Page:
        context = chromium.new_context(viewport=viewport)
        contexts.append(context)
        if signed_in:
            context.add_cookies([{"name": "sessionid", "value": site.session, "url": site.url}])
        page = context.new_page()
        response = page.goto(site.url + path)
        assert response is not None and response.status == 200, f"{path}: {response and response.status}"
        return page

    yield open_
    for context in contexts:
        context.close()


def axe_violations(page: Page) -> list[dict]:
    from axe_playwright_python.sync_playwright import Axe

    return Axe().run(page).response["violations"]


def report(violations: list[dict]) -> str:
    lines = []
    for violation in violations:
        lines.append(f"{violation['impact']}: {violation['id']}: {violation['help']} ({violation['helpUrl']})")
        for node in violation["nodes"]:
            lines.append(f"    {json.dumps(node['target'])}: {node['html'][:200]}")
            if node.get("failureSummary"):
                lines.append("        " + node["failureSummary"].replace("\n", "\n        "))
    return "\n".join(lines)


def check(page: Page, viewport: dict) -> None:
    """No serious or critical axe violation; nothing scrolls sideways; the top bar holds one line."""
    violations = axe_violations(page)
    failing = [v for v in violations if v["impact"] in FAILING]
    print(report(violations) or "axe: no violations")
    assert not failing, "\n" + report(violations)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"the page is {width} px wide in a {viewport['width']} px window"
    bar = page.locator("header.topbar").bounding_box()
    assert bar is not None and bar["height"] <= 64, f"the top bar is {bar and bar['height']} px tall"


SIGNED_IN: dict[str, Callable[[Site], str]] = {
    "lobby": lambda site: "/tables/",
    "help": lambda site: "/tables/help/",
    "history": lambda site: "/history/",
    "replay": lambda site: f"/history/{site.round_id}/?step=4",
    "profile": lambda site: "/accounts/profile/",
    "rounds": lambda site: f"/tables/{site.solo_id}/rounds/",
    "strategy": lambda site: "/tables/strategy/rocket-academy/",
}
SCREENSHOTS = {"lobby", "help", "history", "profile", "strategy"}


@pytest.mark.parametrize("viewport", [PHONE, DESK], ids=["390x844", "1280x800"])
@pytest.mark.parametrize("name", list(SIGNED_IN))
def test_a_signed_in_page_has_no_serious_violation(site, open_page, name, viewport):
    page = open_page(SIGNED_IN[name](site), viewport)
    if name in SCREENSHOTS:
        OUTPUT.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(OUTPUT / f"accessibility-{name}-{viewport['width']}x{viewport['height']}.png"), full_page=True)
    check(page, viewport)


@pytest.mark.parametrize("viewport", [PHONE, DESK], ids=["390x844", "1280x800"])
@pytest.mark.parametrize("path", ["/accounts/signup/", "/accounts/login/", "/tables/"], ids=["signup", "login", "lobby"])
def test_a_visitors_page_has_no_serious_violation(open_page, path, viewport):
    page = open_page(path, viewport, signed_in=False)
    expect(page.get_by_role("banner").get_by_role("link", name="Sign up")).to_be_visible()
    check(page, viewport)


@pytest.mark.parametrize("viewport", [PHONE, DESK], ids=["390x844", "1280x800"])
def test_the_live_table_has_no_serious_violation(site, open_page, viewport):
    page = open_page(f"/tables/{site.shared_id}/", viewport)
    expect(page.locator('body[data-connection="open"][data-synced]')).to_have_count(1)
    check(page, viewport)


def test_the_phone_menu_opens_over_the_page_and_passes_too(site, open_page):
    page = open_page("/tables/", PHONE)
    menu = page.get_by_role("navigation", name="Main")
    expect(menu).to_be_hidden()
    # One line: the brand, the chips and the menu button side by side.
    tops = [page.locator(selector).bounding_box()["y"] for selector in (".brand", ".chips", ".menu-button")]
    assert max(tops) - min(tops) < 12, tops
    expect(page.locator("#bankroll")).to_have_text("765")  # 1,000 less 35 and 200 bought in
    expect(page.locator("#at-tables")).to_have_text("245")  # 35, and 200 + 10 won at her solo table
    page.get_by_role("button", name="Menu").click()
    expect(menu).to_be_visible()
    expect(menu.get_by_role("link", name="Help")).to_be_visible()
    check(page, PHONE)
    page.screenshot(path=str(OUTPUT / "accessibility-menu-390x844.png"))
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
