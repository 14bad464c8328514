"""Redis connections whose writes never lose a cancellation: the channel layer's hosts (casino/settings.py).

redis-py (7.x) times a command's write with `asyncio.wait_for` when the
connection has a `socket_timeout`. On Python 3.11, `wait_for` returns the
result instead of raising when its task is cancelled just as the write
completes (CPython gh-86296, fixed in 3.12): the cancellation is lost. A
consumer's `channel_layer.receive` is cancelled when its socket closes, and
channels_redis receives in a loop of BZPOPMINs until a message comes; one
that lost its cancellation went on polling Redis every 5 s for ever, a task
and a connection leaked per unlucky disconnect (about one in 30 in
tests/test_redis_connections.py's conditions), and an event loop shutting
down (a test's, a server's) waited for it without end.

These classes time the write with `asyncio.timeout` instead, which raises
the cancellation (Python >= 3.11.3); everything else is redis-py's. The
reads already use `asyncio.timeout`.
"""

from __future__ import annotations

import asyncio
from typing import Any

from redis.asyncio.connection import Connection, SSLConnection, UnixDomainSocketConnection, parse_url
from redis.exceptions import ConnectionError, TimeoutError


class CancelSafeWrite:
    """Mixed into a redis-py asyncio connection class: its `send_packed_command`, timed with `asyncio.timeout`."""

    async def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        if not self.is_connected:
            await self.connect_check_health(check_health=False)
        if check_health:
            await self.check_health()
        if isinstance(command, str):
            command = command.encode()
        if isinstance(command, bytes):
            command = [command]
        try:
            async with asyncio.timeout(self.socket_timeout or None):
                self._writer.writelines(command)
                await self._writer.drain()
        except asyncio.TimeoutError:
            await self.disconnect(nowait=True)
            raise TimeoutError("Timeout writing to socket") from None
        except OSError as error:
            await self.disconnect(nowait=True)
            number, message = ("UNKNOWN", error.args[0]) if len(error.args) == 1 else error.args[:2]
            raise ConnectionError(f"Error {number} while writing to socket. {message}.") from error
        except BaseException:
            # As redis-py: a write cut short (a cancellation) leaves the connection unusable.
            await self.disconnect(nowait=True)
            raise


class CancelSafeConnection(CancelSafeWrite, Connection):
    pass


class CancelSafeSSLConnection(CancelSafeWrite, SSLConnection):
    pass


class CancelSafeUnixDomainSocketConnection(CancelSafeWrite, UnixDomainSocketConnection):
    pass


_CANCEL_SAFE = {
    Connection: CancelSafeConnection,
    SSLConnection: CancelSafeSSLConnection,
    UnixDomainSocketConnection: CancelSafeUnixDomainSocketConnection,
}


def channel_layer_host(url: str, **options: Any) -> dict[str, Any]:
    """A channels_redis `hosts` entry for `url`: its connection pool's keywords, with a cancel-safe connection class.

    Not `{"address": url}`: channels_redis would pass the URL to redis-py's
    `ConnectionPool.from_url`, which sets the class for `rediss://` itself.
    """
    host = parse_url(url)
    host["connection_class"] = _CANCEL_SAFE[host.get("connection_class", Connection)]
    return {**host, **options}
