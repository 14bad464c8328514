"""/history/: the signed-in player's rounds, newest first, filtered, paged, with a summary of all that match."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts import ledger
from tables.history.queries import PAGE_SIZE
from tables.models import Round, RoundSeat, RuleProfile, SeatResult, Shoe, Table
from tables.play import services
from tests.tables.conftest import make_table, open_next_window

# History rows made by hand (no ledger transfers behind them): no audit after each test.
pytestmark = [pytest.mark.django_db, pytest.mark.ledger_broken]

URL = reverse("history")


def history_row(player, table: Table, *, net: int = 0, settled_at: dt.datetime | None = None, blackjacks: int = 0,
                seat: int = 1, cards: tuple[str, ...] = ("TS", "8H"), round_row: Round | None = None) -> RoundSeat:
    """A settled round's history row, written directly: for what the view does with many rows."""
    settled_at = settled_at or timezone.now()
    if round_row is None:
        shoe = Shoe.objects.create(table=table, decks=1, commitment="c" * 64, seed="5" * 64)
        round_row = Round.objects.create(
            table=table, number=Round.objects.filter(table=table).count() + 1, profile=table.profile, shoe=shoe,
            phase="settled", state={"dealer": ["9C", "8D"], "hole_revealed": True, "events": [], "seats": []},
            settled_at=settled_at,
        )
    result = SeatResult.WIN if net > 0 else SeatResult.LOSS if net < 0 else SeatResult.PUSH
    outcome = {"win": "win", "loss": "lose", "push": "push"}[result]
    return RoundSeat.objects.create(
        round=round_row, table=table, profile=table.profile, player=player, account=ledger.bankroll_of(player),
        seat=seat, settled_at=settled_at, stack_before=100, stack_after=100 + net, net=net, bet=10,
        staked=10, insurance=0, hands=[{"cards": list(cards), "total": 18, "bet": 10, "outcome": outcome}],
        result=result, blackjacks=blackjacks,
    )


def shown_rounds(response) -> list[int]:
    return [int(n) for n in re.findall(r'<tr data-round="(\d+)"', response.content.decode())]


def figure(response, name: str) -> str:
    match = re.search(rf'data-summary="{name}"[^>]*>(.*?)</(?:dd|span)>', response.content.decode(), re.S)
    return re.sub(r"<[^>]+>", "", match.group(1)).strip()


def version(table) -> int:
    table.refresh_from_db()
    return table.version


def test_a_visitor_is_sent_to_sign_in(client):
    response = client.get(URL)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_it_shows_only_the_players_own_rounds(client, alice, bob, rig):
    # alice and bob play the same round at a shared table; bob plays one more alone.
    table = make_table(RuleProfile.ATLANTIC_CITY_MULTI)
    rig(["TS", "5C", "9H", "9C", "6D", "8D", "TH"])
    services.do_sit(table.pk, alice, 1)
    services.do_sit(table.pk, bob, 2)
    open_next_window(table)
    services.do_act(table.pk, alice, "bet", seat=1, amount=10, version=version(table))
    services.do_act(table.pk, bob, "bet", seat=2, amount=20, version=version(table))
    services.do_act(table.pk, alice, "stand", seat=1, version=version(table))
    services.do_act(table.pk, bob, "stand", seat=2, version=version(table))
    shared_round = Table.objects.get(pk=table.pk).current_round
    bobs_own = history_row(bob, make_table(RuleProfile.ATLANTIC_CITY, name="Bob's corner"), net=-10)

    client.force_login(alice)
    response = client.get(URL)
    assert response.status_code == 200
    assert shown_rounds(response) == [shared_round.pk]
    assert figure(response, "rounds") == "1"
    assert figure(response, "net") == "+10"  # alice's 19 beats 17; bob's 15 lost 20
    assert "Bob&#x27;s corner" not in response.content.decode()
    assert f'data-round="{bobs_own.round_id}"' not in response.content.decode()

    client.force_login(bob)
    assert shown_rounds(client.get(URL)) == [bobs_own.round_id, shared_round.pk]


