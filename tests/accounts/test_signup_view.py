import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import AccountKind, LedgerAccount, Signup, Transfer, TransferKind, User
from accounts.services import create_player
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def sign_up(client, username="alice", password1=PASSWORD, password2=PASSWORD, **extra):
    return client.post(
        reverse("signup"), {"username": username, "password1": password1, "password2": password2, **extra}
    )


def test_it_shows_the_form(client):
    response = client.get(reverse("signup"))
    assert response.status_code == 200
    assert b'name="username"' in response.content
    assert b'name="password1"' in response.content
    assert b'name="password2"' in response.content


def test_it_creates_a_player_with_a_1000_chip_bankroll_signs_them_in_and_takes_them_to_the_tables(client):
    response = sign_up(client)
    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")
    alice = User.objects.get(username="alice")
    bankroll = LedgerAccount.objects.get(kind=AccountKind.BANKROLL, user=alice)
    assert bankroll.balance == 1000
    grant = Transfer.objects.get(destination=bankroll)
    assert (grant.kind, grant.amount, grant.source.kind) == (TransferKind.SIGNUP_GRANT, 1000, AccountKind.GRANTS)
    lobby = client.get(response["Location"]).content.decode()
    assert 'id="bankroll">1,000<' in lobby
    assert "Welcome, alice! Here are 1,000 chips to play with." in lobby


def test_it_refuses_a_username_that_is_taken(client, alice):
    response = sign_up(client, username="alice")
    assert response.status_code == 200
    assert b"A user with that username already exists." in response.content
    assert User.objects.filter(username="alice").count() == 1
    assert Transfer.objects.count() == 1  # alice's own grant only


def test_it_refuses_a_weak_password(client):
    response = sign_up(client, password1="12345678", password2="12345678")
    assert response.status_code == 200
    assert b"This password is too common." in response.content
    assert not User.objects.filter(username="alice").exists()
    assert not Transfer.objects.exists()


def test_it_refuses_passwords_that_do_not_match(client):
    response = sign_up(client, password2=PASSWORD + "!")
    assert response.status_code == 200
    assert b"didn" in response.content and b"match" in response.content
    assert not User.objects.exists()


def test_it_escapes_html_in_a_rejected_username(client):
    response = sign_up(client, username="<script>x</script>")
    assert b"<script>x</script>" not in response.content


def test_it_sends_a_signed_in_player_to_the_tables(client, alice):
    client.force_login(alice)
    response = client.get(reverse("signup"))
    assert response.status_code == 302
    assert response["Location"] == reverse("lobby")


def test_it_hashes_the_password_before_taking_the_write_lock(client, monkeypatch):
    # On SQLite a transaction holds the database's only write lock: a fifth of
    # a second of hashing inside one would stall every table.
    from django.contrib.auth.hashers import PBKDF2PasswordHasher
    from django.db import connection

    depths = []
    original = PBKDF2PasswordHasher.encode

    def encode(self, password, salt, iterations=None):
        depths.append(len(connection.atomic_blocks))
        return original(self, password, salt, iterations)

    monkeypatch.setattr(PBKDF2PasswordHasher, "encode", encode)
    outside = len(connection.atomic_blocks)  # the test's own transaction
    assert sign_up(client).status_code == 302
    assert depths == [outside]


def test_it_refuses_a_username_taken_while_the_form_was_being_checked(client, monkeypatch, django_user_model):
    from accounts import views

    class Racing(views.SignupForm):
        def save(self, commit=True):
            # Another sign-up with the same name lands between the check and the save.
            create_player("alice", PASSWORD)
            return super().save(commit)

    monkeypatch.setattr(views, "SignupForm", Racing)
    response = sign_up(client)
    assert response.status_code == 200
    assert b"A user with that username already exists." in response.content
    assert User.objects.filter(username="alice").count() == 1
    assert Transfer.objects.count() == 1  # the racer's grant only


def sign_up_from(client, address: str, username: str):
    client.logout()
    return client.post(
        reverse("signup"),
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
        REMOTE_ADDR=address,
    )


def test_it_refuses_more_sign_ups_from_one_address_within_the_hour_with_a_429(client, settings):
    settings.SIGNUPS_PER_ADDRESS_PER_HOUR = 3
    for n in range(3):
        assert sign_up_from(client, "203.0.113.7", f"player{n}").status_code == 302
    response = sign_up_from(client, "203.0.113.7", "one_too_many")
    assert response.status_code == 429
    assert "Too many accounts were made from your address in the last hour" in response.content.decode()
    assert not User.objects.filter(username="one_too_many").exists()
    assert User.objects.count() == 3
    # Another address is not held back.
    assert sign_up_from(client, "198.51.100.1", "elsewhere").status_code == 302


def test_the_default_limit_is_5_an_hour_and_the_hour_passes(client):
    for n in range(5):
        assert sign_up_from(client, "203.0.113.7", f"player{n}").status_code == 302
    assert sign_up_from(client, "203.0.113.7", "sixth").status_code == 429
    Signup.objects.update(created_at=timezone.now() - dt.timedelta(minutes=61))
    assert sign_up_from(client, "203.0.113.7", "sixth").status_code == 302
    # The old rows of that address are gone; the new one counts.
    assert list(Signup.objects.values_list("address", flat=True)) == ["203.0.113.7"]


def test_a_forged_proxy_header_does_not_get_round_the_limit(client, settings):
    """The address is the login throttle's (accounts.throttle.client_address): a header from no proxy is ignored."""
    settings.SIGNUPS_PER_ADDRESS_PER_HOUR = 1
    settings.BEHIND_TLS_PROXY = False
    codes = []
    for n in range(2):
        client.logout()
        response = client.post(
            reverse("signup"),
            {"username": f"player{n}", "password1": PASSWORD, "password2": PASSWORD},
            REMOTE_ADDR="203.0.113.7",
            HTTP_X_REAL_IP=f"198.51.100.{n}",
        )
        codes.append(response.status_code)
    assert codes == [302, 429]
    assert list(Signup.objects.values_list("address", flat=True)) == ["203.0.113.7"]
