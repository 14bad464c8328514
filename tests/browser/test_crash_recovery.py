"""kill -9 the only daphne in the middle of a round: it comes back, so do the browsers, and the round goes on.

alice and bob play at an atlantic-city-multi table in two browser contexts
against one daphne child process. The first shoe is rigged here, where the
betting window is opened, so the cards are known: alice 5 6 = 11, bob T 8 =
18, the dealer 9 with a 7 in the hole, then a ten for the dealer (bust).

As soon as the cards are out and alice's decision clock runs, daphne is
killed with SIGKILL and started again on the same port. The pages reconnect
by themselves (the htmx ws extension; the page's script marks
`body[data-connection=open][data-synced]` on the first frame after), and the
round carries on from where it stood, its deadlines included, to its
settlement. Then the database must show it settled once: one history row per
seat, one payout transfer per winning hand, a clean ledger audit, and each
stack equal to its ledger balance.
"""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.test import Client
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.audit import audit_ledger
from accounts.models import Transfer, TransferKind
from tables.engine import CardShoe
from tables.fairness import shoes
from tables.models import Round, RoundSeat, RuleProfile, Seat, Table
from tests.browser.conftest import in_a_thread
from tests.conftest import REPO
from tests.tables.conftest import open_next_window

pytestmark = pytest.mark.browser

OUTPUT = REPO / "test-output" / "browser"  # beside the screenshots
WAIT_MS = 90_000  # a reconnect backs off up to 8-16 s after a few refusals; the machine may be busy
CARDS = ["5S", "TH", "9C", "6D", "8S", "7H", "TC"]
SYNCED = 'body[data-connection="open"][data-synced]'


@pytest.fixture
def rigged(monkeypatch) -> None:
    monkeypatch.setattr(shoes, "shoe_source", lambda rules: CardShoe.stacked(CARDS, rules.decks))


def signed_in_page(browser, base: str, user) -> Page:
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": base}])
    return context.new_page()


def sit(page: Page, seat: int) -> None:
    expect(page.locator(SYNCED)).to_have_count(1)
    page.locator(f"#seat-{seat}").get_by_role("button", name="Sit here").click()
    expect(page.locator(f"#seat-{seat}").get_by_role("button", name="Leave table")).to_be_visible()


def bet(page: Page, amount: int) -> None:
    control = page.locator("#controls form").first
    expect(control.get_by_role("button", name="Deal")).to_be_visible(timeout=WAIT_MS)
    control.get_by_label("Bet", exact=True).fill(str(amount))
    control.get_by_role("button", name="Deal").click()


def wait_until(condition, what: str, timeout: float = WAIT_MS / 1000) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.02)


def table_state(table: Table) -> Table:
    return Table.objects.select_related("current_round").get(pk=table.pk)


def seat_cards(page: Page, seat: int) -> list[str]:
    return page.locator(f"#seat-{seat} .card").evaluate_all("els => els.map(e => e.dataset.card)")


def deal_a_round(browser, server, alice, bob, *, decision_seconds: int) -> tuple[Table, Page, Page]:
    """Both seated and betting: returns as soon as the cards are out, alice's decision clock running."""
    table = Table.objects.create(
        name="Boardwalk", profile=RuleProfile.ATLANTIC_CITY_MULTI, seat_count=5, min_bet=5, max_bet=100,
        pause_seconds=3600, betting_seconds=120, insurance_seconds=120, decision_seconds=decision_seconds,
    )  # fmt: skip
    pages = [signed_in_page(browser, server.url, player) for player in (alice, bob)]
    for page in pages:
        page.goto(f"{server.url}/tables/{table.pk}/")
    alice_page, bob_page = pages
    sit(alice_page, 1)
    expect(bob_page.locator("#seat-1")).to_contain_text("alice")
    sit(bob_page, 3)
    expect(alice_page.locator("#seat-3")).to_contain_text("bob")
    # The window opens here, with the rigged shoe; on SQLite the server's in-memory
    # channel layer does not hear of it, so the pages reload.
    in_a_thread(open_next_window, table)
    for page in pages:
        page.reload()
        expect(page.locator(SYNCED)).to_have_count(1)
    bet(alice_page, 10)
    expect(bob_page.locator("#seat-1 .bet")).to_contain_text("Bet 10")
    bet(bob_page, 20)
    wait_until(lambda: table_state(table).current_round.phase == "players", "the deal")
    return table, alice_page, bob_page


def crash_and_restart(server, *, wait_for_deadline: Table | None = None) -> None:
    server.kill()
    if wait_for_deadline is not None:
        deadline = table_state(wait_for_deadline).deadline
        wait_until(lambda: timezone.now() > deadline + dt.timedelta(seconds=0.3), "the deadline to pass")
    server.start()


