"""casino/proxies.py: the client's address and https, believed from TRUSTED_PROXIES only."""

import subprocess
import sys

import pytest
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from casino.proxies import ProxyHeadersMiddleware, client_address, scope_address


def request(peer: str, **headers):
    return RequestFactory().get("/", REMOTE_ADDR=peer, **headers)


def test_it_ignores_proxy_headers_from_an_untrusted_peer():
    assert client_address(request("203.0.113.5", HTTP_X_REAL_IP="1.2.3.4", HTTP_X_FORWARDED_FOR="5.6.7.8")) == (
        "203.0.113.5"
    )


@override_settings(TRUSTED_PROXIES=["127.0.0.1", "10.0.0.0/8"])
def test_it_takes_the_right_most_address_no_trusted_proxy_wrote():
    # The client wrote "6.6.6.6" itself; nginx appended the address it saw; an inner proxy (10.1.2.3) passed it on.
    forwarded = request("127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.4, 10.1.2.3")
    assert client_address(forwarded) == "198.51.100.4"
    assert client_address(request("10.0.0.7", HTTP_X_REAL_IP="198.51.100.5")) == "198.51.100.5"
    assert client_address(request("127.0.0.1", HTTP_X_FORWARDED_FOR="not-an-address")) == "127.0.0.1"
    assert client_address(request("127.0.0.1")) == "127.0.0.1"


@override_settings(TRUSTED_PROXIES=["127.0.0.1"])
def test_it_reads_a_websockets_scope_by_the_same_rule():
    headers = [(b"x-forwarded-for", b"198.51.100.4")]
    assert scope_address({"client": ["127.0.0.1", 5000], "headers": headers}) == "198.51.100.4"
    assert scope_address({"client": ["203.0.113.5", 5000], "headers": headers}) == "203.0.113.5"
    assert scope_address({"headers": headers}) is None


@override_settings(TRUSTED_PROXIES=["127.0.0.1"], SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"))
def test_it_believes_https_only_from_a_trusted_proxy():
    seen = {}

    def view(req):
        seen["secure"] = req.is_secure()
        return HttpResponse()

    middleware = ProxyHeadersMiddleware(view)
    middleware(request("203.0.113.5", HTTP_X_FORWARDED_PROTO="https"))
    assert seen["secure"] is False
    middleware(request("127.0.0.1", HTTP_X_FORWARDED_PROTO="https"))
    assert seen["secure"] is True


def settings_with(**env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; print(settings.TRUSTED_PROXIES)"],
        check=False,
        env={"DJANGO_SETTINGS_MODULE": "casino.settings", "PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
    )


@pytest.mark.parametrize("debug", ["true", "false"])
def test_it_trusts_no_proxy_by_default_whatever_debug_is(debug):
    result = settings_with(DEBUG=debug, SECRET_KEY="x" * 64)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_it_fails_loudly_on_the_old_setting_or_a_bad_address():
    old = settings_with(BEHIND_TLS_PROXY="true")
    assert old.returncode != 0
    assert "BEHIND_TLS_PROXY was replaced by TRUSTED_PROXIES" in old.stderr
    bad = settings_with(TRUSTED_PROXIES="127.0.0.1,nginx")
    assert bad.returncode != 0
    assert "TRUSTED_PROXIES has 'nginx', which is not an IP address or network" in bad.stderr
    good = settings_with(TRUSTED_PROXIES="127.0.0.1, 10.0.0.0/8, ::1")
    assert good.stdout.strip() == "['127.0.0.1', '10.0.0.0/8', '::1']"
