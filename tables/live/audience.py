"""A process's viewers of each table: told of a change once, shown it in one pass.

A table's channel-layer group (`group_name`) holds one member per server
process, its audience's channel, not one per socket. A play then sends one
`table.changed` event per process instead of one per viewer, and the
process brings its viewers up to the new version in one loop over them
(`deliver`): one read of the version if it was not written here
(tables.live.frames), then each viewer's frame, with no channel-layer
message, task or dispatch per viewer. That dispatch was a quarter of a
play's CPU at a full table (docs/performance.md, issue 12). The process
that made the change shows it to its own viewers directly
(tables.live.broadcast), without waiting for the layer to hand the event
back; the in-memory layer, which reaches no other process, is then not used
at all (`only_here`).

A version this process does not hold (another process wrote it, or a round
settled) must be read first: its delivery is a task of its own, so no other
table's changes wait behind the read.

Each viewer makes and sends its own frame (`TableConsumer.show`), under its
own lock, so a frame it is making for its own click and a version shown from
here never interleave. A viewer busy with its own click is shown the version
by a task of its own, after that click, so one slow viewer never holds up the
others.

The audience's channel is also the only one through which its process hears
of a player's session ending (tables.live.sockets): it joins each of its
viewers' player groups, and has their sockets close. No table socket reads
the channel layer itself. On Redis, channels_redis reads every channel of a
process through one BZPOPMIN, run by whichever `receive` holds its lock; a
socket that closed cancelled its `receive`, and a reply to that BZPOPMIN
still on its way (a table's change, meant for this audience) was lost with
it. The viewers missed that version until the next change came, and after
a table's last change (the last player leaving) never saw it: the load
test's bot waited 10 s for the answer to its Leave. Only the audience
receives now, and it stops only when nobody here watches anything.

One audience per event loop (a server process has one; tests start many).
The group memberships are renewed whenever a viewer joins and every
`RENEW_SECONDS`, well inside the channel layers' group expiry (a day).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any, Protocol

from channels.layers import InMemoryChannelLayer

from tables.live import frames
from tables.live.sockets import EVENT as SIGNED_OUT
from tables.live.sockets import user_group

log = logging.getLogger(__name__)

# The event a table's change sends each process (tables.live.broadcast), to its table's group.
EVENT = "table.changed"


def group_name(table_id: int) -> str:
    return f"table-{table_id}"


RENEW_SECONDS = 3600.0
# After the layer fails to deliver (Redis restarting), wait this long before listening again.
RETRY_SECONDS = 1.0


class Viewer(Protocol):
    """What the audience needs of a table's consumer (tables.live.consumers)."""

    def needs(self, version: int) -> bool: ...

    def ready(self, version: int) -> bool: ...

    async def show(self, version: int) -> None: ...

    async def user_signed_out(self, event: dict[str, Any]) -> None: ...


