"""Shared fixtures: the personas alice, bob and carol, and process set-up for live servers."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# A forked live server inherits locks held by the parent and can hang; spawn
# starts it clean.
multiprocessing.set_start_method("spawn", force=True)
# Playwright's sync API runs an event loop in the test's thread; Django's
# async-safety guard would otherwise refuse the ORM calls the tests make.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

PASSWORD = "correct horse battery staple"


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix) -> None:
    """The test process closes its connections after each use (its child servers keep the defaults).

    A connection kept open in Channels' worker thread would outlive the test
    that opened it, and the next consumer, in a test without database access,
    would be refused when Channels checks it.
    """
    from django.conf import settings

    settings.DATABASES["default"]["CONN_MAX_AGE"] = 0


@pytest.fixture(autouse=True)
def fresh_frame_cache():
    """Every test starts with no rendered tables, hints, timers, held rounds or known system accounts: ids are reused between test databases."""
    from accounts import ledger
    from tables.live import coach, frames
    from tables.play import held, timers

    caches = (frames.forget, coach.forget, timers.forget, held.forget, ledger.forget_system_accounts)
    for forget in caches:
        forget()
    yield
    for forget in caches:
        forget()


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """On Redis, every test gets channel layer objects of its own.

    Each test runs on an event loop of its own, and a channels_redis layer keeps
    its receiving state (a lock, the receivers' count) for the loop that last
    received on it: a receive cut short by one test's loop shutting down left
    that lock held, and every later test of the worker failed with "bound to a
    different event loop". A server process has one loop, so only tests share a
    layer between loops.
    """
    yield
    from django.conf import settings

    if settings.REDIS_URL:
        from channels.layers import channel_layers

        channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def ledger_audited_after_each_test(request):
    """Issue 14: `audit_ledger` passes after every test that used the database.

    A test that breaks the ledger on purpose, to see the audit catch it, says
    so with @pytest.mark.ledger_broken.
    """
    if request.node.get_closest_marker("django_db") is None or request.node.get_closest_marker("ledger_broken"):
        yield
        return
    # Set up before this fixture goes on, the test database is torn down after the audit below.
    request.getfixturevalue("_django_db_helper")
    yield
    from accounts.audit import audit_ledger

    report = audit_ledger()
    assert report.ok, f"audit_ledger after {request.node.name}: {report.problems}"


_left_out: dict[str, object] = {"pool": None, "count": 0}  # the pool, and how many of its connections tests left out


@pytest.fixture(autouse=True)
def no_pooled_connection_left_out(request):
    """On PostgreSQL, a test hands back to the pool every connection it took, but the one pytest-django closes.

    A connection opened in a thread that is not the test's (an event loop's worker) or beside
    Playwright's running loop (tests/browser/conftest.py) is not the one pytest-django closes.
    Left open, it is never handed back: PostgreSQL keeps its session until the garbage
    collector happens to free it, and, if that is after the run, refuses to drop the test
    database, "being accessed by other users". The pool counts it out for good, so the test
    that left it out fails here, every time.
    """
    yield
    if "django_db_setup" not in request.fixturenames:
        return  # no test database yet, and no pool of it
    from django.db import connection

    from casino import database_thread

    # The database threads (Channels' and the tables') keep their connections between calls in quick
    # succession: not into the next test (CONN_MAX_AGE is 0 here: closed, or handed back to the pool).
    database_thread.hand_back()

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        # A module's Playwright still runs (test_accessibility.py): pytest-django closed this
        # context's connection itself, and the thread's own is not the one below.
        return
    pool = connection.pool if connection.vendor == "postgresql" else None
    if pool is None:
        return

    def left_out() -> int:
        stats = pool.get_stats()
        return stats["pool_size"] - stats["pool_available"] - (connection.connection is not None)

    before = _left_out["count"] if _left_out["pool"] is pool else 0
    deadline = time.monotonic() + 2
    while (now := left_out()) > before and time.monotonic() < deadline:
        time.sleep(0.05)  # one on its way back, or one the pool is still opening (counted already)
    _left_out.update(pool=pool, count=now)
    assert now <= before, f"{request.node.name} left {now - before} database connection(s) out of the pool"


async def in_thread(function: Callable, /, *args, **kwargs):
    """`asyncio.to_thread` for a call that uses the database: the worker thread's connection is closed after it.

    The loop's worker thread outlives the call, and pytest-django closes only the test's own
    connection: one left open here would stay out of the pool (no_pooled_connection_left_out).
    """
    from django.db import connection

    def run():
        try:
            return function(*args, **kwargs)
        finally:
            connection.close()

    return await asyncio.to_thread(run)


def make_player(django_user_model, username: str):
    from accounts.services import create_player

    return create_player(username, PASSWORD, email=f"{username}@example.com")


@pytest.fixture
def alice(django_user_model):
    return make_player(django_user_model, "alice")


@pytest.fixture
def bob(django_user_model):
    return make_player(django_user_model, "bob")


@pytest.fixture
def carol(django_user_model):
    return make_player(django_user_model, "carol")


@contextlib.contextmanager
def own_channel_layer() -> Iterator[str | None]:
    """On Redis, a channel layer of the caller's own: a fresh key prefix, removed afterwards.

    Yields the prefix, or None on the in-memory layer (private to this process anyway).
    """
    from django.conf import settings

    if not settings.REDIS_URL:
        yield None
        return
    import copy
    import uuid

    import redis
    from django.test import override_settings

    prefix = f"test-{uuid.uuid4().hex[:12]}"
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    layers["default"]["CONFIG"]["prefix"] = prefix
    try:
        # channels drops its cached layers on this change, and again when it is undone.
        with override_settings(CHANNEL_LAYERS=layers):
            yield prefix
    finally:
        client = redis.Redis.from_url(settings.REDIS_URL)
        try:
            keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
            if keys:
                client.delete(*keys)
        finally:
            client.close()


@pytest.fixture
def private_channel_layer():
    """On Redis, a channel layer of the test's own (`own_channel_layer`).

    Table ids start again at 1 in every test database, so without it a test's
    consumers would hear the `table-1` events of any other process on the same
    Redis (a dev server, a load test), and those processes the test's. Yields
    the prefix, or None on the in-memory layer.
    """
    with own_channel_layer() as prefix:
        yield prefix


# --- Live daphne processes that a test can crash and start again ---------------------------

REPO = Path(__file__).resolve().parents[1]
DAPHNE_LOGS = REPO / "test-output" / "daphne"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url_for_child() -> str:
    """The test database (a file for SQLite), as DATABASE_URL for a child process."""
    from urllib.parse import quote

    from django.db import connection

    settings_dict = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings_dict['NAME']}"
    user = quote(settings_dict.get("USER") or "")
    password = f":{quote(settings_dict['PASSWORD'])}" if settings_dict.get("PASSWORD") else ""
    host = settings_dict.get("HOST") or "127.0.0.1"
    port = settings_dict.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{settings_dict['NAME']}"


class Daphne:
    """`python -m casino.serve casino.asgi:application` (daphne) in a child process on a fixed port.

    `kill()` is kill -9: the process dies mid-whatever, its timers with it.
    `start()` again serves on the same port, as a supervisor would restart it.
    """

    def __init__(self, name: str, env: dict[str, str], log_dir: Path = DAPHNE_LOGS) -> None:
        self.name = name
        self.env = env
        self.port = free_port()
        self.process: subprocess.Popen | None = None
        log_dir.mkdir(parents=True, exist_ok=True)
        self.log = log_dir / f"daphne-{name}-{self.port}.log"
        self.log.write_bytes(b"")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"

    def start(self, timeout: float = 60) -> Daphne:
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                # As `make run` starts it: daphne on uvloop's event loop (casino/serve.py).
                [sys.executable, "-m", "casino.serve", "-b", "127.0.0.1", "-p", str(self.port), "casino.asgi:application"],
                cwd=REPO,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return self
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"daphne {self.name} did not start; see {self.log}") from None
                time.sleep(0.1)

    def kill(self) -> None:
        """kill -9, as a crash."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


