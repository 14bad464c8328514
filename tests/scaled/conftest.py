"""Tests marked `scaled`: several daphne processes sharing PostgreSQL and Redis.

`make test` deselects them in its first pass (SQLite, in-memory layer) and
runs them in the second, on DATABASE_URL and REDIS_URL. Run anywhere else,
they fail, saying why, rather than skip: a green run must mean they ran.
"""

from __future__ import annotations

import pytest

HOW = (
    "Run them as CI does: DATABASE_URL=postgres://postgres@127.0.0.1:5432/test "
    "REDIS_URL=redis://127.0.0.1:6379/0 CONN_MAX_AGE=0 pytest -m scaled, or leave them out with -m 'not scaled'."
)


def scaled_set_up_problem() -> str | None:
    """What this run lacks for a `scaled` test, in a sentence, or None."""
    from django.conf import settings
    from django.db import connection

    missing = []
    if connection.vendor != "postgresql":
        missing.append(f"PostgreSQL (the database is {connection.vendor}; set DATABASE_URL)")
    if not settings.REDIS_URL:
        missing.append("Redis (there is no REDIS_URL: the channel layer is in-memory, private to one process)")
    else:
        import redis

        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=5)
        try:
            client.ping()
        except redis.RedisError as error:
            missing.append(f"a Redis that answers at REDIS_URL ({error})")
        finally:
            client.close()
    if not missing:
        return None
    return f"This test needs {' and '.join(missing)}: several daphne processes must share them. {HOW}"


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_call(item: pytest.Item) -> None:
    if item.get_closest_marker("scaled") is not None:
        problem = scaled_set_up_problem()
        if problem is not None:
            pytest.fail(problem, pytrace=False)
