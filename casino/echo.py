"""A bare echo websocket: Channels' own floor, for `manage.py loadtest --echo`.

It sends back each text frame as it came, touching no database, template or
channel layer, so the table's action-to-update latency can be given as a
ratio to what daphne and Channels cost by themselves on the same machine
(docs/performance.md). Mounted at /ws/echo/ by casino.asgi only when
ECHO_ENDPOINT=true: an unauthenticated echo has no business in production.
"""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer

# The same limit as the table's own frames (tables.play.messages.MAX_FRAME_BYTES).
MAX_FRAME_BYTES = 4096
# Autobahn (under daphne) accepts application close codes 1000 and 3000-4999;
# 44xx as the table's own (4403, 4404): 413 Payload Too Large, 415 Unsupported Media Type.
CLOSE_TOO_BIG = 4413
CLOSE_NOT_TEXT = 4415


class EchoConsumer(AsyncWebsocketConsumer):
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is None:
            await self.close(code=CLOSE_NOT_TEXT)
            return
        if len(text_data.encode()) > MAX_FRAME_BYTES:
            await self.close(code=CLOSE_TOO_BIG)
            return
        await self.send(text_data=text_data)