class Audience:
    """This loop's viewers of every table, and its one channel in the tables' groups."""

    def __init__(self, layer: Any) -> None:
        self.layer = layer
        self.channel: str | None = None
        # Each table's viewers here, in the order they joined (a dict as an ordered set).
        self.viewers: dict[int, dict[Viewer, None]] = {}
        self.joined: set[int] = set()  # the tables whose group holds self.channel
        # Each signed-in player's viewers here, and the players whose group holds self.channel.
        self.players: dict[int, dict[Viewer, None]] = {}
        self.players_joined: set[int] = set()
        self._lock = asyncio.Lock()  # one change of the memberships at a time
        self._tasks: set[asyncio.Task] = set()
        self._listening: list[asyncio.Task] = []  # while anyone watches: the listener and the renewer

    async def join(self, table_id: int, viewer: Viewer, player_id: int | None = None) -> None:
        """`viewer` hears every change of the table from now on, and the end of `player_id`'s session."""
        self.viewers.setdefault(table_id, {})[viewer] = None
        if player_id is not None:
            self.players.setdefault(player_id, {})[viewer] = None
        async with self._lock:
            if self.channel is None:
                # The layer's default prefix: channels_redis reads every channel of a process
                # through one list, named by that prefix, and would never read another prefix's.
                self.channel = await self.layer.new_channel()
                self._listening = [self._start(self._listen()), self._start(self._renew())]
            if table_id in self.viewers:
                # Every join renews the membership, whether or not it is new.
                await self.layer.group_add(group_name(table_id), self.channel)
                self.joined.add(table_id)
            if player_id is not None and player_id in self.players:
                await self.layer.group_add(user_group(player_id), self.channel)
                self.players_joined.add(player_id)

    async def leave(self, table_id: int, viewer: Viewer, player_id: int | None = None) -> None:
        viewers = self.viewers.get(table_id)
        if viewers is not None:
            viewers.pop(viewer, None)
            if not viewers:
                del self.viewers[table_id]
        if player_id is not None and (sockets := self.players.get(player_id)) is not None:
            sockets.pop(viewer, None)
            if not sockets:
                del self.players[player_id]
        async with self._lock:
            if table_id not in self.viewers and table_id in self.joined:
                self.joined.discard(table_id)
                await self.layer.group_discard(group_name(table_id), self.channel)
            if player_id is not None and player_id not in self.players and player_id in self.players_joined:
                self.players_joined.discard(player_id)
                await self.layer.group_discard(user_group(player_id), self.channel)
            if not self.viewers and self.channel is not None:
                # Nobody here watches any table: stop listening until someone does. Leave every
                # group still joined now: the sockets that closed with this one, still queued for
                # the lock, must not use the channel once it is gone.
                for table in sorted(self.joined):
                    await self.layer.group_discard(group_name(table), self.channel)
                for player in sorted(self.players_joined):
                    await self.layer.group_discard(user_group(player), self.channel)
                self.joined.clear()
                self.players_joined.clear()
                for task in self._listening:
                    task.cancel()
                self.channel, self._listening = None, []

    async def deliver(self, table_id: int, version: int) -> None:
        """Bring every viewer of the table here up to `version`."""
        viewers = [viewer for viewer in self.viewers.get(table_id, ()) if viewer.needs(version)]
        if not viewers:
            return
        # One read of the version for all of them, unless this process wrote it (frames.offer).
        await frames.read(table_id, version)
        for viewer in viewers:
            if viewer.ready(version):
                # Made from memory and sent at once: no task of its own.
                try:
                    await viewer.show(version)
                except Exception:
                    log.exception("Table %s: showing version %s to a viewer failed", table_id, version)
            else:
                # Busy with its own click, or it needs the database (a watcher's bankroll): in turn, after that.
                self._start(viewer.show(version))

    async def _listen(self) -> None:
        while True:
            try:
                event = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                if _stopping():
                    # The layer turned our cancellation into an error of its own (channels_redis's
                    # read of a connection closed under it): stop, or the loop's shutdown, which
                    # cancels each task once, waits for this one for ever.
                    raise asyncio.CancelledError from None
                log.exception("The tables' channel failed; listening again in %s s", RETRY_SECONDS)
                await asyncio.sleep(RETRY_SECONDS)
                continue
            if event.get("type") == SIGNED_OUT:
                self._sign_out(event)
                continue
            if event.get("type") != EVENT:
                continue
            table_id, version = int(event["table"]), int(event["version"])
            if not frames.holds(table_id, version):
                # The version must be read first (another process wrote it, or a new round):
                # a task of its own, so that no other table's changes wait behind the read.
                self._start(self.deliver(table_id, version))
                continue
            try:
                await self.deliver(table_id, version)
            except Exception:
                log.exception("Table %s: delivering a change failed", table_id)

    def _sign_out(self, event: dict[str, Any]) -> None:
        """A player's session stopped standing (tables.live.sockets): each of their sockets here closes."""
        player_id = event.get("user")
        for viewer in list(self.players.get(player_id, ()) if isinstance(player_id, int) else ()):
            self._start(viewer.user_signed_out(event))

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            async with self._lock:
                for table_id in list(self.joined):
                    await self.layer.group_add(group_name(table_id), self.channel)
                for player_id in list(self.players_joined):
                    await self.layer.group_add(user_group(player_id), self.channel)

    def _start(self, coroutine: Any) -> asyncio.Task:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)  # held until done: the loop keeps only weak references to tasks
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("A table audience's task failed", exc_info=task.exception())


def _stopping() -> bool:
    """Whether the running task has been asked to stop (Task.cancel), even if the error it got was another."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


_audiences: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Audience] = weakref.WeakKeyDictionary()


def audience(layer: Any) -> Audience:
    """The running loop's audience on `layer` (a new one if the layer changed: tests override it)."""
    loop = asyncio.get_running_loop()
    found = _audiences.get(loop)
    if found is None or found.layer is not layer:
        found = _audiences[loop] = Audience(layer)
    return found


def here(layer: Any) -> Audience | None:
    """The running loop's audience on `layer`, if it has one (nobody watches a table here otherwise)."""
    found = _audiences.get(asyncio.get_running_loop())
    return found if found is not None and found.layer is layer else None


def only_here(layer: Any) -> bool:
    """Whether `layer` reaches no audience but the running loop's: no other process, no other loop.

    Channels' in-memory layer lives in one process; a test's other event loops may use it too.
    """
    if not isinstance(layer, InMemoryChannelLayer):
        return False
    loop = asyncio.get_running_loop()
    return all(other is loop or found.layer is not layer for other, found in list(_audiences.items()))
