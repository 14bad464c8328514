"""Bot players over real websockets: one coroutine each, all in one event loop.

A game bot connects to its table as the page does (session cookie, Origin),
sits down, and answers every question the table's frames put to it after a
human-like think time: Deal with the table minimum, No insurance, and basic
strategy from the cards on the page. An echo bot sends the same messages at
the same pace to /ws/echo/ and waits for them to come back.

Latency: from sending an action to the first frame that answers it, i.e. a
frame of a newer version in which the bot's question has moved on (its card
was dealt, its turn passed, its seat appeared), or a refusal notice.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import websockets
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from tables.loadtest import frames
from tables.loadtest.stats import EXPECTED_SIT_NOTICES, Stats

MAX_RECONNECTS = 5  # in a row, per bot
CONNECT_ERRORS = (ConnectionClosed, InvalidHandshake, InvalidURI, OSError, TimeoutError)
# What the page's forms send with every action (htmx adds its own headers too).
HTMX_HEADERS = {"HX-Request": "true"}


def ws_url(http_url: str, path: str) -> str:
    parts = urlsplit(http_url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}{path}"


class CountedConnection(ClientConnection):
    """A websocket that counts the bytes it reads off the wire: frames as sent, compressed (permessage-deflate)."""

    stats: Stats

    def data_received(self, data: bytes) -> None:
        self.stats.wire_bytes += len(data)
        super().data_received(data)


def counted_connection(stats: Stats) -> type[CountedConnection]:
    return type("CountedConnection", (CountedConnection,), {"stats": stats})


@dataclass
class Clock:
    """The run's schedule on the event loop's clock: play until `stop`, finish hands until `hard_stop`."""

    stop: float
    hard_stop: float

    def now(self) -> float:
        return time.perf_counter()


@dataclass
class Pending:
    action: str
    version: int
    key: tuple | None
    sent: float


class Bot:
    """One player: a websocket, reconnected when it drops, that never takes the run down with it."""

    path = "/"

    def __init__(self, number: int, url: str, stats: Stats, clock: Clock, *, think_ms: int,
                 reply_timeout: float, cookie: str | None = None) -> None:
        self.number = number
        self.url = url
        self.stats = stats
        self.clock = clock
        self.think_ms = think_ms
        self.reply_timeout = reply_timeout
        self.cookie = cookie
        self.random = random.Random(number)
        self.done = False
        self.connection = counted_connection(stats)

    def think(self) -> float:
        """Seconds a person takes to click: the think time, jittered by ±50%."""
        return self.think_ms / 1000 * self.random.uniform(0.5, 1.5)

    async def run(self, start_delay: float = 0.0) -> None:
        await asyncio.sleep(start_delay)
        failures = 0
        while not self.done and self.clock.now() < self.clock.hard_stop:
            opened = False
            try:
                headers = {"Origin": _origin(self.url)}
                if self.cookie:
                    headers["Cookie"] = f"sessionid={self.cookie}"
                async with websockets.connect(
                    ws_url(self.url, self.path), additional_headers=headers, open_timeout=self.reply_timeout,
                    close_timeout=2, max_size=2**22, ping_interval=None, create_connection=self.connection,
                ) as ws:
                    opened = True
                    failures = 0
                    await self.session(ws)
                return
            except CONNECT_ERRORS as error:
                if self.done or self.clock.now() >= self.clock.hard_stop:
                    return
                self.stats.error("connection dropped" if opened else "connect failed", f"bot {self.number}: {error!r}")
                failures += 1
                if failures > MAX_RECONNECTS:
                    self.stats.error("bot gave up", f"bot {self.number}: {MAX_RECONNECTS} reconnects in a row failed")
                    return
                self.stats.reconnects += 1
                await asyncio.sleep(min(5.0, 0.25 * 2**failures) * self.random.uniform(0.5, 1.5))
            except asyncio.CancelledError:
                raise
            except Exception as error:  # one bot's bug must not end the run
                self.stats.error(f"exception {type(error).__name__}", f"bot {self.number}: {error!r}")
                return

    async def session(self, ws) -> None:
        raise NotImplementedError

    async def receive(self, ws, timeout: float) -> tuple[str | None, float]:
        """The next frame and when it came, or (None, now) after `timeout` seconds."""
        try:
            async with asyncio.timeout(max(0.001, timeout)):
                raw = await ws.recv()
        except TimeoutError:
            return None, self.clock.now()
        received = self.clock.now()
        if isinstance(raw, bytes):
            raw = raw.decode("utf-8", "replace")
        self.stats.frames += 1
        self.stats.frame_bytes += len(raw.encode())
        return raw, received

    async def send(self, ws, message: dict) -> float:
        self.stats.actions += 1
        self.stats.by_action[message["action"]] += 1
        await ws.send(json.dumps({**message, "HEADERS": HTMX_HEADERS}))
        return self.clock.now()


class GameBot(Bot):
    def __init__(self, number: int, url: str, stats: Stats, clock: Clock, *, table_id: int, seat: int,
                 profile: str, **kwargs) -> None:
        super().__init__(number, url, stats, clock, **kwargs)
        self.path = f"/ws/tables/{table_id}/"
        self.table_id = table_id
        self.preferred_seat = seat
        self.profile = profile
        self.frame = frames.Frame()
        self.answered_key: tuple | None = None  # the last question the bot answered
        self.seatless_since: float | None = None

    async def session(self, ws) -> None:
        pending: Pending | None = None
        thinking_until: float | None = None
        # A fresh connection shows the table as it stands: whatever was in flight is answered or lost.
        self.frame = frames.Frame()
        self.answered_key = None
        self.seatless_since = self.clock.now()
        while True:
            now = self.clock.now()
            if now >= self.clock.hard_stop:
                return
            wait = 1.0
            if thinking_until is not None:
                wait = min(wait, thinking_until - now)
            if pending is not None:
                wait = min(wait, pending.sent + self.reply_timeout - now)
            raw, now = await self.receive(ws, wait)
            if raw is not None:
                self.frame.update(raw)
                if pending is not None and self._answers(pending, now):
                    pending = None
            if pending is not None and now - pending.sent > self.reply_timeout:
                self.stats.error("no answer in time", f"bot {self.number}: {pending.action} at version {pending.version}")
                pending = None
            if pending is not None:
                continue
            stopping = now >= self.clock.stop
            if stopping and self._finished():
                self.done = True
                return
            message = self._next_message(stopping, now)
            if message is None:
                thinking_until = None
            elif thinking_until is None:
                # After the end the bots finish their hands without thinking, to free the seats quickly.
                thinking_until = now + (0.0 if stopping else self.think())
            elif now >= thinking_until:
                thinking_until = None
                key = self.frame.decision_key()
                sent = await self.send(ws, message)
                if stopping:
                    self.stats.drain_actions += 1
                pending = Pending(message["action"], self.frame.version or 0, key, sent)
                self.answered_key = key if message["action"] not in ("sit", "leave") else self.answered_key

    def _answers(self, pending: Pending, received: float) -> bool:
        frame = self.frame
        if frame.notice:
            self._measure(pending, received)
            if pending.action == "sit" and frame.notice.startswith(EXPECTED_SIT_NOTICES):
                self.stats.expected_refusals[frame.notice] += 1
                self.preferred_seat = 0  # someone was quicker: take any free seat next time
            else:
                self.stats.error(f"refused: {frame.notice[:80]}", f"bot {self.number}: {pending.action} at version {pending.version}")
            return True
        # A seat leaving at the round's end shows no form between its turns, so
        # its frames carry no version: then the question having moved on must do.
        if frame.version is not None and frame.version <= pending.version:
            return False
        if pending.action == "leave":
            moved_on = not frame.my_seats or frame.leaving
        elif pending.action == "sit":
            moved_on = bool(frame.my_seats)
        else:
            moved_on = frame.decision_key() != pending.key
        if moved_on:
            self._measure(pending, received)
        return moved_on

    def _measure(self, pending: Pending, received: float) -> None:
        if pending.sent < self.clock.stop:
            self.stats.answered(pending.action, pending.sent, received)

    def _finished(self) -> bool:
        """After the run: done once the bot has no seat (a leaver's is freed when its round ends)."""
        return not self.frame.my_seats

    def _next_message(self, stopping: bool, now: float) -> dict | None:
        frame = self.frame
        if not frame.my_seats:
            return None if stopping else self._sit(now)
        self.seatless_since = None
        if frame.controls:
            if frame.decision_key() == self.answered_key:
                return None  # answered already; its frame is on the way
            return frames.choose(frame, self.profile, stopping=stopping)
        if stopping and not frame.leaving and frame.version is not None:
            return {"action": "leave", "seat": str(frame.my_seats[0]), "version": str(frame.version)}
        return None

    def _sit(self, now: float) -> dict | None:
        frame = self.frame
        if not frame.free_seats or frame.version is None:
            if self.seatless_since is not None and now - self.seatless_since > 3 * self.reply_timeout:
                self.stats.error("no free seat", f"bot {self.number} at table {self.table_id}")
                self.seatless_since = None  # said once; keep watching for a seat
            return None
        seat = self.preferred_seat if self.preferred_seat in frame.free_seats else self.random.choice(sorted(frame.free_seats))
        return {"action": "sit", "seat": str(seat), "buy_in": str(frame.free_seats[seat]), "version": str(frame.version)}


class EchoBot(Bot):
    """The same pace and message size as a game bot, against the bare echo consumer."""

    path = "/ws/echo/"

    async def session(self, ws) -> None:
        version = 0
        while self.clock.now() < self.clock.stop:
            await asyncio.sleep(min(self.think(), max(0.0, self.clock.stop - self.clock.now())))
            if self.clock.now() >= self.clock.stop:
                break
            version += 1
            message = {"action": self.random.choice(("hit", "stand", "bet")), "seat": str(self.number % 5 + 1),
                       "hand": "0", "version": str(version)}
            sent = await self.send(ws, message)
            while True:
                raw, received = await self.receive(ws, sent + self.reply_timeout - self.clock.now())
                if raw is None:
                    self.stats.error("no answer in time", f"bot {self.number}: echo {version}")
                    break
                if f'"version": "{version}"' in raw:
                    self.stats.answered("echo", sent, received)
                    break
        self.done = True


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"
