"""/tables/<id>/rounds/: a table's last 10 rounds (game recall), its cards drawn as cards."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from accounts import ledger
from tables.models import RuleProfile, Table
from tables.play import lobby, services
from tests.tables.conftest import make_table, open_next_window

pytestmark = pytest.mark.django_db

MINI = re.compile(
    r'<span class="mini( red)?" data-card="(\w\w)"><span aria-hidden="true">([^<]+)</span>'
    r'<span class="visually-hidden">([^<]+)</span></span>'
)


def play(table: Table, player, *, seat: int = 1, bet: int = 10) -> None:
    table.refresh_from_db()
    services.do_act(table.pk, player, "bet", seat=seat, amount=bet, version=table.version)
    table.refresh_from_db()
    services.do_act(table.pk, player, "stand", seat=seat, version=table.version, hand=0)


def cell(row: str, name: str) -> str:
    return re.search(rf'<td class="c-{name}" role="cell">.*?</td>', row, re.S).group(0)


def test_it_draws_each_card_as_its_rank_and_suit_and_says_its_name(client, alice, rig):
    table = lobby.solo_table_for(alice)
    rig(["TS", "9H", "9C", "8D"])  # alice T 9 (19) stands; the dealer 9 8 (17)
    services.do_sit(table.pk, alice, 1)
    play(table, alice)
    client.force_login(alice)
    html = client.get(reverse("table_rounds", args=[table.pk])).content.decode()
    row = re.search(r'<tr role="row" data-round="\d+">.*?</tr>', html, re.S).group(0)
    # No raw card code ("TS 9C") is left for a reader: only symbols, and names for screen readers.
    assert not re.search(r"\b(TS|9C|9H|8D)\b", re.sub(r'data-card="\w\w"', "", row))
    assert MINI.findall(cell(row, "dealer")) == [
        (" red", "9H", "9♥", "9 of hearts"),
        (" red", "8D", "8♦", "8 of diamonds"),
    ]
    assert '<span class="help">17</span>' in cell(row, "dealer")
    seats = cell(row, "seats")
    assert MINI.findall(seats) == [("", "TS", "10♠", "ten of spades"), ("", "9C", "9♣", "9 of clubs")]
    assert "19 · win" in re.sub(r"<[^>]+>", "", seats)
    assert '<span class="plus">(+10)</span>' in seats


def test_it_lists_the_last_10_rounds_newest_first_with_numbers_written_alike(client, alice, bob, rig):
    ledger.admin_adjust(user=alice, amount=20_000, reason="High roller", admin=bob)
    table = make_table(RuleProfile.ATLANTIC_CITY_MULTI, max_bet=5_000)
    rig(["TS", "9H", "9C", "8D"] * 11)  # every round: alice 19 stands, the dealer 17
    services.do_sit(table.pk, alice, 1, 20_000)
    for _ in range(11):
        open_next_window(table)
        play(table, alice, bet=1_500)
    html = client.get(reverse("table_rounds", args=[table.pk])).content.decode()
    numbers = re.findall(r'<td class="c-round" role="cell"><span class="cell-label" aria-hidden="true">Round </span>(\d+)</td>', html)
    assert numbers == [str(n) for n in range(11, 1, -1)]
    assert "the last 10 rounds" in html
    assert html.count('<span class="plus">(+1,500)</span>') == 10


def test_a_table_with_no_round_yet_says_so(client, multi_table):
    html = client.get(reverse("table_rounds", args=[multi_table.pk])).content.decode()
    assert "No round has been played here yet." in html
