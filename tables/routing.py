"""Websocket routes, mounted by casino.asgi under the origin and auth middleware."""

from __future__ import annotations

from types import SimpleNamespace

from django.urls import path

from accounts.throttle import client_address
from tables.live.consumers import TableConsumer


def scope_client_address(scope) -> str | None:
    """A socket's client address by the sign-in throttle's own rule (accounts.throttle.client_address)."""
    client = scope.get("client") or (None,)
    meta = {"REMOTE_ADDR": client[0]}
    for name, value in scope.get("headers") or ():
        meta.setdefault("HTTP_" + name.decode("latin-1").upper().replace("-", "_"), value.decode("latin-1"))
    return client_address(SimpleNamespace(META=meta))


class WithClientAddress:
    """Puts `client_address` in a socket's scope: tables.live.limits counts sockets per address by it."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        return await self.application({**scope, "client_address": scope_client_address(scope)}, receive, send)


websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", WithClientAddress(TableConsumer.as_asgi())),
]