def child_environment(tmp_path: Path, channel_prefix: str | None) -> dict[str, str]:
    """The environment of a child process (daphne, manage.py) on the test database and, on Redis,
    the channel layer's keys under `channel_prefix` (a settings module written to `tmp_path`)."""
    env = {**os.environ, "DATABASE_URL": database_url_for_child(), "DEBUG": "true", "PYTHONUNBUFFERED": "1"}
    if channel_prefix is not None:
        # The child's settings are casino.settings with the test's channel-layer prefix.
        module = f"test_settings_{channel_prefix.replace('-', '_')}"
        (tmp_path / f"{module}.py").write_text(
            "from casino.settings import *  # noqa: F403\n\n"
            f"CHANNEL_LAYERS['default']['CONFIG']['prefix'] = {channel_prefix!r}  # noqa: F405\n"
        )
        env["DJANGO_SETTINGS_MODULE"] = module
        env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


@pytest.fixture
def child_env(transactional_db, private_channel_layer, tmp_path) -> dict[str, str]:
    """The environment of a child process (daphne, manage.py) that shares the test's database and channel layer."""
    return child_environment(tmp_path, private_channel_layer)


@pytest.fixture
def start_daphne(child_env) -> Iterator[Callable[..., Daphne]]:
    """start_daphne("a") runs a daphne child on the test database; every one is stopped after the test.

    Its log goes to test-output/daphne/, or to `log_dir=`.
    """
    started: list[Daphne] = []
    sessions = other_database_sessions()

    def start(name: str, log_dir: Path = DAPHNE_LOGS) -> Daphne:
        server = Daphne(name, child_env, log_dir)
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()
    # PostgreSQL ends a child's sessions a moment after it exits, and drops the
    # test database at the end of the run only once they are gone.
    deadline = time.monotonic() + 10
    while other_database_sessions() > sessions and time.monotonic() < deadline:
        time.sleep(0.1)


def other_database_sessions() -> int:
    """How many other sessions use the test database (PostgreSQL; 0 elsewhere)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return 0
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test under tests/browser drives Chromium: `make test` runs them apart from the parallel rest."""
    browser_tests = Path(__file__).parent / "browser"
    for item in items:
        if browser_tests in item.path.parents:
            item.add_marker(pytest.mark.browser)

@pytest.fixture(autouse=True)
def no_review_thread(monkeypatch):
    """Settled rounds are not reviewed on a thread of the test process (tests call `review_round`).

    The review thread would write to the test database beside the test itself;
    the daphne children of the browser tests review as production does.
    """
    from tables.play import reviews

    monkeypatch.setattr(reviews, "ENABLED", False)
