"""A full round under the enforced Content-Security-Policy, with not one violation in the console (issue 15).

The daphne child enforces the policy (CSP_REPORT_ONLY=false; with DEBUG on it
would only report). Every console message about the policy and every
`securitypolicyviolation` event fails the test: htmx, its websocket extension
and the table's script must all work without inline script, inline style or eval.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tables.models import Table
from tests.browser.conftest import OUTPUT
from tests.browser.test_tables_flow import bet, open_window_now, play_out, sign_up, sit

pytestmark = pytest.mark.browser

# Injected before any page script, so a violation anywhere is reported to the console.
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(`securitypolicyviolation: ${event.violatedDirective} blocked ${event.blockedURI || "inline"}`
    + ` at ${event.sourceFile}:${event.lineNumber}`);
});
"""


@pytest.fixture
def strict_daphne(start_daphne, child_env) -> str:
    child_env["CSP_REPORT_ONLY"] = "false"
    return start_daphne("csp", log_dir=OUTPUT).url


def test_a_full_round_at_a_table_breaks_no_rule_of_the_policy(strict_daphne, browser, screenshot):
    page = sign_up(browser, strict_daphne, "alice")
    problems: list[str] = []
    page.context.add_init_script(REPORT_VIOLATIONS)
    page.on(
        "console",
        lambda message: problems.append(message.text)
        if re.search(r"Content.Security.Policy|securitypolicyviolation|Refused to", message.text)
        else None,
    )
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))

    response = page.goto(strict_daphne + "/tables/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy and "unsafe-eval" not in policy
    page.get_by_role("button", name="Play solo").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    table = Table.objects.get(owner__username="alice")
    sit(page, 1, buy_in=200)  # htmx's websocket extension is up: the socket opened and a frame swapped in
    expect(page.locator("#bankroll")).to_have_text("800")
    open_window_now(table, page)
    bet(page, 25)
    expect(page.locator("#seat-1 .card")).to_have_count(2, timeout=10_000)
    play_out(page)
    expect(page.locator("#dealer .card.back")).to_have_count(0)
    page.get_by_role("button", name="Leave table").click()
    expect(page.locator("#seat-1").get_by_role("button", name="Sit here")).to_be_visible()
    screenshot(page, "settled-under-the-policy")

    # The other screens with scripts: the lobby's filters and poll, the history and a replay.
    page.goto(strict_daphne + "/tables/")
    page.get_by_label("Rules").select_option(index=1)
    expect(page).to_have_url(re.compile(r"profile="))
    page.goto(strict_daphne + "/history/")
    page.locator("a[href*='/history/']").filter(has_text=re.compile(r"\d")).first.click()
    expect(page).to_have_url(re.compile(r"/history/\d+/"))
    page.wait_for_timeout(500)

    # The admin too, as staff: its list filters, a round's page.
    from accounts.models import User

    User.objects.filter(username="alice").update(is_staff=True, is_superuser=True)
    page.goto(strict_daphne + "/admin/tables/round/")
    page.get_by_role("link", name=re.compile("Settled")).first.click()
    page.locator("#result_list tbody a").first.click()
    expect(page.locator("table.round-events")).to_be_visible()
    assert problems == []
