import pytest
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_it_signs_in_with_the_right_password(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_it_refuses_a_wrong_password_with_a_message(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": "wrong password"})
    assert response.status_code == 200
    assert b"Please enter a correct username and password" in response.content
    assert "_auth_user_id" not in client.session


def test_it_follows_next_after_login(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD, "next": "/accounts/profile/"})
    assert response["Location"] == "/accounts/profile/"


def test_it_shows_the_bankroll_on_every_page_once_signed_in(client, alice):
    client.force_login(alice)
    for url in (reverse("home"), reverse("profile"), reverse("password_change")):
        html = client.get(url).content
        assert b'<strong id="bankroll">1,000</strong>' in html, url
        assert b'<strong id="at-tables">0</strong>' in html, url


def test_it_shows_no_bankroll_to_anonymous_visitors(client):
    assert b'id="bankroll"' not in client.get(reverse("home")).content
