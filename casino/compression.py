"""Frames compressed on the wire: daphne's websockets accept `permessage-deflate` (RFC 7692).

A table's frames are small HTML pieces that repeat themselves: the same
markup around a new card, the same seat header with a new countdown. With
one deflate stream per connection (context takeover), each frame is
compressed against the frames before it, and the bytes on the wire fall by
about five times (docs/performance.md, `benchmarks/play_cost.py`).
Every browser offers the extension; autobahn, under daphne, implements it;
daphne only never turns it on. `enable()` does, before daphne's server
makes its websocket factory (casino/asgi.py calls it when daphne imports the
application, which daphne does before it starts listening).

Each frame is compressed at zlib's level 3, not its default 6: deflating a
play's frames for five viewers took about a twelfth of a play's CPU at level
6, half that at 3, for about 60% more bytes (555 a play for the five
viewers against 341; docs/performance.md, "Seventeenth check"). The frames
are small and the target is 3 KB: the CPU is what limits a process.

Memory is bounded per connection: the server compresses with a 16 KiB window
(`server_max_window_bits=14`) and zlib's memory level 5, about 80 KiB a
connection instead of zlib's default 256 KiB. The window holds the last ten
or so frames, so a seat or a row of buttons sent a few frames ago is still
in it: against the 4 KiB window this used to have (two or three frames), a
play's frames take a third of the bytes and half the compressing, as long
matches cost less to find and to write than short ones
(docs/performance.md, "Tenth check"). A 32 KiB window would save another
8% of the bytes for another 64 KiB a connection.

Compression and secrets: an attacker who can both choose text in a
compressed stream and watch its compressed length can guess other text in
the same stream (CRIME, BREACH). A table's frames carry nothing of the
kind: no CSRF token (the table's forms post over the socket, which needs
none), no session, no hole card or shoe seed before the table shows them to
everyone. Player names, which other players choose, share the stream only
with what that viewer may see anyway.

WEBSOCKET_DEFLATE=false turns it off (casino/settings.py).
"""

from __future__ import annotations

import sys
import zlib

from autobahn.websocket.compress import PerMessageDeflate, PerMessageDeflateOffer, PerMessageDeflateOfferAccept

#: The server's deflate window (2**14 bytes) and zlib memory level: ~80 KiB per connection.
WINDOW_BITS = 14
MEM_LEVEL = 5
#: zlib's compression level for the server's frames (its default is 6).
LEVEL = 3


class Deflate(PerMessageDeflate):
    """autobahn's `permessage-deflate` on the server's side, its frames compressed at `LEVEL`."""

    def start_compress_message(self) -> None:
        # One stream for the connection, unless the browser asked for none (a fresh one each frame).
        if self._compressor is None or self.server_no_context_takeover:
            self._compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -self.server_max_window_bits, self.mem_level)


def accept(offers: list) -> PerMessageDeflateOfferAccept | None:
    """Accept the browser's first `permessage-deflate` offer, with the server's smaller window."""
    for offer in offers:
        if isinstance(offer, PerMessageDeflateOffer):
            window = WINDOW_BITS
            if offer.request_max_window_bits:
                window = min(window, offer.request_max_window_bits)
            return PerMessageDeflateOfferAccept(offer, window_bits=window, mem_level=MEM_LEVEL)
    return None


def enable() -> bool:
    """Under daphne: make its websocket factory accept `permessage-deflate`. False when daphne is not serving."""
    server = sys.modules.get("daphne.server")
    if server is None:
        return False
    factory = server.WebSocketFactory
    if getattr(factory, "deflates", False):
        return True

    class DeflatingProtocol(factory.protocol):
        def succeedHandshake(self, response):
            # autobahn made its `permessage-deflate` for the offer `accept` took: compress at LEVEL.
            result = super().succeedHandshake(response)
            if type(self._perMessageCompress) is PerMessageDeflate:
                self._perMessageCompress.__class__ = Deflate
            return result

    class DeflatingWebSocketFactory(factory):
        deflates = True
        protocol = DeflatingProtocol

        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            self.setProtocolOptions(perMessageCompressionAccept=accept)

    server.WebSocketFactory = DeflatingWebSocketFactory
    return True
