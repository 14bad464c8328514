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
        event = {"type": "table.changed", "table": table_id, "version": version}
        # In a server, sent from its event loop while this thread goes on;
        # elsewhere (a management command, a test) sent here and now.
        if not clock.run_soon(layer.group_send, group_name(table_id), event):
            async_to_sync(layer.group_send)(group_name(table_id), event)
    clock.arm(table_id, version, deadline)
