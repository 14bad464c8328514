"""Websocket routes, mounted by casino.asgi under the origin and auth middleware."""

from django.urls import path

from tables.live.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/tables/<int:table_id>/", TableConsumer.as_asgi()),
]
