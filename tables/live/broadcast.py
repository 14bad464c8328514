"""After a table changes: tell every viewer, with a small event.

A listener of tables.play.changes, so it runs after the commit and nobody
hears of a change that was rolled back. Events carry ids and versions, never
HTML: each process hands it to its viewers of the table (tables.live.audience), and each renders the table for its own viewer (tables.live.frames).
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tables.live import frames
from tables.play import timers
from tables.play.changes import TableChanged

# The event's type: heard by each process's audience (tables.live.audience).
EVENT = "table.changed"


def group_name(table_id: int) -> str:
    return f"table-{table_id}"


def on_table_changed(change: TableChanged) -> None:
    """A committed change: this process's viewers get a play (or a new window) as written, then every viewer hears."""
    if change.play is not None:
        # Before they hear of it: their frames then need no read of the new version.
        play = change.play
        frames.offer(play.table, play.seated, play.round_row, play.engine)
    table_changed(change.table_id, change.version)


def table_changed(table_id: int, version: int) -> None:
    """Tell the table's viewers, in every process, that `version` is out."""
    layer = get_channel_layer()
    if layer is not None:
        event = {"type": EVENT, "table": table_id, "version": version}
        # In a server, sent from its event loop while this thread goes on;
        # elsewhere (a management command, a test) sent here and now.
        if not timers.run_soon(layer.group_send, group_name(table_id), event):
            async_to_sync(layer.group_send)(group_name(table_id), event)
