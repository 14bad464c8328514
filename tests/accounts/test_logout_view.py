import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_it_signs_out_on_post(client, alice):
    client.force_login(alice)
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_it_does_not_sign_out_on_get(client, alice):
    client.force_login(alice)
    response = client.get(reverse("logout"))
    assert response.status_code == 405
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_it_needs_the_csrf_token(alice):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    response = client.post(reverse("logout"))
    assert response.status_code == 403
    assert client.session["_auth_user_id"] == str(alice.pk)
