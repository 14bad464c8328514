import json
import subprocess
import sys

import pytest
from django.test import override_settings
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def attempt(client, password: str, address: str = "10.0.0.1", **headers):
    return client.post(
        reverse("login"), {"username": "alice", "password": password}, REMOTE_ADDR=address, **headers
    )


def production_settings(*names: str) -> dict:
    """The named settings as casino/settings.py makes them with DEBUG=false (those it defines)."""
    code = (
        "import json; from django.conf import settings; "
        f"print(json.dumps({{n: getattr(settings, n) for n in {list(names)!r} if hasattr(settings, n)}}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        check=False,
        env={
            "DJANGO_SETTINGS_MODULE": "casino.settings", "PATH": "/usr/bin:/bin", "DEBUG": "false",
            "SECRET_KEY": "x" * 64, "ALLOWED_HOSTS": "testserver",
        },
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


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


def test_in_production_settings_rotating_proxy_headers_from_an_untrusted_address_still_locks_out(client, alice):
    # The probe of issue 15: with DEBUG=false, X-Real-IP was believed from anyone who could reach daphne.
    production = production_settings("BEHIND_TLS_PROXY", "TRUSTED_PROXIES", "SECURE_PROXY_SSL_HEADER")
    production.pop("SECURE_PROXY_SSL_HEADER", None)  # a list in JSON; https plays no part here
    with override_settings(DEBUG=False, **production):
        for n in range(5):
            attempt(
                client, "wrong", address="203.0.113.5",
                HTTP_X_REAL_IP=f"198.51.100.{n}", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}",
            )
        locked = attempt(client, PASSWORD, address="203.0.113.5", HTTP_X_REAL_IP="198.51.100.99")
    assert locked.status_code == 429


@override_settings(TRUSTED_PROXIES=["127.0.0.1"])
def test_behind_a_trusted_proxy_it_counts_the_address_the_proxy_saw(client, alice):
    for _ in range(5):
        attempt(client, "wrong", address="127.0.0.1", HTTP_X_FORWARDED_FOR="10.9.9.9, 203.0.113.7")
    assert attempt(client, PASSWORD, address="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.7").status_code == 429
    # Another player behind the same proxy is not locked out of their own account.
    assert attempt(client, PASSWORD, address="127.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.9").status_code == 302
