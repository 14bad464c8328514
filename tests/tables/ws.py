"""A player's browser tab, as far as the table's websocket is concerned."""

from __future__ import annotations

import json
import re

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from casino.asgi import application

ORIGIN = "http://localhost"


def _session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


class Tab:
    """One websocket to a table: send the page's forms, read the frames it pushes."""

    def __init__(self, communicator: WebsocketCommunicator) -> None:
        self.communicator = communicator
        self.frames: list[str] = []

    @classmethod
    async def open(cls, table, user=None, *, origin: str = ORIGIN, expect_open: bool = True) -> Tab:
        headers = [(b"origin", origin.encode())]
        if user is not None:
            cookie = await database_sync_to_async(_session_cookie)(user)
            headers.append((b"cookie", f"sessionid={cookie}".encode()))
        communicator = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=headers)
        connected, _ = await communicator.connect(timeout=5)
        tab = cls(communicator)
        tab.connected = connected
        if connected and expect_open:
            await tab.receive()
        return tab

    async def receive(self, timeout: float = 5) -> str:
        frame = await self.communicator.receive_from(timeout=timeout)
        self.frames.append(frame)
        return frame

    async def receive_until(self, text: str, timeout: float = 5) -> str:
        """The latest frame if it contains `text`, else frames until one does."""
        if self.frames and text in self.frames[-1] and await self.communicator.receive_nothing(timeout=0.05):
            return self.frames[-1]
        while True:
            frame = await self.receive(timeout=timeout)
            if text in frame:
                return frame

    async def drain(self) -> None:
        while not await self.communicator.receive_nothing(timeout=0.2):
            await self.receive()

    @property
    def last(self) -> str:
        return self.frames[-1]

    @property
    def version(self) -> str:
        """The version the page's forms carry now."""
        for frame in reversed(self.frames):
            if (version := frame_version(frame)) is not None:
                return str(version)
        raise AssertionError("no frame carried a version")

    async def send(self, action: str, seat: int, *, version: str | None = None, **fields) -> None:
        """What htmx's ws-send sends: the form's fields and the clicked button, as strings."""
        message = {"action": action, "seat": str(seat), "HEADERS": {"HX-Request": "true"}}
        if version is not None:
            message["version"] = version
        message.update({key: str(value) for key, value in fields.items()})
        await self.communicator.send_to(text_data=json.dumps(message))

    async def act(self, action: str, seat: int, **fields) -> str:
        """Send an action made against the latest frame; return the first frame after it.

        That is the first frame of a later version (the action, or something
        after it) or one with a notice (the action was refused).
        """
        sent = int(self.version)
        await self.send(action, seat, version=str(sent), hand=fields.pop("hand", 0), **fields)
        while True:
            frame = await self.receive()
            if notice(frame) or (frame_version(frame) or 0) > sent:
                return frame

    async def close(self) -> None:
        await self.communicator.disconnect()


def notice(frame: str) -> str:
    match = re.search(r'<div id="notice"[^>]*>(.*?)</div>', frame, re.S)
    return match.group(1).strip() if match else ""


def frame_version(frame: str) -> int | None:
    match = re.search(r'name="version" value="(\d+)"', frame)
    return int(match.group(1)) if match else None
