"""/tables/help/: how to play. The rules of each profile, the buttons and keys (from the engine's registry),
the timers, the chips and how a shoe is verified."""

from __future__ import annotations

import dataclasses
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from tables import views
from tables.engine import ACTIONS, PROFILES
from tables.models import RuleProfile, Shoe
from tables.play import lobby, services

pytestmark = pytest.mark.django_db


def section(html: str, anchor: str) -> str:
    return re.search(rf'<section id="{anchor}".*?</section>', html, re.S).group(0)


def words(fragment: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", fragment)).replace("&#x27;", "'").strip()


def test_anyone_may_read_it(client):
    # Every page links it from the top bar and the footer (tests/accounts/test_top_bar.py).
    response = client.get(reverse("help"))
    assert response.status_code == 200
    assert reverse("help") == "/tables/help/"
    assert "<h1>How to play</h1>" in response.content.decode()


def test_it_gives_each_profile_its_rules_in_plain_words(client):
    html = client.get(reverse("help")).content.decode()
    rules = section(html, "rules")
    assert re.findall(r'<article id="rules-([\w-]+)"', rules) == list(RuleProfile.values)
    for slug, name in RuleProfile.choices:
        profile = re.search(rf'<article id="rules-{slug}".*?</article>', rules, re.S).group(0)
        assert f">{name}</h3>" in profile
        for line in PROFILES[slug].rule_lines():
            assert f"<li>{line}</li>" in profile.replace("&#x27;", "'")
    atlantic = words(re.search(r'<article id="rules-atlantic-city".*?</article>', rules, re.S).group(0))
    rocket = words(re.search(r'<article id="rules-rocket-academy".*?</article>', rules, re.S).group(0))
    assert "One seat: you against the dealer." in atlantic
    assert "Up to 7 seats, and one player may hold several of them." in rocket


def test_the_buttons_and_keys_are_read_from_the_engines_registry(client, monkeypatch):
    html = client.get(reverse("help")).content.decode()
    rows = re.findall(
        r'<tr data-action="(\w+)" role="row">\s*<th[^>]*><span class="button-name">([^<]+)</span></th>\s*'
        r'<td[^>]*><span[^>]*>key </span><kbd>(\w)</kbd></td>\s*<td[^>]*>([^<]+)</td>',
        section(html, "buttons"),
    )
    assert rows == [(a.name, a.label, a.key.upper(), a.description.replace("'", "&#x27;")) for a in ACTIONS]
    assert [label for _, label, _, _ in rows] == [
        "Deal", "Pass", "Insurance", "No insurance", "Hit", "Stand", "Double", "Split", "Surrender",
    ]
    # A new key in the registry is a new key on the page.
    renamed = tuple(dataclasses.replace(a, key="q") if a.name == "hit" else a for a in ACTIONS)
    monkeypatch.setattr(views, "ACTIONS", renamed)
    html = client.get(reverse("help")).content.decode()
    assert re.search(r'<tr data-action="hit".*?<kbd>Q</kbd>', html, re.S)


def test_it_explains_the_seat_buttons_and_the_chip_tray(client):
    buttons = words(section(client.get(reverse("help")).content.decode(), "buttons"))
    for name in ("Sit here", "Move here", "Leave table", "Add 1", "Add 5", "Add 25", "Add 100", "Add 500",
                 "Rebet", "Double bet", "Clear bet"):
        assert name in buttons
    assert "buying in with chips from your bankroll (100 unless you choose another amount)" in buttons


def test_it_says_what_the_timers_do_with_the_tables_defaults(client, settings):
    timers = words(section(client.get(reverse("help")).content.decode(), "timers"))
    assert "Betting window, 15 s" in timers
    assert "Bet and press Deal, or Pass. Say nothing and you sit that round out." in timers
    assert "Insurance, 10 s" in timers and "Say nothing and it is declined." in timers
    assert "Each decision, 20 s" in timers and "Say nothing and the hand stands." in timers
    assert "Miss 3 betting windows in a row and you are stood up" in timers
    assert "A table with one seat (your solo table) has no timers" in timers
    settings.TOP_UP_CHIPS = 250
    chips = words(section(client.get(reverse("help")).content.decode(), "chips"))
    assert "topped up with 250 chips" in chips and "A new player gets 1,000." in chips


def test_fairness_explains_the_commitment_and_links_a_shoe_the_player_may_verify(client, alice, rig):
    fairness = section(client.get(reverse("help")).content.decode(), "fairness")
    assert "SHA-256 hash of its seed" in words(fairness)
    assert "/tables/shoes/&lt;shoe number&gt;/" in fairness
    assert "verify shoe" not in fairness  # a visitor has no shoe of their own

    table = lobby.solo_table_for(alice)
    rig(["TS", "9H", "9C", "8D"])
    services.do_sit(table.pk, alice, 1)
    table.refresh_from_db()
    services.do_act(table.pk, alice, "bet", seat=1, amount=10, version=table.version)
    table.refresh_from_db()
    services.do_act(table.pk, alice, "stand", seat=1, version=table.version, hand=0)
    shoe = table.rounds.get().shoe
    client.force_login(alice)
    # A rigged shoe is not retired by itself: while its seed is secret, there is nothing to verify.
    assert shoe.retired_at is None
    assert "verify shoe" not in section(client.get(reverse("help")).content.decode(), "fairness")
    Shoe.objects.filter(pk=shoe.pk).update(retired_at=timezone.now())
    fairness = section(client.get(reverse("help")).content.decode(), "fairness")
    assert f'<a href="{reverse("verify_shoe", args=[shoe.pk])}">verify shoe {shoe.pk}</a>' in fairness
    assert client.get(reverse("verify_shoe", args=[shoe.pk])).status_code == 200


def test_each_profile_shows_its_house_edge_and_links_its_strategy_chart(client):
    html = client.get(reverse("help")).content.decode()
    for slug in RuleProfile.values:
        profile = re.search(rf'<article id="rules-{slug}".*?</article>', html, re.S).group(0)
        assert "% with basic strategy" in profile
        assert f'href="{reverse("strategy", args=[slug])}"' in profile
