import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import LimitChange, PlayLimits

pytestmark = pytest.mark.django_db


def test_it_needs_a_signed_in_player(client):
    assert client.get(reverse("limits")).status_code == 302


def test_it_is_linked_from_the_profile_and_the_menu(client, alice):
    client.force_login(alice)
    page = client.get(reverse("profile")).content.decode()
    assert page.count('href="/accounts/limits/"') == 2


def test_it_lowers_a_limit_at_once_and_shows_its_use(client, alice):
    client.force_login(alice)
    response = client.post(reverse("limits"), {"loss_day": "100", "reality_check_minutes": "30"}, follow=True)
    page = response.content.decode()
    assert "Loss limit per day: 100 chips, in effect now." in page
    assert "Reality check: 30 minutes, in effect now." in page
    assert (PlayLimits.objects.get(user=alice).loss_day, PlayLimits.objects.get(user=alice).reality_check_minutes) == (100, 30)
    assert 'id="usage-loss_day"' in page and "100 chips" in page


def test_a_raise_is_pending_then_confirmed(client, alice):
    client.force_login(alice)
    client.post(reverse("limits"), {"loss_day": "100"})
    page = client.post(reverse("limits"), {"loss_day": ""}, follow=True).content.decode()
    assert "Loss limit per day: no limit: a looser limit waits 24 hours." in page
    change = LimitChange.objects.get(status="pending")
    assert f'id="pending-{change.pk}"' in page
    assert 'value="confirm"' not in page
    LimitChange.objects.filter(pk=change.pk).update(applies_at=timezone.now() - dt.timedelta(minutes=1))
    page = client.get(reverse("limits")).content.decode()
    assert 'value="confirm"' in page
    client.post(reverse("limits"), {"action": "confirm", "change": str(change.pk)})
    assert PlayLimits.objects.get(user=alice).loss_day is None


def test_it_refuses_bad_input_and_changes_nothing(client, alice):
    client.force_login(alice)
    response = client.post(reverse("limits"), {"loss_day": "-5", "reality_check_minutes": "20"})
    assert response.status_code == 200
    assert not LimitChange.objects.exists()
    page = client.post(reverse("limits"), {"action": "confirm", "change": "x"}, follow=True).content.decode()
    assert "no longer pending" in page
