"""Websocket routes, mounted by casino.asgi under the origin and auth middleware."""

from django.urls import path

import casino.converters  # noqa: F401  (registers <id:...>)
from tables.live.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<id:table_id>/", TableConsumer.as_asgi()),
]