def assert_round_settled_once(table: Table, *, expected_stacks: dict[int, int]) -> Round:
    round_row = Round.objects.get(table=table, number=1)
    assert round_row.phase == "settled"
    events = round_row.state["events"]
    assert [e["kind"] for e in events].count("round_settled") == 1
    assert sorted(RoundSeat.objects.filter(round=round_row).values_list("seat", flat=True)) == [1, 3]
    payouts = list(Transfer.objects.filter(round=round_row, kind=TransferKind.PAYOUT).values_list("reason", "amount"))
    reasons = [reason for reason, _ in payouts]
    assert len(reasons) == len(set(reasons)), f"a hand was paid twice: {payouts}"
    assert len(payouts) == sum(1 for e in events if e["kind"] == "settle" and e["chips"] > 0)
    report = audit_ledger()
    assert report.ok, report.problems
    for number, stack in expected_stacks.items():
        seat = Seat.objects.select_related("account").get(table=table, number=number)
        row = RoundSeat.objects.get(round=round_row, seat=number)
        assert seat.account.balance == row.stack_after == stack, (number, seat.account.balance, row.stack_after)
    return round_row


def decisions(round_row: Round, seat: int) -> list[tuple[str, str]]:
    return [
        (e["kind"], e["actor"])
        for e in round_row.state["events"]
        if e["seat"] == seat and e["kind"] in ("hit", "stand", "double", "split", "surrender")
    ]


def test_a_round_survives_a_crash_whose_deadline_passes_while_the_server_is_down(
    start_daphne, browser, screenshot, alice, bob, rigged
):
    server = start_daphne("crash", log_dir=OUTPUT)
    table, alice_page, bob_page = deal_a_round(browser, server, alice, bob, decision_seconds=3)
    crash_and_restart(server, wait_for_deadline=table)  # alice's 3 seconds run out while nobody serves

    # The pages come back by themselves; the first connect stands alice (time ran out).
    for page in (alice_page, bob_page):
        expect(page.locator(SYNCED)).to_have_count(1, timeout=WAIT_MS)
    screenshot(bob_page, "bob-reconnected")
    expect(alice_page.locator("#log")).to_contain_text("alice stands (time ran out).", timeout=WAIT_MS)
    assert seat_cards(alice_page, 1) == ["5S", "6D"] and seat_cards(alice_page, 3) == ["TH", "8S"]
    # bob plays on; should his 3 seconds run out first (his page may take a while to come
    # back), the timer the new process armed stands him.
    stand = bob_page.locator("#controls").get_by_role("button", name="Stand")
    deadline = time.monotonic() + WAIT_MS / 1000
    while "Round over" not in bob_page.locator("#status").inner_text():
        assert time.monotonic() < deadline, "the round did not settle"
        if stand.count():
            try:
                stand.click(timeout=1000)
            except Exception:  # noqa: BLE001 - re-rendered under the click, or gone: the loop looks again
                pass
        bob_page.wait_for_timeout(100)
    for page in (alice_page, bob_page):
        expect(page.locator("#status")).to_contain_text("Round over", timeout=WAIT_MS)
        expect(page.locator("#dealer .card")).to_have_count(3)
    screenshot(alice_page, "alice-settled")
    screenshot(bob_page, "bob-settled")

    round_row = assert_round_settled_once(table, expected_stacks={1: 110, 3: 120})
    assert decisions(round_row, 1) == [("stand", "timer")]
    assert decisions(round_row, 3) in ([("stand", "player")], [("stand", "timer")])
    for page, seat in ((alice_page, 1), (bob_page, 3)):
        shown = int(page.locator(f"#seat-{seat} [data-stack]").inner_text())
        assert shown == Seat.objects.get(table=table, number=seat).account.balance


DECISION_SECONDS = 8


def test_a_round_survives_a_crash_and_its_clock_runs_on_in_the_new_process(
    start_daphne, browser, screenshot, alice, bob, rigged
):
    server = start_daphne("crash", log_dir=OUTPUT)
    table, alice_page, bob_page = deal_a_round(browser, server, alice, bob, decision_seconds=DECISION_SECONDS)
    for page in (alice_page, bob_page):
        # Reconnect every fifth of a second rather than after a random back-off of up to
        # 8-16 s, so that the pages are back well before alice's seconds are up.
        page.evaluate("htmx.config.wsReconnectDelay = () => 200")
    crash_and_restart(server)
    for page in (alice_page, bob_page):
        expect(page.locator(SYNCED)).to_have_count(1, timeout=WAIT_MS)
    deadline = table_state(table).deadline
    assert deadline > timezone.now(), "the pages came back after the deadline: this test needs them back before"
    screenshot(alice_page, "reconnected-before-the-deadline")

    # Nobody clicks: alice's clock, then bob's, run out in the new process, which armed them.
    for where, text, seconds in (
        ("#log", "alice stands (time ran out).", (deadline - timezone.now()).total_seconds() + 10),
        ("#status", "Round over", DECISION_SECONDS + 10),
    ):
        expect(alice_page.locator(where)).to_contain_text(text, timeout=seconds * 1000)
    expect(bob_page.locator("#status")).to_contain_text("Round over")
    screenshot(alice_page, "settled-by-the-timers")

    round_row = assert_round_settled_once(table, expected_stacks={1: 110, 3: 120})
    assert decisions(round_row, 1) == [("stand", "timer")]
    assert decisions(round_row, 3) == [("stand", "timer")]
    stood = next(
        dt.datetime.fromisoformat(when)
        for event, when in zip(round_row.state["events"], round_row.event_times)
        if event["kind"] == "stand" and event["seat"] == 1
    )
    assert deadline <= stood < deadline + dt.timedelta(seconds=5)  # on time, not at some later click or connect
