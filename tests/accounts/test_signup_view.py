import pytest
from django.urls import reverse

from accounts.models import AccountKind, LedgerAccount, Transfer, TransferKind, User
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
