import pytest
from django.urls import reverse

from accounts.models import Pause
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_it_is_offered_on_the_limits_page(client, alice):
    client.force_login(alice)
    page = client.get(reverse("limits")).content.decode()
    assert 'action="/accounts/break/"' in page and "Self-exclusion for 5 years" in page


def test_it_logs_the_player_out_at_once(client, alice):
    client.force_login(alice)
    response = client.post(reverse("take_break"), {"length": "break-7d", "password": PASSWORD}, follow=True)
    assert "Break until" in response.content.decode()
    assert "_auth_user_id" not in client.session
    assert Pause.objects.get().user == alice


def test_a_wrong_password_changes_nothing(client, alice):
    client.force_login(alice)
    response = client.post(reverse("take_break"), {"length": "break-7d", "password": "nope"}, follow=True)
    assert "That is not your password" in response.content.decode()
    assert "_auth_user_id" in client.session
    assert not Pause.objects.exists()
    response = client.post(reverse("take_break"), {"length": ""}, follow=True)
    assert "Choose how long" in response.content.decode()
