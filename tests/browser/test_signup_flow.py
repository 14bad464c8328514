import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery staple"


def test_it_signs_up_lands_in_the_lobby_with_1000_chips_logs_out_and_logs_back_in(live_daphne, browser, screenshot):
    page = browser.new_page()
    page.goto(live_daphne + "/")
    page.get_by_role("link", name="Sign up").first.click()
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()

    expect(page).to_have_url(live_daphne + "/tables/")
    expect(page.locator("#bankroll")).to_have_text("1,000")
    expect(page.locator("#at-tables")).to_have_text("0")
    expect(page.get_by_role("status")).to_contain_text("Welcome, alice! Here are 1,000 chips to play with.")
    expect(page.get_by_role("heading", name="Tables", exact=True)).to_be_visible()
    screenshot(page, "signed-up")

    page.get_by_role("button", name="Log out").click()
    expect(page.locator("#bankroll")).to_have_count(0)
    expect(page.get_by_role("banner").get_by_role("link", name="Log in", exact=True)).to_be_visible()

    page.get_by_role("banner").get_by_role("link", name="Log in", exact=True).click()
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator("#bankroll")).to_have_text("1,000")
    screenshot(page, "logged-in-again")


def test_it_shows_the_error_for_a_wrong_password(live_daphne, browser, alice):
    page = browser.new_page()
    page.goto(live_daphne + "/accounts/login/")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill("not the password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_contain_text("Please enter a correct username and password")
