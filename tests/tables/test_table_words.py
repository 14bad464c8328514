"""The live table's words (issue 11, "Clear words" and "Motion and results"), as a player's page shows them.

Seat text that adds up (stack, the bet with its doubles, the session), each
hand's outcome with its chips, the result banner, blackjacks called
blackjacks, names kept in the log after a player leaves, seat numbers for a
player holding two seats, and the shoe commitment in a Fairness section.
"""

from __future__ import annotations

import re

import pytest

from tables.live import state as table_state
from tables.live.outcomes import hand_words, round_words
from tables.live.pieces import whole_table
from tables.models import RuleProfile, Table
from tables.play import services
from tests.tables.conftest import make_table, open_next_window

pytestmark = pytest.mark.django_db


def act(table: Table, user, action: str, seat: int = 1, **fields) -> None:
    table.refresh_from_db()
    services.do_act(table.pk, user, action, seat=seat, version=table.version, **fields)


def page(table: Table, user) -> str:
    return whole_table(table.pk, user)[0]


def seat_html(html: str, number: int) -> str:
    return re.search(rf'<article id="seat-{number}".*?</article>', html, re.DOTALL).group(0)


def banner(html: str) -> str:
    return re.search(r'<div id="result"[^>]*>(.*?)</div>', html, re.DOTALL).group(1)


def test_it_words_each_outcome_with_its_chips():
    assert hand_words("blackjack", 15) == "Blackjack +15"
    assert hand_words("win", 10) == "Win +10"
    assert hand_words("push", 0) == "Push"
    assert hand_words("bust", -10) == "Bust -10"
    assert hand_words("lose", -10, dealer_blackjack=True) == "Dealer blackjack -10"
    assert hand_words("surrender", -5) == "Surrender -5"
    assert round_words(25, blackjack=False) == "You win +25"
    assert round_words(-10, blackjack=False) == "You lose -10"
    assert round_words(0, blackjack=True) == "Push"
    assert round_words(15, blackjack=True) == "Blackjack +15"


def test_it_shows_a_bet_beside_the_stack_it_came_from(alice, multi_table, rig):
    rig(["TS", "9H", "9C", "8D"])
    services.do_sit(multi_table.pk, alice, 1, 100)
    open_next_window(multi_table)
    act(multi_table, alice, "bet", amount=25)
    seat = seat_html(page(multi_table, alice), 1)
    # 75 in the stack and 25 on the table: no "0 since sitting" that reads as if nothing moved.
    assert '<p class="bet">Bet 25</p>' in seat
    assert "Stack <strong data-stack>75</strong> · session <span>0</span>" in seat
    assert banner(page(multi_table, alice)) == ""


def test_it_shows_a_doubled_bet_on_the_seat_and_the_win_with_its_chips(alice, solo_table, rig):
    # alice 6 5 (11) doubles and draws a ten; the dealer 9 8 (17).
    rig(["6S", "9H", "5C", "8D", "TS"])
    services.do_sit(solo_table.pk, alice, 1, 100)
    act(solo_table, alice, "bet", amount=10)
    act(solo_table, alice, "double")
    html = page(solo_table, alice)
    seat = seat_html(html, 1)
    assert '<p class="bet">Bet 20</p>' in seat  # the double is on the seat, not only on the hand
    assert '<span class="outcome win">Win +20</span>' in seat
    assert "Stack <strong data-stack>120</strong> · session <span class=\"plus\">+20</span>" in seat
    assert banner(html) == "You win +20"
    assert '<div id="result" class="win" role="status">' in html


def test_it_calls_a_natural_a_blackjack_and_pays_it_in_words(alice, solo_table, rig):
    rig(["AS", "9H", "KC", "8D"])
    services.do_sit(solo_table.pk, alice, 1, 100)
    act(solo_table, alice, "bet", amount=10)
    html = page(solo_table, alice)
    assert '<p class="total">Blackjack <span class="outcome blackjack">Blackjack +15</span></p>' in html
    assert banner(html) == "Blackjack +15"


def test_it_calls_the_dealers_blackjack_one_against_a_blackjack_and_a_nineteen(alice, bob, multi_table, rig):
    # alice A K, bob T 9; the dealer K up and A in the hole: the peek finds blackjack.
    rig(["AS", "TC", "KH", "KC", "9C", "AD"])
    services.do_sit(multi_table.pk, alice, 1, 100)
    services.do_sit(multi_table.pk, bob, 2, 100)
    open_next_window(multi_table)
    act(multi_table, alice, "bet", amount=10)
    act(multi_table, bob, "bet", seat=2, amount=10)
    html = page(multi_table, alice)
    assert '<h2>Dealer <span class="total bj">Blackjack</span></h2>' in html  # not "Dealer 21"
    assert '<p class="total">Blackjack <span class="outcome push">Push</span></p>' in seat_html(html, 1)
    assert '<span class="outcome lose">Dealer blackjack -10</span>' in seat_html(html, 2)
    assert banner(html) == "Push"
    assert banner(page(multi_table, bob)) == "You lose -10"
    assert banner(whole_table(multi_table.pk, None)[0]) == ""  # a watcher played nothing


def test_it_keeps_a_leavers_name_in_the_log(alice, bob, multi_table, rig):
    rig(["TS", "TC", "9H", "9C", "8C", "8D"])
    services.do_sit(multi_table.pk, alice, 1, 100)
    services.do_sit(multi_table.pk, bob, 2, 100)
    open_next_window(multi_table)
    act(multi_table, alice, "bet", amount=10)
    act(multi_table, bob, "bet", seat=2, amount=10)
    services.do_leave(multi_table.pk, alice, 1, version=Table.objects.get(pk=multi_table.pk).version)
    act(multi_table, alice, "stand")
    act(multi_table, bob, "stand", seat=2)
    state = table_state.snapshot(multi_table.pk)
    assert state.free_seats == [1, 3, 4, 5]  # alice has gone
    assert "alice stands." in state.log and "alice, hand 1: win, 20 back." in state.log
    assert not any(line.startswith("Seat 1") for line in state.log)


def test_it_tells_a_players_two_seats_apart_in_the_log(alice, rig):
    table = make_table(RuleProfile.ROCKET_ACADEMY)
    rig(["TS", "TC", "9H", "9C", "8C", "8D"])
    services.do_sit(table.pk, alice, 1, 100)
    services.do_sit(table.pk, alice, 2, 100)
    open_next_window(table)
    act(table, alice, "bet", amount=10)
    act(table, alice, "bet", seat=2, amount=10)
    log = table_state.snapshot(table.pk).log
    assert log[:2] == ["alice (seat 1) bets 10.", "alice (seat 2) bets 10."]


def test_it_puts_the_shoe_commitment_in_a_fairness_section(alice, multi_table):
    services.do_sit(multi_table.pk, alice, 1, 100)
    open_next_window(multi_table)
    html = page(multi_table, alice)
    round_row = Table.objects.get(pk=multi_table.pk).current_round
    section = re.search(r'<details class="fairness">.*?</details>', html, re.DOTALL).group(0)
    assert round_row.shoe.commitment in section
    assert f'href="/tables/shoes/{round_row.shoe_id}/"' in section
