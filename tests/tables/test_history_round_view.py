"""/history/<round id>/: one of the player's rounds, replayed step by step on the server."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from tables.models import Round, RuleProfile, Shoe, Table
from tables.play import services
from tests.tables.conftest import make_table, open_next_window

pytestmark = pytest.mark.django_db

SPLIT_AND_DOUBLE = ["8S", "6H", "8C", "TD", "3H", "TC", "TS", "9D"]


def act(table, user, action, seat=1, **fields):
    table.refresh_from_db()
    services.do_act(table.pk, user, action, seat=seat, version=table.version, **fields)


def play_split_and_double(table, player, rig) -> Round:
    # 8 8 splits; hand 1: 3 then doubles onto T (21); hand 2: T (18), stands; dealer 6, T in the hole, 9: bust.
    rig(SPLIT_AND_DOUBLE)
    services.do_sit(table.pk, player, 1)
    act(table, player, "bet", amount=10)
    act(table, player, "split")
    act(table, player, "double", hand=0)
    act(table, player, "stand", hand=1)
    return Table.objects.get(pk=table.pk).current_round


def url(round_row: Round, **params) -> str:
    query = "&".join(f"{k}={v}" for k, v in params.items())
    return reverse("history_round", args=[round_row.pk]) + (f"?{query}" if query else "")


def step_of(response) -> int:
    return int(re.search(r'data-step="(\d+)"', response.content.decode()).group(1))


def dealer_cards(response) -> list[str]:
    dealer = re.search(r'<section class="dealer".*?</section>', response.content.decode(), re.S).group(0)
    return re.findall(r'data-card="([^"]+)"', dealer)


def test_a_visitor_is_sent_to_sign_in(client, alice, solo_table, rig):
    round_row = play_split_and_double(solo_table, alice, rig)
    response = client.get(url(round_row))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_another_players_round_is_a_404(client, alice, bob, solo_table, rig):
    round_row = play_split_and_double(solo_table, alice, rig)
    client.force_login(bob)
    assert client.get(url(round_row)).status_code == 404
    assert client.get(url(round_row, step=3)).status_code == 404
    client.force_login(alice)
    assert client.get(url(round_row)).status_code == 200


def test_a_round_that_does_not_exist_or_is_not_settled_is_a_404(client, alice, solo_table, rig):
    rig(["TS", "9H", "9C", "8D"])
    services.do_sit(solo_table.pk, alice, 1)
    act(solo_table, alice, "bet", amount=10)  # the round is on: nothing to replay yet
    in_play = Table.objects.get(pk=solo_table.pk).current_round
    client.force_login(alice)
    assert client.get(url(in_play)).status_code == 404
    assert client.get(reverse("history_round", args=[in_play.pk + 100])).status_code == 404


def test_a_seat_that_passed_has_no_replay_of_that_round(client, alice, bob, rig):
    table = make_table(RuleProfile.ATLANTIC_CITY_MULTI)
    rig(["TS", "9H", "9C", "8D"])
    services.do_sit(table.pk, alice, 1)
    services.do_sit(table.pk, bob, 2)
    open_next_window(table)
    act(table, bob, "pass", seat=2)
    act(table, alice, "bet", amount=10)
    act(table, alice, "stand")
    round_row = Table.objects.get(pk=table.pk).current_round
    client.force_login(bob)
    assert client.get(url(round_row)).status_code == 404


def test_it_opens_at_the_first_step_with_next_as_a_link_and_htmx(client, alice, solo_table, rig):
    round_row = play_split_and_double(solo_table, alice, rig)
    client.force_login(alice)
    response = client.get(url(round_row))
    text = response.content.decode()
    assert step_of(response) == 0
    assert "The round opens: place your bets." in text
    assert 'href="?step=1" hx-get="?step=1" hx-target="#replay" hx-swap="outerHTML" hx-push-url="true" rel="next"' in text
    assert 'rel="prev"' not in text  # nothing before the first step
    last = len(round_row.state["events"])
    assert f'<input type="range" id="step-slider" name="step" min="0" max="{last}" step="1" value="0">' in text
    assert f'action="{url(round_row)}"' in text  # the slider's form works without JavaScript


def test_each_step_shows_the_table_as_it_stood(client, alice, solo_table, rig):
    round_row = play_split_and_double(solo_table, alice, rig)
    events = round_row.state["events"]
    split_step = next(n for n, e in enumerate(events, start=1) if e["kind"] == "split")
    client.force_login(alice)
    response = client.get(url(round_row, step=split_step))
    text = response.content.decode()
    assert step_of(response) == split_step
    assert "<strong>alice splits.</strong>" in text
    seat = re.search(r'<article class="seat mine turn" data-seat="1".*?</article>', text, re.S).group(0)
    assert re.findall(r'data-card="([^"]+)"', seat) == ["8S", "8C"]
    assert "Stack <strong data-stack>80</strong>" in seat
    assert f'href="?step={split_step - 1}"' in text and f'href="?step={split_step + 1}"' in text
    # The log so far, ending at this step.
    log = re.search(r'<section class="log replay-log".*?</section>', text, re.S).group(0)
    assert log.count("<li>") == split_step
    assert '<strong aria-current="step">alice splits.</strong>' in log


def test_the_last_step_shows_the_doubled_split_hands_and_their_results(client, alice, solo_table, rig):
    round_row = play_split_and_double(solo_table, alice, rig)
    client.force_login(alice)
    response = client.get(url(round_row, step=999))  # past the end: the last step
    text = response.content.decode()
    assert step_of(response) == len(round_row.state["events"])
    assert dealer_cards(response) == ["6H", "TD", "9D"]
    # Each hand's outcome with the chips it won.
    assert "21 · bet 20 <span class=\"outcome win\">Win +20</span>" in text
    assert "18 · bet 10 <span class=\"outcome win\">Win +10</span>" in text
    assert "Stack <strong data-stack>130</strong>" in text
    assert 'rel="next"' not in text


def test_the_hole_card_is_never_in_the_page_before_its_reveal(client, alice, solo_table, rig):
    round_row = play_split_and_double(solo_table, alice, rig)
    events = round_row.state["events"]
    reveal = next(n for n, e in enumerate(events, start=1) if e["kind"] == "hole_card_revealed")
    client.force_login(alice)
    for step in range(reveal):
        text = client.get(url(round_row, step=step)).content.decode()
        text = re.sub(r"csrf[^\n]*", "", text, flags=re.I)  # a random token may spell "TD"
        assert "TD" not in text and "ten of diamonds" not in text, step
    hidden = client.get(url(round_row, step=reveal - 1))
    assert dealer_cards(hidden) == ["6H", "hidden"]
    shown = client.get(url(round_row, step=reveal))
    assert dealer_cards(shown) == ["6H", "TD"]
    assert "Dealer turns the hole card: ten of diamonds." in shown.content.decode()


def test_an_insurance_round_shows_the_insurance_and_its_payout(client, alice, solo_table, rig):
    rig(["9S", "AH", "7C", "KD"])
    services.do_sit(solo_table.pk, alice, 1)
    act(solo_table, alice, "bet", amount=10)
    act(solo_table, alice, "insurance")
    round_row = Table.objects.get(pk=solo_table.pk).current_round
    taken = next(n for n, e in enumerate(round_row.state["events"], start=1) if e["kind"] == "insurance_taken")
    client.force_login(alice)
    response = client.get(url(round_row, step=taken))
    text = response.content.decode()
    assert '<p class="bet">Bet 10</p><p class="ins">Insurance 5</p>' in text
    assert "<strong>alice takes insurance for 5.</strong> <span class=\"help\">by the player" in text
    assert dealer_cards(response) == ["AH", "hidden"]
    last = client.get(url(round_row, step=99)).content.decode()
    assert "alice&#x27;s insurance pays 15." in last
    # The dealer's blackjack is called one, on the dealer and on the hand it beat.
    assert '<span class="outcome lose">Dealer blackjack -10</span>' in last
    assert '<span class="total bj">Blackjack</span>' in last


def test_a_surrender_round_shows_half_the_bet_back(client, alice, rig):
    table = make_table(RuleProfile.ROCKET_ACADEMY)
    rig(["TS", "9H", "6C", "8D"])
    services.do_sit(table.pk, alice, 1)
    open_next_window(table)
    act(table, alice, "bet", amount=11)
    act(table, alice, "surrender")
    round_row = Table.objects.get(pk=table.pk).current_round
    client.force_login(alice)
    last = client.get(url(round_row, step=99)).content.decode()
    assert "alice surrenders." in last
    assert '<span class="outcome surrender">Surrender -6</span>' in last
    assert "Stack <strong data-stack>94</strong>" in last


def test_an_htmx_step_is_only_the_replay_fragment(client, alice, solo_table, rig):
    round_row = play_split_and_double(solo_table, alice, rig)
    client.force_login(alice)
    response = client.get(url(round_row, step=2), headers={"HX-Request": "true"})
    text = response.content.decode()
    assert text.lstrip().startswith('<section id="replay"')
    assert "<html" not in text
    assert step_of(response) == 2
    assert "HX-Request" in response["Vary"]
    # Screen readers hear the new step through the live region outside the swapped part.
    caption = re.search(r"<strong>(.*?)</strong> <span", text).group(1)
    assert f'<div id="replay-announce" class="visually-hidden" aria-live="polite" hx-swap-oob="true">Step 2: {caption}</div>' in text
    full = client.get(url(round_row, step=2)).content.decode()
    assert full.count('id="replay-announce"') == 1 and "hx-swap-oob" not in full


def test_a_step_that_is_not_a_number_opens_the_first(client, alice, solo_table, rig):
    round_row = play_split_and_double(solo_table, alice, rig)
    client.force_login(alice)
    assert step_of(client.get(url(round_row, step="two"))) == 0
    assert step_of(client.get(url(round_row, step=-4))) == 0


def test_the_seed_shows_only_once_the_shoe_is_retired(client, alice, solo_table, rig):
    round_row = play_split_and_double(solo_table, alice, rig)
    Shoe.objects.filter(pk=round_row.shoe_id).update(seed="ab" * 32, retired_at=None)
    client.force_login(alice)
    text = client.get(url(round_row)).content.decode()
    assert "ab" * 32 not in text
    assert round_row.shoe.commitment in text
    assert "The seed stays secret while the shoe is in use." in text
    Shoe.objects.filter(pk=round_row.shoe_id).update(retired_at=timezone.now())
    assert f"<code data-seed>{'ab' * 32}</code>" in client.get(url(round_row)).content.decode()


def test_both_players_of_a_shared_round_replay_it_with_each_others_names(client, alice, bob, rig):
    table = make_table(RuleProfile.ATLANTIC_CITY_MULTI, name="<b>Boardwalk</b>")
    rig(["TS", "5C", "9H", "9C", "6D", "8D", "TH"])
    services.do_sit(table.pk, alice, 1)
    services.do_sit(table.pk, bob, 2)
    open_next_window(table)
    act(table, alice, "bet", amount=10)
    act(table, bob, "bet", seat=2, amount=20)
    act(table, alice, "stand")
    act(table, bob, "stand", seat=2)
    round_row = Table.objects.get(pk=table.pk).current_round
    for viewer, mine, theirs in ((alice, 1, "bob"), (bob, 2, "alice")):
        client.force_login(viewer)
        text = client.get(url(round_row, step=99)).content.decode()
        assert re.search(rf'<article class="seat mine[^"]*" data-seat="{mine}"', text)
        assert f'<span class="player">{theirs}</span>' in text
        assert "&lt;b&gt;Boardwalk&lt;/b&gt;" in text and "<b>Boardwalk</b>" not in text


def test_the_last_rounds_of_a_table_link_the_viewers_rounds_to_their_replay(client, alice, bob, rig):
    table = make_table(RuleProfile.ATLANTIC_CITY_MULTI)
    # Round 1: alice alone. Round 2: bob alone (alice passes).
    rig(["TS", "9H", "9C", "8D", "TC", "9S", "9D", "8H"])
    services.do_sit(table.pk, alice, 1)
    services.do_sit(table.pk, bob, 2)
    open_next_window(table)
    act(table, bob, "pass", seat=2)
    act(table, alice, "bet", amount=10)
    act(table, alice, "stand")
    alices = Table.objects.get(pk=table.pk).current_round
    open_next_window(table)
    act(table, alice, "pass")
    act(table, bob, "bet", seat=2, amount=10)
    act(table, bob, "stand", seat=2)
    bobs = Table.objects.get(pk=table.pk).current_round
    assert alices.pk != bobs.pk
    client.force_login(alice)
    text = client.get(reverse("table_rounds", args=[table.pk])).content.decode()
    assert f'href="{reverse("history_round", args=[alices.pk])}"' in text
    assert reverse("history_round", args=[bobs.pk]) not in text
    # Watchers see the list without links.
    client.logout()
    text = client.get(reverse("table_rounds", args=[table.pk])).content.decode()
    assert reverse("history_round", args=[alices.pk]) not in text
    assert "Round" in text


def test_the_replay_takes_a_pinned_number_of_queries(client, alice, solo_table, rig, django_assert_num_queries):
    round_row = play_split_and_double(solo_table, alice, rig)
    client.force_login(alice)
    # The session, the user, the round's players, the round with its table and shoe, the bankroll.
    with django_assert_num_queries(5):
        client.get(url(round_row, step=3))


def test_each_decision_step_shows_its_review_once_the_round_is_reviewed(client, alice, solo_table, rig):
    from tables.play.reviews import review_round

    round_row = play_split_and_double(solo_table, alice, rig)
    client.force_login(alice)
    before = client.get(url(round_row)).content.decode()
    assert "Not reviewed yet" in before
    review_round(round_row.pk)
    split_step = next(n for n, e in enumerate(round_row.state["events"], start=1) if e["kind"] == "split")
    html = client.get(url(round_row, step=split_step)).content.decode()
    line = re.search(r'<p class="review[^"]*" data-review="split">(.*?)</p>', html, re.S).group(1)
    assert re.search(r"Best: Split \(-?\d\.\d{3}\) · You: Split \(-?\d\.\d{3}\) · the best play", line)
    # Every decision of the round, each linking to its step.
    review = re.search(r'<section class="panel" id="review".*?</section>', html, re.S).group(0)
    assert f'href="?step={split_step}"' in review and review.count("<li") == 3
    assert client.get(url(round_row, step=split_step - 1)).content.decode().count('data-review="') == 0
