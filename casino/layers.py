"""The channel layer of a single process (no REDIS_URL): Channels' in-memory layer, made cheaper per message."""

from __future__ import annotations

import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer


class ThrottledCleanupLayer(InMemoryChannelLayer):
    """Channels' InMemoryChannelLayer, dropping expired messages and groups once a second.

    The stock layer scans every channel and every group membership on each
    send and receive: with a few hundred players that is thousands of steps
    for every frame. Messages expire after a minute and memberships after a
    day, so a second's delay in noticing changes nothing. Its group_send
    also starts a task per member for a send that never waits; here the
    members' queues are filled in turn.
    """

    cleanup_interval = 1.0

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._next_cleanup = 0.0

    async def group_send(self, group: str, message: dict) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, {})):
            try:
                await self.send(channel, message)
            except ChannelFull:
                pass  # as the stock layer: a full channel misses this one, the others do not

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now < self._next_cleanup:
            return
        self._next_cleanup = now + self.cleanup_interval
        super()._clean_expired()
