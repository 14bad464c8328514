"""ASGI entry point, served by daphne: HTTP through Django, websockets through Channels."""

import asyncio
import gc
import logging
import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
log = logging.getLogger(__name__)
# Set up Django (apps, models) before anything imports a consumer.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import path  # noqa: E402

from casino import compression, shutdown, watchdog  # noqa: E402
from casino.env import env_bool  # noqa: E402
from casino.origins import SameOriginValidator  # noqa: E402
from casino.proxies import ClientAddressMiddleware  # noqa: E402
from casino.sessions import AuthMiddlewareStack  # noqa: E402
from tables.routing import websocket_urlpatterns  # noqa: E402


def websocket_routes() -> list:
    """The table routes, plus /ws/echo/ when ECHO_ENDPOINT=true (load tests only, docs/performance.md)."""
    routes = list(websocket_urlpatterns)
    if env_bool("ECHO_ENDPOINT", False):
        from casino.echo import EchoConsumer

        routes.append(path("ws/echo/", EchoConsumer.as_asgi()))
    return routes


class OnTheServersLoop:
    """The application, first starting what each server process runs on its event loop.

    daphne sends no ASGI lifespan events, so the first connection on a loop
    (a page or a socket) starts them: the loop's watchdog (casino/watchdog.py,
    unless LOOP_WATCHDOG_SECONDS=0) and, under daphne, a clean stop on SIGTERM
    (casino/shutdown.py); and says which loop it is. Every later connection
    costs one comparison.
    """

    def __init__(self, application, *, watchdog_seconds: float) -> None:
        self.application = application
        self.watchdog_seconds = watchdog_seconds
        self.loop: asyncio.AbstractEventLoop | None = None

    async def __call__(self, scope, receive, send):
        loop = asyncio.get_running_loop()
        if loop is not self.loop:
            self.loop = loop
            # Which loop serves (casino/serve.py: uvloop's, where it is installed).
            log.info("Serving on %s.%s", type(loop).__module__, type(loop).__qualname__)
            if self.watchdog_seconds > 0:
                watchdog.watch(loop, threshold=self.watchdog_seconds)
            shutdown.cancel_tasks_before_the_reactor_stops(loop)
        return await self.application(scope, receive, send)


# daphne imports this module before it makes its websocket factory: compressed frames from the start.
if settings.WEBSOCKET_DEFLATE:
    compression.enable()

application = OnTheServersLoop(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": SameOriginValidator(ClientAddressMiddleware(AuthMiddlewareStack(URLRouter(websocket_routes())))),
        }
    ),
    watchdog_seconds=settings.LOOP_WATCHDOG_SECONDS,
)


# Everything made so far (Django, the apps, their modules: ~100,000 objects) lives as long as
# the process. Out of the cyclic collector's sight, its full collections scan only what
# serving makes: each was a 60-130 ms stop of the event loop, every viewer's frames waiting
# behind it (docs/performance.md, issue 12).
gc.collect()
gc.freeze()

# What serving makes is collected in a young generation of 20,000 objects, not CPython's 700, and
# its next generation every 20 of those, not 10. A daphne loaded with 600 players on 120 tables
# made 1,437 young collections in a run, 1.7 ms of CPU each whatever the generation's size: with
# the elder generations', 4.8 s of CPU, about a twentieth of its time, all of it holding the event
# loop. With these thresholds the collector took 0.85 s, and the load test played 3-16% more
# rounds (docs/performance.md, "Sixteenth check"). Cyclic garbage waits a little longer to be
# freed: a few megabytes at most.
YOUNG_OBJECTS, YOUNG_COLLECTIONS = 20_000, 20
gc.set_threshold(YOUNG_OBJECTS, YOUNG_COLLECTIONS, gc.get_threshold()[2])

# The play's transaction runs on Channels' database thread while the event loop makes frames;
# each SQLite call hands the interpreter back and forth. At the default 5 ms switch interval
# the database thread waited up to 5 ms for it after every statement; at 0.5 ms the load
# test's median action-to-update latency fell by about a fifth (docs/performance.md).
sys.setswitchinterval(0.0005)
