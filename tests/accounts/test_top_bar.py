"""The top bar on every page (templates/base.html, accounts.context_processors): chips, menu, icon, one way of writing numbers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from accounts import ledger
from tables.models import RuleProfile
from tables.play import services
from tests.tables.conftest import make_table

pytestmark = pytest.mark.django_db


def top_bar(html: str) -> str:
    return re.search(r'<header class="topbar">.*?</header>', html, re.S).group(0)


def test_it_shows_the_bankroll_and_the_chips_at_tables_with_thousands_separators(client, alice, bob):
    ledger.admin_adjust(user=alice, amount=1_234_567, reason="High roller", admin=bob)
    services.do_sit(make_table(RuleProfile.ATLANTIC_CITY_MULTI, name="Boardwalk").pk, alice, 2, 1_500)
    services.do_sit(make_table(RuleProfile.ROCKET_ACADEMY, name="Rocket").pk, alice, 1, 35)
    client.force_login(alice)
    for page in ("lobby", "help", "history", "profile"):
        bar = top_bar(client.get(reverse(page)).content.decode())
        # The table's live frames replace these two elements: each holds its number alone.
        assert '<strong id="bankroll">1,234,032</strong>' in bar, page
        assert '<strong id="at-tables">1,535</strong>' in bar, page
        assert re.sub(r"<[^>]+>|\s+", " ", bar).split("·")[0].split()[-2:] == ["Bankroll", "1,234,032"]
        assert f'href="{reverse("profile")}"' in bar


def test_a_player_who_sits_nowhere_has_0_at_tables(client, alice):
    client.force_login(alice)
    bar = top_bar(client.get(reverse("lobby")).content.decode())
    assert '<strong id="bankroll">1,000</strong>' in bar and '<strong id="at-tables">0</strong>' in bar


def test_a_visitor_sees_log_in_and_sign_up_and_no_chips(client):
    bar = top_bar(client.get(reverse("lobby")).content.decode())
    assert 'id="bankroll"' not in bar and 'id="at-tables"' not in bar
    assert f'<a href="{reverse("signup")}" class="button">Sign up</a>' in bar
    assert f'<a href="{reverse("login")}">Log in</a>' in bar


def test_the_menu_links_every_page_and_marks_the_current_one(client, alice):
    client.force_login(alice)
    bar = top_bar(client.get(reverse("help")).content.decode())
    # No script: the button opens the menu as a popover on a phone; wider screens show it as a row.
    assert 'popovertarget="main-menu"' in bar and '<nav id="main-menu" class="menu" popover aria-label="Main">' in bar
    links = re.findall(r'<a href="([^"]+)"( aria-current="page")?>([^<]+)</a>', bar.split("<nav")[1])
    assert links == [
        (reverse("home"), "", "Tables"),
        (reverse("history"), "", "History"),
        (reverse("help"), ' aria-current="page"', "Help"),
        (reverse("profile"), "", "alice"),
        (reverse("limits"), "", "Limits"),
    ]
    assert "Log out" in bar
    footer = re.search(r"<footer.*?</footer>", client.get(reverse("lobby")).content.decode(), re.S).group(0)
    assert f'<a href="{reverse("help")}">How to play</a>' in footer
    assert f'<a href="{reverse("help")}#fairness">Fair shoes</a>' in footer


def test_every_page_names_the_site_and_links_its_icon(client):
    html = client.get(reverse("login")).content.decode()
    assert f"<title>Log in · {settings.SITE_NAME}</title>" in html
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in html
    icon = Path(settings.BASE_DIR, "static", "favicon.svg").read_text()
    assert icon.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and 'viewBox="0 0 64 64"' in icon
    # Browsers that ask for /favicon.ico anyway are sent to it.
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/favicon.svg"
