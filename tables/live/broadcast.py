"""After a table changes: tell every viewer, with a small event.

A listener of tables.play.changes, so it runs after the commit and nobody
hears of a change that was rolled back. Events carry ids and versions, never
HTML: each process hands it to its viewers of the table
(tables.live.audience), and each renders the table for its own viewer
(tables.live.frames). The process that made the change tells its own
viewers directly, the others through the channel layer.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from tables.live import audience, frames
from tables.live.audience import EVENT, group_name
from tables.play import timers
from tables.play.changes import TableChanged

__all__ = ["EVENT", "group_name", "on_table_changed", "table_changed"]


def on_table_changed(change: TableChanged) -> None:
    """A committed change: this process's viewers get its version at once, then every viewer hears.

    Before they hear of it, so that their frames need no read of the new
    version: a play (or a new window) is taken as written; any other change
    this process made at a table it shows (a sit, a leave, a round that
    settled as a player left) is read here and now, on the thread that made
    it, rather than queued again on that thread by its viewers. A player
    sitting down is then answered after one turn on the database thread, not
    two: in a loaded process's busiest seconds, as players arrive, sits had
    been most of its slowest answers (docs/performance.md, "Twenty-third check").
    """
    if change.play is not None:
        play = change.play
        frames.offer(play.table, play.seated, play.round_row, play.engine)
    frames.read_written(change.table_id, change.version)
    table_changed(change.table_id, change.version)


def table_changed(table_id: int, version: int) -> None:
    """Tell the table's viewers, in every process, that `version` is out."""
    layer = get_channel_layer()
    if layer is not None:
        # In a server, told from its event loop while this thread goes on;
        # elsewhere (a management command, a test) sent here and now.
        if not timers.run_soon(_tell, layer, table_id, version):
            async_to_sync(layer.group_send)(group_name(table_id), _event(table_id, version))


async def _tell(layer, table_id: int, version: int) -> None:
    """On the loop: this process's viewers at once, the other processes through the layer.

    Viewers here need not wait for the layer to hand the event back (a round
    trip to Redis, or a queue and a task with the in-memory layer). When the
    layer reaches nobody else (the in-memory one), it is not used at all; else
    the event comes back here too, and finds these viewers shown it already.
    """
    if not audience.only_here(layer):
        timers.run_soon(layer.group_send, group_name(table_id), _event(table_id, version))
    viewers = audience.here(layer)
    if viewers is not None:
        await viewers.deliver(table_id, version)


def _event(table_id: int, version: int) -> dict:
    return {"type": EVENT, "table": table_id, "version": version}
