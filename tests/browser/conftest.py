"""A live daphne and a real Chromium for the browser tests.

The server runs `daphne casino.asgi:application` in a child process against
the test database (a file for SQLite; the test database for PostgreSQL), so
what a test writes with the ORM is what the browser sees. Chromium is
Debian's package at /usr/bin/chromium, driven by Playwright's sync API
(Playwright's own browser download does not work here).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
REPO = Path(__file__).resolve().parents[2]
OUTPUT = REPO / "test-output" / "browser"


def pytest_collection_modifyitems(config, items) -> None:
    if Path(CHROMIUM).exists():
        return
    if os.environ.get("REQUIRE_BROWSER"):
        # CI installs Chromium; a missing browser there is a failure, not a skip.
        raise pytest.UsageError(f"REQUIRE_BROWSER is set but there is no Chromium at {CHROMIUM}.")
    skip = pytest.mark.skip(reason=f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def live_daphne(start_daphne) -> Iterator[str]:
    """A daphne child on the test database (tests/conftest.py); its URL."""
    server = start_daphne("browser", log_dir=OUTPUT)
    yield server.url


@contextmanager
def module_daphne(name: str, tmp_path_factory) -> Iterator[str]:
    """One daphne for a whole test module, on the test database and a channel layer of its own; its URL.

    For modules whose tests only read what each writes afresh (pages, layout,
    accessibility): starting a server per test would cost them seconds each.
    Use it from a module-scoped fixture that has `django_db_blocker.unblock()`.
    """
    from tests.conftest import Daphne, child_environment, own_channel_layer

    with own_channel_layer() as prefix:
        daphne = Daphne(name, child_environment(tmp_path_factory.mktemp(name), prefix), log_dir=OUTPUT)
        try:
            yield daphne.start().url
        finally:
            daphne.stop()


@contextmanager
def launched_chromium() -> Iterator[object]:
    """Chromium under Playwright's sync API; the database connections opened beside it are closed with it.

    While it is open, Playwright's event loop counts as running in this thread (it waits in a
    greenlet of its own while the test's code runs), so Django keeps the connections opened
    meanwhile apart from the thread's own, as an async context's (asgiref's Local). pytest-django closes the
    thread's own after a test, and never sees these: left open, one would stay out of
    PostgreSQL's pool until the end of the run, and PostgreSQL would refuse to drop the test
    database, "being accessed by other users". So they are closed here, while the loop runs.
    """
    from django.db import connections
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        try:
            yield chromium
        finally:
            try:
                connections.close_all()
            finally:
                chromium.close()


def in_a_thread(function, *args, timeout: float = 90.0) -> None:
    """Call a service away from Playwright's event loop (its broadcast runs async_to_sync); its connection closed after.

    The timeout is generous: a busy machine, and a reconnect's back-off, may hold a service up.
    """
    from django.db import connection

    failure: list[BaseException] = []

    def run() -> None:
        try:
            function(*args)
        except BaseException as error:  # noqa: BLE001 - raised again below
            failure.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=timeout)
    if failure:
        raise failure[0]


@pytest.fixture
def browser() -> Iterator[object]:
    with launched_chromium() as chromium:
        yield chromium


@pytest.fixture
def screenshot(request):
    """screenshot(page, "step") saves test-output/browser/<test>-<step>.png.

    As the page settles: a card still being dealt (its animation) is shown
    where it lands, not half faded in.
    """
    OUTPUT.mkdir(parents=True, exist_ok=True)

    def take(page, step: str) -> Path:
        path = OUTPUT / f"{request.node.name}-{step}.png"
        page.screenshot(path=str(path), full_page=True, animations="disabled")
        return path

    return take
