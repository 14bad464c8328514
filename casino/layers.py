"""The channel layer of a single process (no REDIS_URL): Channels' in-memory layer, cleaned less often."""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer


class ThrottledCleanupLayer(InMemoryChannelLayer):
    """Channels' InMemoryChannelLayer, dropping expired messages and groups once a second.

    The stock layer scans every channel and every group membership on each
    send and receive: with a few hundred players that is thousands of steps
    for every frame. Messages expire after a minute and memberships after a
    day, so a second's delay in noticing changes nothing.
    """

    cleanup_interval = 1.0

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._next_cleanup = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now < self._next_cleanup:
            return
        self._next_cleanup = now + self.cleanup_interval
        super()._clean_expired()