def test_it_lists_the_newest_round_first_with_a_link_to_its_replay(client, alice, solo_table):
    now = timezone.now()
    older = history_row(alice, solo_table, net=5, settled_at=now - dt.timedelta(hours=2))
    newer = history_row(alice, solo_table, net=-5, settled_at=now)
    client.force_login(alice)
    response = client.get(URL)
    assert shown_rounds(response) == [newer.round_id, older.round_id]
    assert f'href="{reverse("history_round", args=[newer.round_id])}"' in response.content.decode()


def test_the_summary_counts_results_blackjacks_and_the_biggest_win_and_loss(client, alice, bob, solo_table):
    for net, blackjacks in ((15, 1), (30, 0), (0, 0), (-10, 0), (-40, 0), (15, 1)):
        history_row(alice, solo_table, net=net, blackjacks=blackjacks)
    history_row(bob, solo_table, net=500, blackjacks=1)  # not alice's
    client.force_login(alice)
    response = client.get(URL)
    assert figure(response, "rounds") == "6"
    assert figure(response, "net") == "+10"
    assert (figure(response, "wins"), figure(response, "pushes"), figure(response, "losses")) == ("3", "1", "2")
    assert figure(response, "blackjacks") == "2"
    assert figure(response, "biggest-win") == "+30"
    assert figure(response, "biggest-loss") == "-40"


def test_the_summary_of_a_player_without_a_win_or_a_loss_shows_dashes(client, alice, solo_table):
    history_row(alice, solo_table, net=0)
    client.force_login(alice)
    response = client.get(URL)
    assert (figure(response, "biggest-win"), figure(response, "biggest-loss")) == ("—", "—")
    assert figure(response, "net") == "0"


def test_a_player_without_rounds_is_pointed_to_the_tables(client, alice):
    client.force_login(alice)
    response = client.get(URL)
    assert figure(response, "rounds") == "0"
    assert "You have not played a round yet." in response.content.decode()


def test_the_table_filter_keeps_that_tables_rounds(client, alice, solo_table):
    other = make_table(RuleProfile.INTERNET_6, name="Six seats")
    here = history_row(alice, solo_table, net=5)
    there = history_row(alice, other, net=-5)
    client.force_login(alice)
    response = client.get(URL, {"table": other.pk})
    assert shown_rounds(response) == [there.round_id]
    assert figure(response, "net") == "-5"
    # The choices are the tables alice played at.
    text = response.content.decode()
    assert f'<option value="{other.pk}" selected>Six seats</option>' in text
    assert f'<option value="{solo_table.pk}">{solo_table.name}</option>' in text
    assert shown_rounds(client.get(URL, {"table": solo_table.pk})) == [here.round_id]


def test_a_table_the_player_never_played_at_is_not_offered(client, alice, bob, solo_table):
    history_row(alice, solo_table)
    bobs = make_table(RuleProfile.INTERNET_6, name="Bob only")
    history_row(bob, bobs)
    client.force_login(alice)
    text = client.get(URL).content.decode()
    assert "Bob only" not in text


def test_the_profile_filter_keeps_rounds_played_under_those_rules(client, alice, solo_table):
    rocket = make_table(RuleProfile.ROCKET_ACADEMY, name="Rocket")
    history_row(alice, solo_table, net=5)
    rocket_row = history_row(alice, rocket, net=7)
    client.force_login(alice)
    response = client.get(URL, {"profile": "rocket-academy"})
    assert shown_rounds(response) == [rocket_row.round_id]
    assert figure(response, "net") == "+7"


def test_the_outcome_filter_keeps_wins_pushes_or_losses(client, alice, solo_table):
    win = history_row(alice, solo_table, net=10)
    push = history_row(alice, solo_table, net=0)
    loss = history_row(alice, solo_table, net=-10)
    client.force_login(alice)
    assert shown_rounds(client.get(URL, {"outcome": "win"})) == [win.round_id]
    assert shown_rounds(client.get(URL, {"outcome": "push"})) == [push.round_id]
    response = client.get(URL, {"outcome": "loss"})
    assert shown_rounds(response) == [loss.round_id]
    assert (figure(response, "rounds"), figure(response, "losses"), figure(response, "wins")) == ("1", "1", "0")


