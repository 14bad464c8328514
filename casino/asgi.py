"""ASGI entry point, served by daphne: HTTP through Django, websockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
# Set up Django (apps, models) before anything imports a consumer.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import path  # noqa: E402

from casino.env import env_bool  # noqa: E402
from tables.routing import websocket_urlpatterns  # noqa: E402


def websocket_routes() -> list:
    """The table routes, plus /ws/echo/ when ECHO_ENDPOINT=true (load tests only, docs/performance.md)."""
    routes = list(websocket_urlpatterns)
    if env_bool("ECHO_ENDPOINT", False):
        from casino.echo import EchoConsumer

        routes.append(path("ws/echo/", EchoConsumer.as_asgi()))
    return routes


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_routes()))),
    }
)
