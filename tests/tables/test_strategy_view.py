"""/tables/strategy/<profile>/: a profile's basic-strategy chart, from the engine's, with its exact house edge."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tables.engine import PROFILES
from tables.engine.strategy import chart_for
from tables.models import RuleProfile

pytestmark = pytest.mark.django_db


def cells(html: str, caption: str, label: str) -> list[str]:
    table = re.search(rf"<caption[^>]*>{re.escape(caption)}.*?</table>", html, re.S).group(0)
    row = re.search(rf'<th scope="row">{re.escape(label)}</th>(.*?)</tr>', table, re.S).group(1)
    return re.findall(r"<td[^>]*>([^<]+)</td>", row)


def test_it_shows_every_profile_with_its_edge(client):
    for slug in RuleProfile.values:
        response = client.get(reverse("strategy", args=[slug]))
        assert response.status_code == 200
        assert "with basic strategy" in response.content.decode()


def test_it_draws_the_engines_chart(client):
    html = client.get(reverse("strategy", args=["internet-6"])).content.decode()
    chart = chart_for(PROFILES["internet-6"])
    assert cells(html, "Hard totals", "12") == list(chart.hard[12]) == ["H", "H", "S", "S", "S", "H", "H", "H", "H", "H"]
    assert cells(html, "Soft totals", "A,7") == list(chart.soft[18])
    assert cells(html, "Pairs", "8,8") == ["P"] * 10
    assert "House edge 0.41 % with basic strategy" in html


def test_it_plays_a_surrender_code_as_its_fallback_where_there_is_no_surrender(client):
    assert chart_for(PROFILES["atlantic-city"]).hard[16][-3:] == ("Rh", "Rh", "Rh")
    html = client.get(reverse("strategy", args=["atlantic-city"])).content.decode()
    assert cells(html, "Hard totals", "16")[-3:] == ["H", "H", "H"]
    assert "Surrender" not in html.split("Key", 1)[1].split("</dl>")[0]


def test_it_says_when_the_player_is_ahead(client):
    html = client.get(reverse("strategy", args=["rocket-academy"])).content.decode()
    assert "House edge -0.27 % with basic strategy (the player is ahead)" in html
    assert cells(html, "Pairs", "7,7")[8] == "Rs"
    assert cells(html, "Hard totals", "16") == ["S"] * 5 + ["H", "H", "H", "Rh", "Rh"]


def test_it_is_a_404_for_an_unknown_profile(client):
    assert client.get(reverse("strategy", args=["vegas"])).status_code == 404
