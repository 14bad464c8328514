"""/tables/: the lobby. Live seat counts and rounds, the players at each table, filters, your own tables."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tables.engine import PROFILES
from tables.live.lobby import rule_tags
from tables.models import RuleProfile, Table
from tables.play import services
from tests.tables.conftest import make_table, open_next_window

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def card(html: str, table: Table) -> str:
    """The lobby's card of one table."""
    match = re.search(rf'<article class="table-card[^"]*" id="table-{table.pk}".*?</article>', html, re.S)
    assert match, f"no card for {table.name}"
    return match.group(0)


def text_of(fragment: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", fragment)).strip()


def poll_url(html: str) -> str:
    return re.search(r'id="open-tables"[^>]*hx-get="([^"]+)"', html).group(1).replace("&amp;", "&")


def test_the_rule_profiles_are_the_engines():
    assert set(RuleProfile.values) == set(PROFILES)


def test_it_lists_every_public_table_with_its_profile_limits_and_the_rules_that_set_it_apart(client, alice):
    table = make_table(RuleProfile.INTERNET_6, name="Six Shooter", min_bet=2, max_bet=1500)
    private = make_table(RuleProfile.ATLANTIC_CITY, name="alice's hideaway", owner=alice)
    html = client.get(reverse("lobby")).content.decode()
    assert private.name not in html.replace("&#x27;", "'")
    text = text_of(card(html, table))
    assert "Internet casino, six seats · bets 2–1,500" in text
    assert rule_tags(PROFILES["internet-6"]) == [
        "6 decks", "Cut card at 75%", "No peek", "Original bets only", "Insurance up to half",
        "Double for less", "Re-split to 4 hands", "Split any tens",
    ]
    for tag in rule_tags(PROFILES["internet-6"]):
        assert f"<li>{tag}</li>" in card(html, table)
    # The rules every table shares are said once, at the top; the full list is a link away.
    assert "Dealer stands on all 17s" not in card(html, table)
    assert "dealer stands on all 17s" in text_of(html)
    assert f'href="{reverse("help")}#rules-internet-6"' in card(html, table)


def test_it_shows_who_sits_where_and_what_the_round_is_doing(client, alice, bob, rig):
    table = make_table(RuleProfile.ATLANTIC_CITY_MULTI, name="Boardwalk")
    html = client.get(reverse("lobby")).content.decode()
    assert "0 of 5 seats taken" in text_of(card(html, table))
    assert 'data-state="idle">Waiting for players' in card(html, table)

    rig([])
    services.do_sit(table.pk, alice, 2)
    services.do_sit(table.pk, bob, 4)
    html = client.get(reverse("lobby")).content.decode()
    assert "2 of 5 seats taken: alice, bob" in text_of(card(html, table))
    assert re.findall(r'<li class="(\w+)" title="Seat (\d): (\w+)"', card(html, table)) == [
        ("free", "1", "free"), ("taken", "2", "alice"), ("free", "3", "free"), ("taken", "4", "bob"), ("free", "5", "free"),
    ]
    assert 'data-state="idle">Between rounds' in card(html, table)

    open_next_window(table)
    html = client.get(reverse("lobby")).content.decode()
    assert re.search(r'data-state="betting">Taking bets<span class="round-no"> · round 1</span>', card(html, table))


def test_a_one_seat_table_is_presented_as_solo(client, alice, bob, rig):
    table = make_table(RuleProfile.ATLANTIC_CITY, name="Atlantic City")
    client.force_login(bob)
    html = client.get(reverse("lobby")).content.decode()
    solo = card(html, table)
    assert 'class="table-card solo"' in solo and '<span class="badge">Solo</span>' in solo
    assert "One player against the dealer" in text_of(solo)
    assert "seats taken" not in solo and "seat-map" not in solo
    assert re.search(r'id="go-\d+"[^>]*>Play<', solo)
    # Shared tables come first.
    shared = make_table(RuleProfile.INTERNET_7, name="Seven Seas")
    html = client.get(reverse("lobby")).content.decode()
    assert html.index(f'id="table-{shared.pk}"') < html.index(f'id="table-{table.pk}"')

    rig([])
    services.do_sit(table.pk, alice, 1)
    solo = card(client.get(reverse("lobby")).content.decode(), table)
    assert "alice is playing" in text_of(solo)
    assert re.search(r'id="go-\d+"[^>]*>Watch<', solo)


def test_it_marks_your_seats_and_the_chips_in_them(client, alice, bob):
    table = make_table(RuleProfile.ATLANTIC_CITY_MULTI, name="Boardwalk")
    services.do_sit(table.pk, alice, 2, 35)
    services.do_sit(table.pk, bob, 3)
    client.force_login(alice)
    mine = card(client.get(reverse("lobby")).content.decode(), table)
    assert "Your seat 2 · 35 chips" in text_of(mine)
    assert '<li class="mine" title="Seat 2: alice">A</li>' in mine
    assert re.search(r'id="go-\d+"[^>]*>Back to your seat<', mine)
    client.force_login(bob)
    assert "Your seat 3 · 100 chips" in text_of(card(client.get(reverse("lobby")).content.decode(), table))


def test_your_tables_lists_the_solo_and_rocket_academy_tables_you_opened(client, alice, bob):
    client.force_login(alice)
    client.post(reverse("play_solo"))
    client.post(reverse("create_rocket_table"), {"seats": "4"})
    client.force_login(bob)
    client.post(reverse("create_rocket_table"), {"seats": "2"})
    solo = Table.objects.get(owner=alice)
    rocket = Table.objects.get(created_by=alice, profile=RuleProfile.ROCKET_ACADEMY)
    theirs = Table.objects.get(created_by=bob)
    assert (solo.created_by, rocket.name) == (alice, "alice's Rocket Academy")

    client.force_login(alice)
    html = client.get(reverse("lobby")).content.decode()
    yours = re.search(r'<section id="your-tables".*?</section>', html, re.S).group(0)
    assert "hidden" not in yours.split(">")[0]
    assert re.findall(r'<li class="my-table" id="mine-(\d+)"', yours) == [str(rocket.pk), str(solo.pk)]
    assert "Private · Atlantic City · one seat" in text_of(yours)
    assert "Public · Rocket Academy single deck · 0 of 4 seats taken" in text_of(yours)
    assert f"mine-{theirs.pk}" not in yours
    # Her Rocket Academy table is public: everyone sees it among the open tables, bob's too.
    assert f'id="table-{rocket.pk}"' in html and f'id="table-{theirs.pk}"' in html

    client.logout()
    html = client.get(reverse("lobby")).content.decode()
    assert re.search(r'<section id="your-tables"[^>]* hidden>', html)
    assert "Sign up" in text_of(re.search(r'<section class="panel welcome".*?</section>', html, re.S).group(0))


def test_it_filters_by_rule_profile_stakes_and_a_free_seat(client, alice):
    low = make_table(RuleProfile.INTERNET_7, name="Low", min_bet=1)
    medium = make_table(RuleProfile.ATLANTIC_CITY_MULTI, name="Medium", min_bet=5)
    high = make_table(RuleProfile.INTERNET_7, name="High", min_bet=25, max_bet=500)
    full = make_table(RuleProfile.ATLANTIC_CITY, name="Full", min_bet=1)
    services.do_sit(full.pk, alice, 1)

    def listed(query: str) -> list[str]:
        html = client.get(reverse("lobby") + query).content.decode()
        open_tables = re.search(r'<div id="open-tables".*', html, re.S).group(0)
        return re.findall(r'<article class="table-card[^"]*" id="table-\d+" aria-labelledby="[^"]+">\s*<header[^>]*>\s*<h3[^>]*><a[^>]*>(\w+)<', open_tables)

    assert listed("") == ["Low", "Medium", "High", "Full"]
    assert listed("?profile=internet-7") == ["Low", "High"]
    assert listed("?stakes=low") == ["Low", "Full"]
    assert listed("?stakes=medium") == ["Medium"]
    assert listed("?stakes=high&profile=internet-7") == ["High"]
    assert listed("?stakes=low&free_seat=on") == ["Low"]
    assert listed("?profile=rocket-academy") == []
    html = client.get(reverse("lobby") + "?profile=rocket-academy").content.decode()
    assert "No open table matches these filters." in html and "No tables are open yet." not in html
    # A value the form does not know is left out, not an error.
    assert listed("?profile=poker&stakes=huge") == ["Low", "Medium", "High", "Full"]
    assert 'selected>Medium: minimum bet 5 to 24</option>' in client.get(reverse("lobby") + "?stakes=medium").content.decode()


def test_htmx_gets_the_live_part_and_a_poll_gets_204_while_nothing_changes(client, alice, bob):
    table = make_table(RuleProfile.ATLANTIC_CITY_MULTI, name="Boardwalk")
    client.force_login(alice)
    client.post(reverse("play_solo"))
    page = client.get(reverse("lobby") + "?profile=atlantic-city-multi")
    assert page["Vary"] and "HX-Request" in page["Vary"]
    poll = poll_url(page.content.decode())
    assert poll.startswith(reverse("lobby") + "?profile=atlantic-city-multi&seen=")
    assert 'hx-trigger="every 5s" data-poll-when-visible' in page.content.decode()  # static/js/site.js skips it while hidden

    unchanged = client.get(poll, headers=HTMX)
    assert unchanged.status_code == 204 and unchanged.content == b""
    # Without htmx the same address is the whole page (the plain link's fallback).
    assert b"<html" in client.get(poll).content

    services.do_sit(table.pk, bob, 3)
    changed = client.get(poll, headers=HTMX)
    html = changed.content.decode()
    assert changed.status_code == 200 and "<html" not in html
    assert html.lstrip().startswith('<div id="open-tables"')
    assert "1 of 5 seats taken: bob" in text_of(card(html, table))
    assert re.search(r'<section id="your-tables"[^>]*hx-swap-oob="true"', html)
    assert poll_url(html) != poll
    assert client.get(poll_url(html), headers=HTMX).status_code == 204


def test_a_filter_change_over_htmx_answers_with_the_matching_tables(client):
    make_table(RuleProfile.INTERNET_7, name="Seven Seas")
    boardwalk = make_table(RuleProfile.ATLANTIC_CITY_MULTI, name="Boardwalk")
    response = client.get(reverse("lobby") + "?profile=atlantic-city-multi", headers=HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert f'id="table-{boardwalk.pk}"' in html and "Seven Seas" not in html


def test_the_lobby_costs_the_same_queries_for_2_tables_or_20(client, alice, bob, django_assert_num_queries):
    client.force_login(alice)
    client.post(reverse("play_solo"))
    for n in range(2):
        table = make_table(RuleProfile.ATLANTIC_CITY_MULTI, name=f"Table {n}")
        services.do_sit(table.pk, bob, 1, 10)
    # The session, the user, the open tables, their seats, your tables, their seats, your chips (top bar).
    with django_assert_num_queries(7):
        client.get(reverse("lobby"))
    for n in range(2, 20):
        table = make_table(RuleProfile.INTERNET_7, name=f"Table {n}")
        services.do_sit(table.pk, bob, 2, 10)
    with django_assert_num_queries(7):
        html = client.get(reverse("lobby")).content.decode()
    assert html.count('<article class="table-card') == 20


def test_play_solo_makes_one_private_atlantic_city_table_per_player(client, alice):
    client.force_login(alice)
    first = client.post(reverse("play_solo"))
    second = client.post(reverse("play_solo"))
    table = Table.objects.get(owner=alice)
    assert first["Location"] == second["Location"] == reverse("table", args=[table.pk])
    assert (table.profile, table.seat_count, table.created_by) == (RuleProfile.ATLANTIC_CITY, 1, alice)


def test_play_solo_needs_a_signed_in_player_and_a_post(client, alice):
    assert client.post(reverse("play_solo")).status_code == 302  # to the login page
    client.force_login(alice)
    assert client.get(reverse("play_solo")).status_code == 405
    assert not Table.objects.exists()


def test_it_creates_a_rocket_academy_table_with_1_to_7_seats(client, alice):
    client.force_login(alice)
    response = client.post(reverse("create_rocket_table"), {"seats": "4"})
    table = Table.objects.get(profile=RuleProfile.ROCKET_ACADEMY)
    assert response["Location"] == reverse("table", args=[table.pk])
    assert table.seats.count() == 4
    assert (table.owner, table.created_by) == (None, alice)


@pytest.mark.parametrize("seats", ["0", "8", "two", ""])
def test_it_refuses_a_rocket_table_of_the_wrong_size(client, alice, seats):
    client.force_login(alice)
    response = client.post(reverse("create_rocket_table"), {"seats": seats})
    assert response.status_code == 400
    assert b"field-errors" in response.content
    assert not Table.objects.exists()


def test_a_refused_rocket_table_shows_the_error_in_the_whole_lobby(client, alice):
    """Not "No tables are open yet." under the error: the open tables and your own are all there."""
    open_table = make_table(RuleProfile.INTERNET_7, name="Seven Seas")
    client.force_login(alice)
    client.post(reverse("play_solo"))
    response = client.post(reverse("create_rocket_table"), {"seats": "9"})
    html = response.content.decode()
    assert response.status_code == 400
    assert "No tables are open yet." not in html
    assert f'id="table-{open_table.pk}"' in html
    assert "alice&#x27;s solo table" in re.search(r'<section id="your-tables".*?</section>', html, re.S).group(0)
    seats = re.search(r'<input[^>]*name="seats"[^>]*>', html).group(0)
    assert 'value="9"' in seats and "autofocus" in seats and 'aria-invalid="true"' in seats
    assert "Ensure this value is less than or equal to 7." in html


# --- Pages (LOBBY_PAGE_SIZE) -----------------------------------------------------------


def listed_ids(html: str) -> list[int]:
    open_part = re.search(r'<div id="open-tables".*?(?=<section id="your-tables"|\Z)', html, re.DOTALL).group(0)
    return [int(n) for n in re.findall(r'<article class="table-card[^"]*" id="table-(\d+)"', open_part)]


@pytest.fixture
def seven_tables(settings, db) -> list[Table]:
    settings.LOBBY_PAGE_SIZE = 3
    solo = make_table(RuleProfile.ATLANTIC_CITY, name="Solo house table")  # one seat: listed after the shared ones
    shared = [make_table(RuleProfile.INTERNET_7, name=f"Shared {n}") for n in range(6)]
    return [*shared, solo]


def test_it_lists_the_open_tables_page_by_page_shared_tables_first(client, alice, seven_tables):
    client.force_login(alice)
    client.post(reverse("play_solo"))
    pages = [client.get(reverse("lobby") + (f"?page={n}" if n > 1 else "")).content.decode() for n in (1, 2, 3)]
    assert [listed_ids(html) for html in pages] == [
        [t.pk for t in seven_tables[0:3]], [t.pk for t in seven_tables[3:6]], [seven_tables[6].pk]
    ]
    assert 'href="/tables/?page=2" ' in pages[0] and "Previous page" not in pages[0]
    assert 'href="/tables/?page=3" ' in pages[1] and 'href="/tables/" ' in pages[1]
    assert "Next page" not in pages[2] and "Page 3" in pages[2]
    # "Your tables" is on every page.
    assert all('<section id="your-tables"' in html and "alice&#x27;s solo table" in html for html in pages)


def test_the_poll_keeps_the_page_and_the_filter(client, alice, seven_tables):
    html = client.get(reverse("lobby") + "?profile=internet-7&page=2").content.decode()
    poll = poll_url(html)
    assert "profile=internet-7" in poll and "page=2" in poll
    response = client.get(poll.replace(re.search(r"seen=\w+", poll).group(0), "seen=old"), headers=HTMX)
    assert response.status_code == 200
    assert listed_ids(response.content.decode()) == [t.pk for t in seven_tables[3:6]]
    assert client.get(poll, headers=HTMX).status_code == 204  # nothing changed on that page


@pytest.mark.parametrize(
    ("page", "shown"),
    [("abc", 1), ("0", 1), ("-1", 1), ("", 1), ("2.5", 1), ("²", 1), ("99999999999999999999999", 1), ("999", 3), ("4", 3)],
)
def test_a_page_that_is_not_one_is_clamped_never_an_error(client, seven_tables, page, shown):
    response = client.get(reverse("lobby"), {"page": page})
    assert response.status_code == 200
    assert f"Page {shown}</span>" in response.content.decode()
    fragment = client.get(reverse("lobby"), {"page": page}, headers=HTMX)
    assert fragment.status_code == 200


def test_a_filter_change_starts_again_at_page_1(client, seven_tables):
    html = client.get(reverse("lobby") + "?page=2").content.decode()
    form = re.search(r'<form id="lobby-filters".*?</form>', html, re.DOTALL).group(0)
    assert 'name="page"' not in form

def test_each_table_shows_its_exact_house_edge_with_basic_strategy(client):
    six = make_table(RuleProfile.INTERNET_6, name="Six Shooter")
    rocket = make_table(RuleProfile.ROCKET_ACADEMY, name="Launch pad")
    html = client.get(reverse("lobby")).content.decode()
    assert "House edge 0.41 % with basic strategy" in text_of(card(html, six))
    assert "House edge -0.27 % with basic strategy (the player is ahead)" in text_of(card(html, rocket))
