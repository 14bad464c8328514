"""After a table changes: tell every viewer (a small event) and arm its timer.

Both run from `transaction.on_commit`, so nobody hears of a change that was
rolled back. Events carry ids and versions, never HTML: each consumer renders
the table for its own viewer.
"""

from __future__ import annotations

import datetime as dt

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tables import clock


def group_name(table_id: int) -> str:
    return f"table-{table_id}"


def table_changed(table_id: int, version: int, deadline: dt.datetime | None) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(
            group_name(table_id), {"type": "table.changed", "table": table_id, "version": version}
        )
    clock.arm(table_id, version, deadline)
