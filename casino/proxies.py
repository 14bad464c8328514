"""Who the client is: proxy headers are believed only from the proxies in TRUSTED_PROXIES.

A request's REMOTE_ADDR is whoever opened the connection to daphne. Behind
nginx that is nginx, and the client's address is in X-Forwarded-For (nginx's
`$proxy_add_x_forwarded_for`, docs/deploy.md) or X-Real-IP. Anyone who can
reach daphne directly can send those headers too, so they count only when
REMOTE_ADDR is one of TRUSTED_PROXIES (addresses or networks, empty by
default, the same whatever DEBUG is). Otherwise the headers are dropped:
the sign-in throttle (django-axes) and any per-address limit see the real
peer, and Django's https check (SECURE_PROXY_SSL_HEADER) never believes an
X-Forwarded-Proto it did not get from the proxy.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest
from django.utils.deprecation import MiddlewareMixin

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

# The META keys a proxy sets; dropped when the peer is not a trusted proxy.
PROXY_HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_X_REAL_IP", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST")


def parse_networks(values: Iterable[str]) -> tuple[Network, ...]:
    """'10.0.0.1', '10.0.0.0/8', '::1' as networks; ValueError names a value that is neither."""
    networks = []
    for value in values:
        try:
            networks.append(ipaddress.ip_network(value.strip(), strict=False))
        except ValueError:
            raise ValueError(f"{value!r} is not an IP address or network (e.g. 127.0.0.1 or 10.0.0.0/8)") from None
    return tuple(networks)


@lru_cache(maxsize=8)
def _trusted(values: tuple[str, ...]) -> tuple[Network, ...]:
    return parse_networks(values)


def trusted_proxies() -> tuple[Network, ...]:
    return _trusted(tuple(settings.TRUSTED_PROXIES))


def _address(value: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    if not value:
        return None
    try:
        return ipaddress.ip_address(value.strip())
    except ValueError:
        return None


def is_trusted_proxy(peer: str | None) -> bool:
    address = _address(peer)
    return address is not None and any(address in network for network in trusted_proxies())


def address_from(peer: str | None, header: Callable[[str], str | None]) -> str | None:
    """The client's address given the peer's and a way to read a header ('x-forwarded-for', lower case).

    From a trusted proxy: the right-most X-Forwarded-For entry that is not
    itself a trusted proxy (entries to its left are whatever the client
    wrote), else X-Real-IP; anything unparsable leaves the peer's address.
    """
    if not is_trusted_proxy(peer):
        return peer
    forwarded = [item.strip() for item in (header("x-forwarded-for") or "").split(",") if item.strip()]
    for item in reversed(forwarded):
        address = _address(item)
        if address is None:
            return peer
        if not is_trusted_proxy(item):
            return str(address)
    real = _address(header("x-real-ip"))
    if real is not None:
        return str(real)
    return str(_address(forwarded[0])) if forwarded else peer


def client_address(request: HttpRequest) -> str | None:
    """The address of the client behind a request (django-axes's AXES_CLIENT_IP_CALLABLE)."""
    meta = request.META
    return address_from(meta.get("REMOTE_ADDR"), lambda name: meta.get("HTTP_" + name.upper().replace("-", "_")))


def scope_address(scope: Mapping) -> str | None:
    """The address of the client behind an ASGI scope (a websocket's), by the same rule."""
    client = scope.get("client") or (None, None)
    headers: dict[str, str] = {}
    for name, value in scope.get("headers") or ():
        headers.setdefault(name.decode("latin-1").lower(), value.decode("latin-1"))
    return address_from(client[0], headers.get)


class ProxyHeadersMiddleware(MiddlewareMixin):
    """First in MIDDLEWARE: a request not from a trusted proxy loses the proxy headers it sent."""

    def process_request(self, request: HttpRequest) -> None:
        if not is_trusted_proxy(request.META.get("REMOTE_ADDR")):
            for key in PROXY_HEADERS:
                request.META.pop(key, None)


class ClientAddressMiddleware:
    """ASGI middleware for websockets: scope["client_address"], by the rule above (tables.live.limits reads it)."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        return await self.application({**scope, "client_address": scope_address(scope)}, receive, send)
