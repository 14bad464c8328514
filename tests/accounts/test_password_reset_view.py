import re

import pytest
from django.core import mail
from django.urls import reverse

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "another fine passphrase 7"


def test_it_mails_a_link_that_sets_a_new_password(client, alice):
    response = client.post(reverse("password_reset"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/accounts/password/reset/\S+/)", mail.outbox[0].body).group(1)
    # The first visit swaps the token for a session key and redirects.
    form_url = client.get(link)["Location"]
    response = client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_complete")
    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)


def test_it_says_the_same_for_an_unknown_address_and_sends_nothing(client, alice):
    response = client.post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert response.status_code == 302
    assert mail.outbox == []


def test_it_refuses_a_forged_link(client, alice):
    response = client.get(reverse("password_reset_confirm", kwargs={"uidb64": "MQ", "token": "bad-token"}))
    assert response.status_code == 200
    assert b"This link has expired or was already used" in response.content
