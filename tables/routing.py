"""Websocket routes, mounted by casino.asgi under the origin and auth middleware."""

from __future__ import annotations

from django.urls import path

import casino.converters  # noqa: F401  (registers <id:...>)
from casino.proxies import scope_address
from tables.live.consumers import TableConsumer


class WithClientAddress:
    """Puts `client_address` in a socket's scope, by the sign-in throttle's rule (casino.proxies).

    tables.live.limits counts sockets per address by it.
    """

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        return await self.application({**scope, "client_address": scope_address(scope)}, receive, send)


websocket_urlpatterns = [
    path("ws/tables/<id:table_id>/", WithClientAddress(TableConsumer.as_asgi())),
]
