"""Whose sign-in attempts count together: the client's address, as the proxy reports it."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str | None:
    """REMOTE_ADDR, or behind our nginx (BEHIND_TLS_PROXY) the address nginx saw.

    nginx sets X-Real-IP to $remote_addr (docs/deploy.md), overwriting whatever
    the client sent, so the header cannot be forged through the proxy. Without
    the proxy every client would share its address, and five wrong passwords
    from anyone would lock a player out.
    """
    if settings.BEHIND_TLS_PROXY:
        forwarded = request.META.get("HTTP_X_REAL_IP", "").strip()
        if forwarded:
            return forwarded
    return request.META.get("REMOTE_ADDR")
