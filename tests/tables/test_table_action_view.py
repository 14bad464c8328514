"""The table's buttons as plain form posts: the page works before (or without) its websocket."""

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import Seat
from tables.play import lobby, rounds

pytestmark = pytest.mark.django_db


def test_it_sits_the_player_down_and_returns_to_the_table(client, alice, multi_table):
    client.force_login(alice)
    url = reverse("table_action", args=[multi_table.pk])
    response = client.post(url, {"action": "sit", "seat": "2", "buy_in": "150", "version": "0"})
    assert response.status_code == 302
    assert response["Location"] == reverse("table", args=[multi_table.pk])
    seat = Seat.objects.get(table=multi_table, number=2)
    assert (seat.player, seat.account.balance) == (alice, 150)


def test_it_plays_an_action(client, alice, rig):
    rig(["TS", "9H", "9C", "8D"])
    table = lobby.solo_table_for(alice)
    client.force_login(alice)
    url = reverse("table_action", args=[table.pk])
    client.post(url, {"action": "sit", "seat": "1"})
    table.refresh_from_db()
    client.post(url, {"action": "bet", "seat": "1", "amount": "10", "version": str(table.version)})
    table.refresh_from_db()
    assert rounds.load(table.current_round).to_act() == (1, 0)


def test_a_refused_action_comes_back_as_a_message(client, alice, multi_table):
    client.force_login(alice)
    url = reverse("table_action", args=[multi_table.pk])
    response = client.post(url, {"action": "bet", "seat": "1", "amount": "10", "version": "0"}, follow=True)
    assert "That is not your seat." in response.content.decode()


def test_it_needs_the_csrf_token(alice, multi_table):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    response = client.post(reverse("table_action", args=[multi_table.pk]), {"action": "sit", "seat": "1"})
    assert response.status_code == 403
    assert Seat.objects.filter(player=alice).count() == 0


def test_anonymous_visitors_are_told_to_sign_in(client, multi_table):
    response = client.post(reverse("table_action", args=[multi_table.pk]), {"action": "sit", "seat": "1"}, follow=True)
    assert "Sign in to play." in response.content.decode()


def test_the_full_page_forms_post_here_with_a_csrf_token(client, alice, multi_table):
    client.force_login(alice)
    text = client.get(reverse("table", args=[multi_table.pk])).content.decode()
    assert f'action="{reverse("table_action", args=[multi_table.pk])}"' in text
    assert 'name="csrfmiddlewaretoken"' in text
