"""A live daphne and a real Chromium for the browser tests.

The server runs `daphne casino.asgi:application` in a child process against
the test database (a file for SQLite; the test database for PostgreSQL), so
what a test writes with the ORM is what the browser sees. Chromium is
Debian's package at /usr/bin/chromium, driven by Playwright's sync API
(Playwright's own browser download does not work here).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

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


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _database_url_for_child() -> str:
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    user = quote(settings.get("USER") or "")
    password = f":{quote(settings['PASSWORD'])}" if settings.get("PASSWORD") else ""
    host = settings.get("HOST") or "127.0.0.1"
    port = settings.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{settings['NAME']}"


@pytest.fixture
def live_daphne(transactional_db) -> Iterator[str]:
    port = _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": _database_url_for_child(),
        "DEBUG": "true",
        "PYTHONUNBUFFERED": "1",
    }
    daphne = shutil.which("daphne", path=str(Path(sys.executable).parent)) or "daphne"
    log = (OUTPUT / f"daphne-{port}.log")
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [daphne, "-b", "127.0.0.1", "-p", str(port), "casino.asgi:application"],
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"daphne did not start; see {log}") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def screenshot(request):
    """screenshot(page, "step") saves test-output/browser/<test>-<step>.png."""
    OUTPUT.mkdir(parents=True, exist_ok=True)

    def take(page, step: str) -> Path:
        path = OUTPUT / f"{request.node.name}-{step}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
