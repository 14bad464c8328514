"""A JSON field's value as the database backend takes it, written by orjson (casino.rows, on every play).

The same JSON as Django's `adapt_json_value` makes with `json.dumps` (read
back by the field's `json.loads`, it is the same value), without the spaces,
in a third of the time: a play writes its round's state, event times and
decisions (docs/performance.md, "Eighth check"). Keys that are not strings
become strings, as json.dumps makes them.
"""

from __future__ import annotations

from typing import Any

import orjson


def adapt(conn, value: dict | list, encoder: type | None) -> Any:
    """What `conn.ops.adapt_json_value(value, encoder)` gives, by orjson unless the field has an encoder of its own."""
    if encoder is not None:
        return conn.ops.adapt_json_value(value, encoder)
    if conn.vendor == "postgresql":
        from psycopg.types.json import Jsonb  # as Django's PostgreSQL backend adapts it

        return Jsonb(value, dumps=_dumps)
    return _dumps(value).decode()


def _dumps(value: object) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