def test_the_date_range_includes_both_ends_whole_days(client, alice, solo_table):
    def at(day: int, hour: int) -> dt.datetime:
        return timezone.make_aware(dt.datetime(2025, 3, day, hour, 30))

    before = history_row(alice, solo_table, settled_at=at(9, 23))
    first_day = history_row(alice, solo_table, settled_at=at(10, 0))
    last_day = history_row(alice, solo_table, settled_at=at(12, 23))
    after = history_row(alice, solo_table, settled_at=at(13, 0))
    client.force_login(alice)
    both = client.get(URL, {"date_from": "2025-03-10", "date_to": "2025-03-12"})
    assert shown_rounds(both) == [last_day.round_id, first_day.round_id]
    assert figure(both, "rounds") == "2"
    assert shown_rounds(client.get(URL, {"date_from": "2025-03-12"})) == [after.round_id, last_day.round_id]
    assert shown_rounds(client.get(URL, {"date_to": "2025-03-09"})) == [before.round_id]


def test_filters_combine(client, alice, solo_table):
    other = make_table(RuleProfile.INTERNET_6, name="Six seats")
    history_row(alice, solo_table, net=10)
    history_row(alice, other, net=-10)
    wanted = history_row(alice, other, net=10)
    client.force_login(alice)
    assert shown_rounds(client.get(URL, {"table": other.pk, "outcome": "win"})) == [wanted.round_id]


def test_a_filter_it_cannot_read_is_shown_as_an_error_and_left_out(client, alice, solo_table):
    row = history_row(alice, solo_table, net=10)
    client.force_login(alice)
    response = client.get(URL, {"date_from": "someday", "outcome": "win"})
    assert response.status_code == 200
    assert shown_rounds(response) == [row.round_id]
    assert "Enter a valid date." in response.content.decode()
    backwards = client.get(URL, {"date_from": "2025-03-12", "date_to": "2025-03-10"})
    assert "The end date is before the start date." in backwards.content.decode()
    assert shown_rounds(client.get(URL, {"outcome": "jackpot"})) == [row.round_id]


def test_the_pages_hold_fifty_rounds_and_link_with_href_and_htmx(client, alice, solo_table):
    rows = [history_row(alice, solo_table, net=1) for _ in range(PAGE_SIZE + 3)]
    newest_first = [row.round_id for row in reversed(rows)]
    client.force_login(alice)
    first = client.get(URL, {"outcome": "win"})
    assert shown_rounds(first) == newest_first[:PAGE_SIZE]
    assert figure(first, "rounds") == str(PAGE_SIZE + 3)
    text = first.content.decode()
    assert "Page 1 of 2" in text
    # Without JavaScript the link is followed; with htmx it swaps #results, filter kept.
    assert 'href="?outcome=win&amp;page=2" hx-get="?outcome=win&amp;page=2" hx-target="#results"' in text
    second = client.get(URL, {"outcome": "win", "page": "2"})
    assert "<html" in second.content.decode()
    assert shown_rounds(second) == newest_first[PAGE_SIZE:]
    # A page past the end or not a number shows the nearest page.
    assert shown_rounds(client.get(URL, {"page": "99"})) == newest_first[PAGE_SIZE:]
    assert shown_rounds(client.get(URL, {"page": "x"})) == newest_first[:PAGE_SIZE]


