"""A player's browser tab, as far as the table's websocket is concerned."""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from casino.asgi import application

ORIGIN = "http://localhost"


def same_origin_headers(origin: str = ORIGIN) -> list[tuple[bytes, bytes]]:
    """Origin, and the Host a page at that origin opens its socket to (casino/origins.py compares the two)."""
    return [(b"origin", origin.encode()), (b"host", urlsplit(origin).netloc.encode())]


def communicator(path: str, headers: list[tuple[bytes, bytes]], *, origin: str = ORIGIN) -> WebsocketCommunicator:
    """A socket to `path` as a page at `origin` opens it: wss from an https page."""
    socket = WebsocketCommunicator(application, path, headers=headers)
    # Read when the application first runs, on the next turn of the loop.
    socket.scope["scheme"] = "wss" if origin.startswith("https:") else "ws"
    return socket


def _session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


class Page:
    """The table page as a browser holds it: each frame's pieces swapped in by id (htmx's ws extension)."""

    ORDER = ("bankroll", "status", "turn", "dealer", "result", "seats", "notice", "controls", "hints-switch", "log", "version")

    def __init__(self) -> None:
        self.pieces: dict[str, str] = {}
        self.seats: dict[int, str] = {}
        self.log_lines: list[str] = []

    def apply(self, frame: str) -> None:
        for piece_id, html in top_level_pieces(frame):
            if piece_id == "seats":
                self.seats = {int(n): seat for seat, n in re.findall(r'(<article id="seat-(\d+)".*?</article>)', html, re.S)}
            elif re.fullmatch(r"seat-\d+", piece_id):
                self.seats[int(piece_id[5:])] = html
            elif match := re.fullmatch(r"seat-(\d+)-\w+", piece_id):
                # One part of a seat (its head, stack or play): swapped in by id, as htmx does.
                self.seats[int(match.group(1))] = swap_part(self.seats[int(match.group(1))], piece_id, html)
            elif piece_id == "log":
                self.pieces["log"] = html
                self.log_lines = re.findall(r"<li>(.*?)</li>", html, re.S)
            elif piece_id == "log-lines":  # hx-swap-oob="beforeend": new lines of the round
                self.log_lines += re.findall(r"<li>(.*?)</li>", html, re.S)
            else:
                self.pieces[piece_id] = html

    @property
    def html(self) -> str:
        parts = []
        for piece_id in self.ORDER:
            if piece_id == "seats":
                parts += [self.seats[n] for n in sorted(self.seats)]
            elif piece_id == "log":
                parts.append("<ol>" + "".join(f"<li>{line}</li>" for line in self.log_lines) + "</ol>")
            elif piece_id in self.pieces:
                parts.append(self.pieces[piece_id])
        return "\n".join(parts)


def swap_part(piece: str, part_id: str, html: str) -> str:
    """`piece` with its element of id `part_id` (nested elements and all) replaced by `html`, as htmx swaps it."""
    found = re.search(rf'<(\w+)[^<>]* id="{re.escape(part_id)}"', piece)
    assert found is not None, f"no #{part_id} in the page's piece"
    same_tag = re.compile(rf"<(/?){found.group(1)}[\s>]")  # its tag opened or closed within it, and its end
    depth, end = 1, found.end()
    while depth:
        element = same_tag.search(piece, end)
        assert element is not None, f"#{part_id} is never closed"
        depth += -1 if element.group(1) else 1
        end = element.end()  # after a closing tag's ">"
    return piece[: found.start()] + html + piece[end:]


def top_level_pieces(frame: str) -> list[tuple[str, str]]:
    """A frame's top-level elements, each with its id."""
    pieces, depth, start, current = [], 0, 0, None
    for match in re.finditer(r"<(/?)([a-z]+)([^>]*)>", frame):
        closing, tag, attributes = match.groups()
        if tag in ("input", "br", "img", "meta"):
            continue
        if closing:
            depth -= 1
            if depth == 0:
                pieces.append((current, frame[start : match.end()]))
            continue
        if depth == 0:
            start, current = match.start(), re.search(r'id="([^"]+)"', attributes).group(1)
        depth += 1
    return pieces


class Tab:
    """One websocket to a table: send the page's forms, read the frames it pushes.

    `frames` holds each frame as it came; `last` and what `receive` returns
    are the page as it stands after the frame (a frame carries only what changed).
    """

    def __init__(self, communicator: WebsocketCommunicator) -> None:
        self.communicator = communicator
        self.frames: list[str] = []
        self.page = Page()

    @classmethod
    async def open(cls, table, user=None, *, origin: str = ORIGIN, expect_open: bool = True) -> Tab:
        headers = same_origin_headers(origin)
        if user is not None:
            cookie = await database_sync_to_async(_session_cookie)(user)
            headers.append((b"cookie", f"sessionid={cookie}".encode()))
        socket = communicator(f"/ws/tables/{table.pk}/", headers, origin=origin)
        connected, _ = await socket.connect(timeout=5)
        tab = cls(socket)
        tab.connected = connected
        if connected and expect_open:
            await tab.receive()
        return tab

    async def receive(self, timeout: float = 5) -> str:
        """The next frame, applied: the page as it stands after it."""
        frame = await self.communicator.receive_from(timeout=timeout)
        self.frames.append(frame)
        self.page.apply(frame)
        return self.last

    async def receive_until(self, text: str, timeout: float = 5) -> str:
        """The page once it shows `text`: now, if it does and nothing more is coming, else after more frames."""
        if self.frames and text in self.last and await self.communicator.receive_nothing(timeout=0.05):
            return self.last
        while True:
            page = await self.receive(timeout=timeout)
            if text in page:
                return page

    async def drain(self) -> None:
        while not await self.communicator.receive_nothing(timeout=0.2):
            await self.receive()

    @property
    def last(self) -> str:
        """The page as it stands after the latest frame."""
        return self.page.html

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
            page = await self.receive()
            frame = self.frames[-1]
            if notice(frame) or (frame_version(frame) or 0) > sent:
                return page

    async def close(self) -> None:
        await self.communicator.disconnect()


def notice(frame: str) -> str:
    match = re.search(r'<div id="notice"[^>]*>(.*?)</div>', frame, re.S)
    return match.group(1).strip() if match else ""


def frame_version(frame: str) -> int | None:
    """The table version a frame brings the page to (frames carry only what changed, and this marker)."""
    match = re.search(r'id="version" data-version="(\d+)"', frame)
    return int(match.group(1)) if match else None
