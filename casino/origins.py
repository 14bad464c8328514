"""A websocket opens only from the site's own pages: its Origin must be the site's origin, scheme, host and port.

Channels' AllowedHostsOriginValidator compared the Origin's host with
ALLOWED_HOSTS only, so a page on http://localhost:<any port> or
https://127.0.0.1 could open a player's socket to http://127.0.0.1:8000
with their cookie (issue 15). Here the Origin must equal, scheme, host and
port alike (default ports filled in):

- the origin the socket was opened at: http or https (wss, or ws behind a
  trusted proxy that says X-Forwarded-Proto: https, casino/proxies.py), and
  the Host header, which must itself be in ALLOWED_HOSTS; a page served from
  there has exactly that Origin;
- or one of CSRF_TRUSTED_ORIGINS (exact origins): the origins trusted to post
  the site's forms may open its sockets too.

No Origin, or one that does not parse, is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host

from casino.proxies import is_trusted_proxy

DEFAULT_PORTS = {"http": 80, "https": 443}
Origin = tuple[str, str, int]


def parse_origin(text: str) -> Origin | None:
    """('https', 'example.com', 443) from 'https://example.com', or None if it is not an http(s) origin."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return None
    if parts.username or parts.password or parts.query or parts.fragment:
        return None
    return parts.scheme, parts.hostname.lower(), port if port is not None else DEFAULT_PORTS[parts.scheme]


def _headers(scope: Mapping) -> dict[str, str]:
    headers: dict[str, str] = {}
    for name, value in scope.get("headers") or ():
        headers.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
    return headers


def site_origin(scope: Mapping) -> Origin | None:
    """The origin of the page a browser opened this socket from, if it is one of the site's hosts."""
    headers = _headers(scope)
    host = headers.get("host", "")
    domain, _ = split_domain_port(host)
    if not domain or not validate_host(domain, settings.ALLOWED_HOSTS):
        return None
    secure = scope.get("scheme") == "wss"
    peer = (scope.get("client") or (None,))[0]
    if not secure and is_trusted_proxy(peer):
        secure = headers.get("x-forwarded-proto", "").strip().lower() == "https"
    return parse_origin(f"{'https' if secure else 'http'}://{host}")


def origin_allowed(scope: Mapping) -> bool:
    origin = parse_origin(_headers(scope).get("origin", ""))
    if origin is None:
        return False
    if origin == site_origin(scope):
        return True
    return origin in {parse_origin(trusted) for trusted in settings.CSRF_TRUSTED_ORIGINS}


class SameOriginValidator:
    """ASGI middleware in front of the websocket routes: a socket from any other origin is closed at once."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