def test_an_htmx_request_gets_only_the_results_fragment(client, alice, solo_table):
    rows = [history_row(alice, solo_table, net=1) for _ in range(PAGE_SIZE + 1)]
    client.force_login(alice)
    response = client.get(URL, {"page": "2"}, headers={"HX-Request": "true"})
    text = response.content.decode()
    assert text.lstrip().startswith('<div id="results"')
    assert "<html" not in text and "<form" not in text
    assert shown_rounds(response) == [rows[0].round_id]
    assert "HX-Request" in response["Vary"]
    # htmx restoring a page it has no copy of asks for the whole page.
    restore = client.get(URL, headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    assert "<html" in restore.content.decode()


def test_the_exports_follow_the_filters(client, alice, solo_table):
    history_row(alice, solo_table, net=1)
    client.force_login(alice)
    text = client.get(URL, {"outcome": "win", "table": ""}).content.decode()
    assert f'href="{reverse("history_export_csv")}?outcome=win"' in text
    assert f'href="{reverse("history_export_json")}?outcome=win"' in text


def test_names_are_escaped(client, alice):
    table = make_table(RuleProfile.ATLANTIC_CITY, name="<script>alert(1)</script>")
    history_row(alice, table)
    client.force_login(alice)
    text = client.get(URL).content.decode()
    assert "<script>alert(1)</script>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text


def test_the_top_bar_links_to_the_history_for_signed_in_players(client, alice):
    assert f'href="{URL}"' not in client.get(reverse("lobby")).content.decode()
    client.force_login(alice)
    assert f'href="{URL}">History</a>' in client.get(reverse("lobby")).content.decode()


def test_the_page_takes_a_pinned_number_of_queries(client, alice, solo_table, django_assert_num_queries):
    other = make_table(RuleProfile.INTERNET_6, name="Six seats")
    for n in range(60):
        history_row(alice, solo_table if n % 2 else other, net=n % 3 - 1)
    client.force_login(alice)
    # The session, the user, the bankroll in the top bar, the tables for the filter,
    # the summary (one aggregate), the page's ids, the page's rows with table and round.
    with django_assert_num_queries(7):
        response = client.get(URL, {"page": "2"})
    assert len(shown_rounds(response)) == 10
    # The htmx fragment renders no filter form: no table list.
    with django_assert_num_queries(6):
        client.get(URL, {"outcome": "loss", "table": other.pk}, headers={"HX-Request": "true"})


def reviewed(row: RoundSeat, *costs: float) -> RoundSeat:
    """Give a history row a review: one decision per cost (0: the best play)."""
    verdicts = [
        {"seq": 5 + n, "seat": row.seat, "hand": 0, "cards": ["TS", "6H"], "dealer": "TD", "bet": 10,
         "action": "stand" if cost else "hit", "actor": "player", "ev": -0.54 if cost else -0.536, "best": "hit",
         "best_ev": -0.536, "evs": {}, "cost_chips": cost, "cost_pct": cost * 10, "is_best": cost == 0}
        for n, cost in enumerate(costs)
    ]
    RoundSeat.objects.filter(pk=row.pk).update(
        review=verdicts, decisions=len(costs), best_decisions=sum(1 for c in costs if c == 0),
        ev_given=sum(costs), worst_cost=max(costs, default=0),
    )
    return row


def test_the_summary_shows_accuracy_and_chips_given_away_for_the_filtered_rounds(client, alice, solo_table):
    other = make_table(RuleProfile.INTERNET_6, name="Six")
    reviewed(history_row(alice, solo_table, net=10), 0, 0.5, 0)
    reviewed(history_row(alice, solo_table, net=-10), 1.25)
    reviewed(history_row(alice, other, net=5), 0, 3.0)
    history_row(alice, solo_table)  # not reviewed yet
    client.force_login(alice)
    response = client.get(URL)
    assert figure(response, "accuracy").startswith("50.0 %") and "(3 of 6 decisions)" in figure(response, "accuracy")
    assert figure(response, "given-away") == "4.75"
    assert "3 of 4 rounds reviewed so far" in response.content.decode()
    filtered = client.get(URL, {"table": solo_table.pk})
    assert figure(filtered, "accuracy").startswith("50.0 %") and "(2 of 4 decisions)" in figure(filtered, "accuracy")
    assert figure(filtered, "given-away") == "1.75"
