"""Issue 14: breaks and self-exclusion, as services: at once, confirmed by the password, until they end."""

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import pauses
from accounts.models import Pause, User
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_it_needs_the_password_and_changes_nothing_without_it(alice):
    with pytest.raises(pauses.PauseRefused, match="not your password"):
        pauses.do_take_pause(alice, "break-24h", "guess")
    with pytest.raises(pauses.PauseRefused, match="how long"):
        pauses.do_take_pause(alice, "forever", PASSWORD)
    assert not Pause.objects.exists()
    assert User.objects.get(pk=alice.pk).paused_until is None


@pytest.mark.parametrize(
    ("length", "kind", "days"),
    [("break-24h", "break", 1), ("break-7d", "break", 7), ("break-30d", "break", 30),
     ("exclusion-6m", "self_exclusion", 183), ("exclusion-1y", "self_exclusion", 365), ("exclusion-5y", "self_exclusion", 1826)],
)
def test_it_records_the_pause_with_its_time_and_who(alice, length, kind, days):
    pause = pauses.do_take_pause(alice, length, PASSWORD, by=alice)
    assert (pause.kind, pause.created_by, (pause.ends_at - pause.starts_at).days) == (kind, alice, days)
    assert User.objects.get(pk=alice.pk).paused_until == pause.ends_at


def test_a_shorter_pause_does_not_shorten_a_longer_one(alice):
    long = pauses.do_take_pause(alice, "break-30d", PASSWORD)
    pauses.do_take_pause(alice, "break-24h", PASSWORD)
    assert User.objects.get(pk=alice.pk).paused_until == long.ends_at


def test_log_in_is_refused_with_the_end_date_until_it_ends(alice):
    pause = pauses.do_take_pause(alice, "break-7d", PASSWORD)
    client = Client()
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 200
    ends = timezone.localtime(pause.ends_at)
    assert f"You are taking a break from the casino until {ends:%Y-%m-%d %H:%M}" in response.content.decode()
    assert "_auth_user_id" not in client.session
    # Over: the player logs in again.
    User.objects.filter(pk=alice.pk).update(paused_until=timezone.now() - dt.timedelta(seconds=1))
    assert client.post(reverse("login"), {"username": "alice", "password": PASSWORD}).status_code == 302


def test_every_session_of_the_player_ends(alice):
    phone = Client()
    phone.force_login(alice)
    assert phone.get(reverse("profile")).status_code == 200
    pauses.do_take_pause(alice, "break-24h", PASSWORD)
    assert phone.get(reverse("profile")).status_code == 302


def test_the_admin_shows_pauses_and_cannot_end_them(client, alice, carol):
    carol.is_staff = carol.is_superuser = True
    carol.save()
    pause = pauses.do_take_pause(alice, "exclusion-1y", PASSWORD)
    client.force_login(carol)
    assert client.get(reverse("admin:accounts_pause_changelist")).status_code == 200
    page = client.get(reverse("admin:accounts_pause_change", args=[pause.pk])).content.decode()
    assert 'name="ends_at"' not in page
    assert client.post(reverse("admin:accounts_pause_delete", args=[pause.pk]), {"post": "yes"}).status_code == 403
    user_page = client.get(reverse("admin:accounts_user_change", args=[alice.pk])).content.decode()
    assert 'name="paused_until"' not in user_page
    assert Pause.objects.filter(pk=pause.pk).exists()
