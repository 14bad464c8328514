"""Statements of the caller's own, built once, and the runner every built-once statement goes through.

`statement` writes a statement over a model's table with its columns quoted
for the database in use; `fetch` and `execute` run one. `run` is how these
and casino.rows's whole-row statements reach the database: past Django's
cursor wrappers when none of them has a part to play (its docstring says
when). For the few statements a play repeats (docs/performance.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Model

# Each statement run on the driver's cursor, as that driver takes it (SQLite: "?" for "%s").
_native: dict[str, str] = {}
MAX_NATIVE = 512  # statements remembered; beyond, converted on each run (never seen: a play makes a dozen shapes)
_FORMAT = re.compile(r"(?<!%)%s")  # as Django's SQLite cursor finds the "format" placeholders


def run(conn, sql: str, params: Sequence[Any], read: bool) -> Any:
    """Run one statement: its rows (`read`), else the number of rows it changed.

    Django's cursor wraps each statement in a cursor wrapper, its execute
    wrappers and (SQLite) a rewrite of the placeholders: on a play's dozen
    short statements, as much CPU as SQLite's own work. When none of that
    has a part to play, the statement goes to the driver's cursor: the
    connection is open and needs no health check (else Django's cursor opens
    or checks it, and refuses the event loop's thread, as ever), no query is
    being logged (a test's CaptureQueriesContext or DEBUG) and no execute
    wrapper is installed. Driver errors still come out as Django's
    (IntegrityError ...), and a broken transaction still refuses a statement.
    """
    if (
        conn.connection is None
        or conn.queries_logged
        or conn.execute_wrappers
        or (conn.health_check_enabled and not conn.health_check_done)
    ):
        with conn.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall() if read else cursor.rowcount
    conn.validate_thread_sharing()
    conn.validate_no_broken_transaction()
    sqlite = conn.vendor == "sqlite"
    native = _native.get(sql) if sqlite else sql
    if native is None:
        # As SQLiteCursorWrapper.convert_query does on every statement: "format" style to "qmark".
        native = _FORMAT.sub("?", sql).replace("%%", "%")
        if len(_native) < MAX_NATIVE:
            _native[sql] = native
    with conn.wrap_database_errors:
        # SQLite's own cursor (Django's adds only the placeholders' rewrite), else the backend's.
        cursor = conn.connection.cursor() if sqlite else conn.create_cursor()
        try:
            cursor.execute(native, params)
            return cursor.fetchall() if read else cursor.rowcount
        finally:
            cursor.close()


def quote(name: str) -> str:
    return connection.ops.quote_name(name)


def fetch(sql: str, params: Sequence[Any]) -> list[tuple]:
    """The rows of one query of the caller's own, as the database returns them (no conversion)."""
    return run(connections[DEFAULT_DB_ALIAS], sql, params, True)


def execute(sql: str, params: Sequence[Any]) -> int:
    """One statement of the caller's own; the rows it changed."""
    return run(connections[DEFAULT_DB_ALIAS], sql, params, False)


def statement(model: type[Model], template: str) -> Callable[[], str]:
    """A statement of the caller's own over `model`'s table: "{table}" and "{<field>}" quoted for the database in use.

    Returns a function giving the SQL, built on first use for each database vendor.
    """
    built: dict[str, str] = {}

    def sql() -> str:
        vendor = connection.vendor
        if vendor not in built:
            names = {field.name: quote(field.column) for field in model._meta.concrete_fields}
            built[vendor] = template.format(table=quote(model._meta.db_table), **names)
        return built[vendor]

    return sql
