import pytest
from django.urls import reverse

from tables.play import lobby, services
from tests.tables.conftest import open_next_window

pytestmark = pytest.mark.django_db


def test_it_renders_the_table_on_the_server_with_its_live_socket(client, multi_table):
    response = client.get(reverse("table", args=[multi_table.pk]))
    assert response.status_code == 200
    text = response.content.decode()
    assert f'ws-connect="/ws/tables/{multi_table.pk}/"' in text
    assert 'hx-ext="ws"' in text
    assert "hx-ws-2.js" in text  # htmx 2's extension, served by django-htmx, no CDN
    for piece in ('id="dealer"', 'id="seat-1"', 'id="seat-5"', 'id="controls"', 'id="log"', 'aria-live="polite"'):
        assert piece in text


def test_a_signed_in_player_sees_sit_here_with_a_buy_in(client, alice, multi_table):
    client.force_login(alice)
    text = client.get(reverse("table", args=[multi_table.pk])).content.decode()
    assert text.count(">Sit here<") == 5
    assert 'name="buy_in" value="100"' in text


def test_the_hole_card_is_not_in_the_page(client, alice, multi_table, rig):
    rig(["TS", "9H", "9C", "QC"])
    services.do_sit(multi_table.pk, alice, 1)
    open_next_window(multi_table)
    multi_table.refresh_from_db()
    services.do_act(multi_table.pk, alice, "bet", seat=1, amount=10, version=multi_table.version)
    client.force_login(alice)
    text = client.get(reverse("table", args=[multi_table.pk])).content.decode()
    assert 'data-card="hidden"' in text
    assert 'data-card="QC"' not in text and "queen" not in text
    assert ">Stand<" in text


def test_only_the_owner_sees_a_private_table(client, alice, bob):
    table = lobby.solo_table_for(alice)
    client.force_login(bob)
    assert client.get(reverse("table", args=[table.pk])).status_code == 404
    client.force_login(alice)
    assert client.get(reverse("table", args=[table.pk])).status_code == 200


def test_it_is_404_for_a_table_that_does_not_exist(client):
    assert client.get(reverse("table", args=[999])).status_code == 404


def test_the_last_rounds_of_a_table_are_one_click_away(client, alice, rig):
    table = lobby.solo_table_for(alice)
    rig(["TS", "9H", "9C", "8D"])
    services.do_sit(table.pk, alice, 1)
    table.refresh_from_db()
    services.do_act(table.pk, alice, "bet", seat=1, amount=10, version=table.version)
    table.refresh_from_db()
    services.do_act(table.pk, alice, "stand", seat=1, version=table.version)
    client.force_login(alice)
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert reverse("table_rounds", args=[table.pk]) in page


def test_its_rules_show_the_house_edge_and_link_the_strategy_chart(client, multi_table):
    html = client.get(reverse("table", args=[multi_table.pk])).content.decode()
    rules = html.split('<details class="rules">', 1)[1].split("</details>", 1)[0]
    assert "House edge 0.49 % with basic strategy" in rules
    assert f'href="{reverse("strategy", args=[multi_table.profile])}"' in rules
