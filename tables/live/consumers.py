"""The table's websocket: thin, as the Channels docs have it.

Authenticate, parse one message, call one service, and render the table for
this viewer. Changes made by anyone reach every consumer of the table as a
small `table.changed` event, and each renders its own viewer's HTML (their
seat, their buttons) as htmx out-of-band swaps.
"""

from __future__ import annotations

import logging
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from tables.engine import BY_NAME
from tables.live import broadcast, frames
from tables.models import Table
from tables.play import access, services, timers
from tables.play.errors import TableError
from tables.play.messages import BadMessage, parse, perform

log = logging.getLogger(__name__)

CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404


class TableConsumer(AsyncWebsocketConsumer):
    table_id: int
    rendered_version: int = -1

    async def connect(self) -> None:
        timers.remember_loop()
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        verdict = await database_sync_to_async(self._may_watch)()
        # Accept, then close with a code: a refused handshake makes the htmx
        # extension retry forever.
        await self.accept()
        if verdict is not None:
            await self.close(code=verdict)
            return
        self.group = broadcast.group_name(self.table_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        version, deadline = await database_sync_to_async(_settle_and_read_deadline)(self.table_id)
        # This process may have no timer for the table's next deadline (it was
        # restarted, or it never committed a change here): arm one.
        timers.arm(self.table_id, version, deadline)
        await self.send_table()

    def _may_watch(self) -> int | None:
        """None if the viewer may watch the table, else the code to close with."""
        try:
            access.check_may_watch(self.user, self.table_id)
        except access.NoSuchTable as refusal:
            return CLOSE_NOT_FOUND if refusal.code == "no_table" else CLOSE_FORBIDDEN
        return None

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            message = parse(text_data, bytes_data)
        except BadMessage as error:
            await self.send_table(notice=str(error))
            return
        notice = await database_sync_to_async(self._handle)(message)
        if notice is not None:
            # A refused action changes nothing: say why, and show the table as it stands.
            await self.send_table(notice=notice, force=True)

    def _handle(self, message: dict[str, Any]) -> str | None:
        action = message.get("action")
        if not (isinstance(action, str) and action in BY_NAME):
            # A seat change first settles any deadline that passed unwatched;
            # a play settles it itself, under the table's lock (services.do_act).
            _settle_overdue(self.table_id)
        try:
            perform(self.table_id, self.user, message)
        except TableError as error:
            return error.message
        except Exception:
            log.exception("Table %s: an action failed", self.table_id)
            return "Something went wrong on our side; nothing was changed."
        return None

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels hops to the database thread before every message to close
        # stale connections. Every database call here goes through
        # database_sync_to_async, which does that itself, and the extra hop
        # would queue each of a table's frames on that one thread.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def table_changed(self, event: dict[str, Any]) -> None:
        # Events can queue up; one render shows the latest state, so skip older ones.
        if event["version"] <= self.rendered_version:
            return
        # One read of the new version serves every viewer of the table in this
        # process; their frames are then made here, with no database.
        await frames.read(self.table_id, event["version"])
        cached = frames.cached_frame(self.table_id, self.user, event["version"])
        if cached is None:  # a watcher, whose bankroll is read for each frame
            await self.send_table(version=event["version"])
        else:
            await self._send_frame(*cached)

    async def send_table(self, notice: str | None = None, force: bool = False, version: int | None = None) -> None:
        html, version = await database_sync_to_async(frames.render_frame)(
            self.table_id, self.user, notice, version=version
        )
        await self._send_frame(html, version, force)

    async def _send_frame(self, html: str, version: int, force: bool = False) -> None:
        if version < self.rendered_version and not force:
            return
        self.rendered_version = max(version, self.rendered_version)
        await self.send(text_data=html)


def _settle_overdue(table_id: int) -> None:
    # A failure here must not take the connection (or every connection) down:
    # the action that follows, or the next timer, gets another chance.
    try:
        services.settle_overdue(table_id)
    except Exception:
        log.exception("Table %s: settling an overdue deadline failed", table_id)


def _settle_and_read_deadline(table_id: int) -> tuple[int, object]:
    """Settle passed deadlines; the table's (version, next deadline) afterwards."""
    _settle_overdue(table_id)
    return Table.objects.filter(pk=table_id).values_list("version", "deadline").get()
