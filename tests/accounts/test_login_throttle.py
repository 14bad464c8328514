import pytest
from django.test import override_settings
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def attempt(client, password: str, address: str = "10.0.0.1", **headers):
    return client.post(
        reverse("login"), {"username": "alice", "password": password}, REMOTE_ADDR=address, **headers
    )


def test_it_locks_a_username_out_of_an_address_after_five_wrong_passwords(client, alice):
    for _ in range(4):
        assert b"Please enter a correct username and password" in attempt(client, "wrong").content
    locked = attempt(client, "wrong")
    assert locked.status_code == 429
    assert b"Too many sign-in attempts" in locked.content
    # Even the right password is refused until the cool-off ends.
    assert attempt(client, PASSWORD).status_code == 429
    assert "_auth_user_id" not in client.session


def test_another_address_can_still_sign_in(client, alice):
    for _ in range(5):
        attempt(client, "wrong")
    response = attempt(client, PASSWORD, address="10.0.0.2")
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_a_success_resets_the_count(client, alice):
    for _ in range(4):
        attempt(client, "wrong")
    assert attempt(client, PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        assert attempt(client, "wrong").status_code == 200


@override_settings(BEHIND_TLS_PROXY=True)
def test_behind_the_proxy_it_counts_the_address_nginx_saw(client, alice):
    for n in range(5):
        attempt(client, "wrong", address="127.0.0.1", HTTP_X_REAL_IP="203.0.113.7")
    # Another player behind the same proxy is not locked out of their own account.
    assert attempt(client, PASSWORD, address="127.0.0.1", HTTP_X_REAL_IP="198.51.100.9").status_code == 302
