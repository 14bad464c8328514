import pytest
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a brand new passphrase 42"


def test_it_needs_a_signed_in_player(client):
    response = client.get(reverse("password_change"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_it_changes_the_password(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("password_change_done")
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)


def test_it_refuses_a_wrong_old_password(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("password_change"),
        {"old_password": "not it", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 200
    assert b"Your old password was entered incorrectly" in response.content
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_it_refuses_a_weak_new_password(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("password_change"), {"old_password": PASSWORD, "new_password1": "abc", "new_password2": "abc"}
    )
    assert response.status_code == 200
    assert b"This password is too short" in response.content
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)
