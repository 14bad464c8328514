"""The table's websocket: thin, as the Channels docs have it.

Authenticate, parse one message, call one service, and render the table for
this viewer. Changes made by anyone reach each server process once, as a
small `table.changed` event, and the process's audience of the table
(tables.live.audience) has each of its consumers show it: each renders its
own viewer's HTML (their seat, their buttons) as htmx out-of-band swaps.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from concurrent.futures import Future
from typing import Any

from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.utils.functional import LazyObject, empty

from accounts import balances
from casino.database_thread import database_sync_to_async
from tables.engine import BY_NAME
from tables.live import frames, limits, sockets
from tables.live.audience import audience
from tables.live.pieces import Sent, frame_for
from tables.models import Table
from tables.play import access, services, timers
from tables.play.errors import TableError
from tables.play.messages import BadMessage, parse, perform

log = logging.getLogger(__name__)

CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
# How long a viewer's consumer waits for their hint's exact figures before leaving the basic-strategy one.
HINT_WAIT_SECONDS = 30


class TableConsumer(AsyncWebsocketConsumer):
    # No channel of its own, and no `receive` on the channel layer: everything a socket hears
    # (its table's changes, its player's session ending) comes through its process's audience
    # (tables.live.audience says why). Channels then reads only the socket itself.
    channel_layer_alias = None
    table_id: int
    # The signed-in player behind the socket (None for a watcher who is not signed in).
    player_id: int | None = None
    # A watcher's bankroll and chips at the tables (the top bar's two numbers): read on the
    # database thread when they may have changed (on connect, after their own seat changes,
    # once they are no longer seated); a seated player's come with each version of the table.
    bankroll: int | None = None
    at_tables: int | None = None
    bankroll_known: bool = False
    # Set when the player's session stops standing (log-out, new password,
    # deactivation, a break): from then on every message is refused.
    signed_out: bool = False
    # Set when the socket is closed for a limit (tables.live.limits): nothing more it sends is read.
    stopped: bool = False
    # The coach: the hint this connection waits for, so its figures are sent when ready.
    awaited_hint: Future | None = None
    hint_task: asyncio.Task | None = None
    # Set once the socket is gone: the audience may still hold a version to show it.
    gone: bool = False

    @property
    def rendered_version(self) -> int:
        return self.sent.version

    async def connect(self) -> None:
        timers.remember_loop()
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        # What this connection was sent: every frame carries only what changed since.
        self.sent = Sent()
        # Held while a frame is made and sent: this viewer's frames go out in the order they were made.
        self.frame_lock = asyncio.Lock()
        self.bad_frames = limits.FrameBudget()
        verdict = await database_sync_to_async(self._may_watch)()
        # Accept, then close with a code: a refused handshake makes the htmx
        # extension retry forever.
        await self.accept()
        if verdict is not None:
            await self.close(code=verdict)
            return
        # _may_watch read the session's user: keep the User itself, not Channels' lazy
        # wrapper, whose indirection every read of it in every frame would pay.
        self.user = resolved(self.user)
        # Sockets per player and per address (tables.live.limits), given back in disconnect.
        self.place = limits.take_socket(access.viewer_id(self.user), limits.socket_address(self.scope))
        if self.place is None:
            self.stopped = True
            await self._send(limits.notice_frame(limits.TOO_MANY_SOCKETS))
            await self.close(code=limits.CLOSE_TOO_MANY_SOCKETS)
            return
        try:
            await self._join()
        except BaseException:
            # A connect that fails from here ends the consumer without a disconnect():
            # give the place back, and leave the table's audience.
            self.place.release()
            await self._leave_audience()
            raise

    async def _join(self) -> None:
        """Join the table's audience (and the player's group), arm the table's timer, send the whole table."""
        self.audience = audience(get_channel_layer())
        self.player_id = access.viewer_id(self.user)
        await self.audience.join(self.table_id, self, self.player_id)
        async with self.frame_lock:
            # One call on the database thread: what passed unwatched settled, the table's version
            # and next deadline, and the whole table at that version (a page load, a reconnect).
            version, deadline, frame = await database_sync_to_async(self._first_frame)()
            # This process may have no timer for the table's next deadline (it was
            # restarted, or it never committed a change here): arm one.
            timers.arm(self.table_id, version, deadline)
            await self._send(frame)

    def _first_frame(self) -> tuple[int, object, str]:
        version, deadline = _settle_and_read_deadline(self.table_id)
        return version, deadline, self._frame(None, version)

    def _may_watch(self) -> int | None:
        """None if the viewer may watch the table, else the code to close with."""
        if access.is_paused(self.user):
            return sockets.CLOSE_SIGNED_OUT  # on a break (issue 14): no table until it ends
        try:
            access.check_may_watch(self.user, self.table_id)
        except access.NoSuchTable as refusal:
            return CLOSE_NOT_FOUND if refusal.code == "no_table" else CLOSE_FORBIDDEN
        return None

    async def disconnect(self, code: int) -> None:
        if getattr(self, "place", None) is not None:
            self.place.release()
        if self.hint_task is not None:
            self.hint_task.cancel()
        await self._leave_audience()

    async def _leave_audience(self) -> None:
        self.gone = True  # from now on the audience shows it nothing, even before it is out
        if hasattr(self, "audience"):
            await self.audience.leave(self.table_id, self, self.player_id)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.signed_out or self.stopped:
            return  # this socket's session no longer stands, or it is closed for a limit: nothing it sends is acted on
        try:
            message = parse(text_data, bytes_data)
        except BadMessage as error:
            await self._refuse_bad_frame(str(error))
            return
        # What the play hands to the loop (its viewers' event, its timer) runs as the call returns.
        answer = await timers.collected(self.table_id, self._handle, message)
        if isinstance(answer, TableError) and answer.code in limits.JUNK_CODES:
            await self._refuse_bad_frame(answer.message)
        elif answer is not None:
            # A refused action changes nothing: say why, and show the table as it stands
            # (or the words answering a reality check or the Hints switch).
            await self.send_table(notice=answer if isinstance(answer, str) else answer.message)

    async def _refuse_bad_frame(self, notice: str) -> None:
        """A frame our page never sends: a small notice, never the table; past the limit, the socket closes."""
        if not self.bad_frames.spend():
            self.stopped = True
            await self._send(limits.notice_frame(limits.TOO_MANY_BAD_FRAMES))
            await self.close(code=limits.CLOSE_BAD_FRAMES)
            return
        async with self.frame_lock:
            self.sent.pieces.pop("notice", None)  # the next frame clears it
            await self._send(limits.notice_frame(notice))

    def _handle(self, message: dict[str, Any]) -> TableError | str | None:
        action = message.get("action")
        if not (isinstance(action, str) and action in BY_NAME):
            # A seat change first settles any deadline that passed unwatched;
            # a play settles it itself, under the table's lock (services.do_act).
            _settle_overdue(self.table_id)
        try:
            done = perform(self.table_id, self.user, message)
        except TableError as error:
            return error
        except Exception:
            log.exception("Table %s: an action failed", self.table_id)
            return TableError("Something went wrong on our side; nothing was changed.", "server_error")
        # A reality check's answer changes no table: its words are the reply (issue 14).
        return done if isinstance(done, str) else None

    async def __call__(self, scope, receive, send) -> None:
        """Channels' consumer, reading only its socket: one message at a time, as it comes.

        With no channel of its own there is one source of messages, so Channels'
        wait on several (a task and `asyncio.wait` for every message) is not needed.
        """
        self.scope = scope
        self.channel_layer = None
        self.base_send = send
        try:
            while True:
                await self.dispatch(await receive())
        except StopConsumer:
            pass

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels hops to the database thread before every message to close
        # stale connections. Every database call here goes through
        # database_sync_to_async, which does that itself, and the extra hop
        # would queue each of a table's frames on that one thread.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def user_signed_out(self, event: dict[str, Any]) -> None:
        """The player's session stopped standing elsewhere (log-out, new password, deactivation, a break).

        Called by the process's audience, which hears the player's group (tables.live.sockets).
        """
        self.signed_out = True
        reason = event.get("reason") or "signed out"
        await self.send_table(notice=f"This window is closed ({reason}). Reload the page to carry on.")
        await self.close(code=sockets.CLOSE_SIGNED_OUT)

    def needs(self, version: int) -> bool:
        """Whether this viewer has yet to be shown `version` of the table (tables.live.audience)."""
        return not (self.gone or self.signed_out) and version > self.rendered_version

    def ready(self, version: int) -> bool:
        """Whether `show(version)` would make its frame from memory at once: no click in hand, no database."""
        if self.frame_lock.locked():
            return False
        table = frames.cached(self.table_id, version)
        return table is not None and self._knows_bankroll(table)

    async def show(self, version: int) -> None:
        """The table reached `version`: bring this viewer up to it (or to a newer version)."""
        async with self.frame_lock:
            # Checked again: a frame made while this one waited may have shown it.
            if not self.needs(version):
                return
            # The process read the version once for all its viewers (tables.live.audience).
            table = frames.cached(self.table_id, version)
            if table is None or not self._knows_bankroll(table):
                await self._send(await database_sync_to_async(self._frame)(None))
                return
            await self._send(self._frame_of(table))

    async def send_table(self, notice: str | None = None) -> None:
        """Bring this viewer up to the table as it stands (with `notice`, the answer to their click)."""
        async with self.frame_lock:
            await self._send(await database_sync_to_async(self._frame)(notice))

    def _frame(self, notice: str | None, version: int | None = None) -> str:
        """The frame of the table's newest version, or of `version` (one just read) or newer."""
        table = frames.rendered(self.table_id, version)
        if not self._knows_bankroll(table):
            self.bankroll, self.at_tables = balances.chips_of(self.player_id)
            self.bankroll_known = True
        return self._frame_of(table, notice)

    def _knows_bankroll(self, table: frames.Rendered) -> bool:
        who = self.player_id
        if who is None or who in table.state.bankrolls:
            self.bankroll_known = False  # seated: it comes with the table; once they stand up, read it again
            return True
        return self.bankroll_known

    def _frame_of(self, table: frames.Rendered, notice: str | None = None) -> str:
        """This viewer's frame of `table`, its bankroll known (`_knows_bankroll`); remembered as sent."""
        state, who = table.state, self.player_id
        bankroll, at_tables = state.bankrolls.get(who, self.bankroll), state.at_tables.get(who, self.at_tables)
        return frame_for(table, self.user, bankroll, notice, self.sent, at_tables=at_tables)

    async def _send(self, html: str) -> None:
        if html:
            await self.send(text_data=html)
        pending = self.sent.pending_hint
        if pending is not None and pending is not self.awaited_hint:
            self.awaited_hint = pending
            self.hint_task = asyncio.ensure_future(self._send_hint_when_ready(pending))

    async def _send_hint_when_ready(self, pending: Future) -> None:
        """The viewer's hint was still being worked out (tables/live/coach.py): send it once it is."""
        # A failed or slow hint stays the basic-strategy one, labelled. (asyncio.timeout, not
        # wait_for: on Python 3.11 that loses a disconnect's cancellation as the hint arrives.)
        with contextlib.suppress(Exception):
            async with asyncio.timeout(HINT_WAIT_SECONDS):
                await asyncio.shield(asyncio.wrap_future(pending))
        async with self.frame_lock:
            if self.gone or self.signed_out or self.sent.pending_hint is not pending:
                return  # the table moved on: the frame that showed it brought whatever hint it needs
            table = frames.cached(self.table_id, self.sent.version)
            if table is not None and self._knows_bankroll(table):
                await self._send(self._frame_of(table))


def resolved(user: object) -> object:
    """The User behind a lazy `scope["user"]` once it has been read; the object itself otherwise."""
    if isinstance(user, LazyObject) and user._wrapped is not empty:
        return user._wrapped
    return user


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
    found = services.version_and_deadline(table_id)
    if found is None:  # deleted since the access check: the socket's opening fails, as any read of it would
        raise Table.DoesNotExist(f"No table {table_id}.")
    return found
