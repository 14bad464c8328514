"""Websocket routes, mounted by casino.asgi under the origin and auth middleware."""

from django.urls import path  # noqa: F401

websocket_urlpatterns: list = []
