"""The channel layer's Redis connections keep a cancellation that arrives as a write completes (casino/redis_connections.py)."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio.connection import SSLConnection, UnixDomainSocketConnection
from redis.exceptions import TimeoutError as RedisTimeoutError

from casino.redis_connections import (
    CancelSafeConnection,
    CancelSafeSSLConnection,
    CancelSafeUnixDomainSocketConnection,
    channel_layer_host,
)


class Writer:
    """Stands in for the connection's stream writer; `on_drain` runs as each write is flushed."""

    def __init__(self, on_drain=None) -> None:
        self.written: list[bytes] = []
        self.on_drain = on_drain
        self.closed = False

    def writelines(self, data) -> None:
        self.written.extend(data)

    async def drain(self) -> None:
        if self.on_drain is not None:
            await self.on_drain()

    def close(self) -> None:
        self.closed = True


def connected(writer: Writer, **options) -> CancelSafeConnection:
    connection = CancelSafeConnection(socket_timeout=10, **options)
    connection._reader, connection._writer = object(), writer
    return connection


@pytest.mark.asyncio
async def test_it_keeps_a_cancellation_that_arrives_as_the_write_completes():
    # channels_redis's receive: write BZPOPMIN, wait for Redis, write it again, ...
    # Under asyncio.wait_for (redis-py's own write), the cancellation below was
    # lost and this loop polled for ever.
    task: asyncio.Task | None = None

    async def cancel_as_it_completes() -> None:
        asyncio.get_running_loop().call_soon(task.cancel)

    writer = Writer(on_drain=cancel_as_it_completes)
    connection = connected(writer)

    async def receive() -> None:
        while True:
            await connection.send_packed_command(b"BZPOPMIN\r\n", check_health=False)
            await asyncio.sleep(0.01)  # Redis answers: nothing yet

    task = asyncio.ensure_future(receive())
    done, _ = await asyncio.wait([task], timeout=2)
    assert done and task.cancelled()
    assert writer.written == [b"BZPOPMIN\r\n"]


@pytest.mark.asyncio
async def test_it_disconnects_when_a_write_is_cancelled_midway():
    async def stall() -> None:
        await asyncio.sleep(3600)

    writer = Writer(on_drain=stall)
    connection = connected(writer)
    task = asyncio.ensure_future(connection.send_packed_command(b"PING\r\n", check_health=False))
    await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # Half a command may be on the wire: the connection is not used again.
    assert writer.closed and not connection.is_connected


@pytest.mark.asyncio
async def test_a_write_that_outlasts_the_socket_timeout_is_redis_pys_timeout_error():
    async def stall() -> None:
        await asyncio.sleep(3600)

    writer = Writer(on_drain=stall)
    connection = CancelSafeConnection(socket_timeout=0.05)
    connection._reader, connection._writer = object(), writer
    with pytest.raises(RedisTimeoutError, match="Timeout writing to socket"):
        await connection.send_packed_command(b"PING\r\n", check_health=False)
    assert writer.closed and not connection.is_connected


@pytest.mark.asyncio
async def test_a_broken_pipe_is_redis_pys_connection_error():
    async def broken() -> None:
        raise BrokenPipeError(32, "Broken pipe")

    from redis.exceptions import ConnectionError as RedisConnectionError

    connection = connected(Writer(on_drain=broken))
    with pytest.raises(RedisConnectionError, match="Error 32 while writing to socket. Broken pipe."):
        await connection.send_packed_command(b"PING\r\n", check_health=False)


@pytest.mark.parametrize(
    ("url", "connection_class"),
    [
        ("redis://127.0.0.1:6379/0", CancelSafeConnection),
        ("rediss://user:secret@redis.example.com:6380/2", CancelSafeSSLConnection),
        ("unix:///run/redis.sock?db=1", CancelSafeUnixDomainSocketConnection),
    ],
)
def test_the_channel_layers_hosts_use_the_cancel_safe_classes(url, connection_class):
    host = channel_layer_host(url, max_connections=200, socket_timeout=10)
    assert host["connection_class"] is connection_class
    assert host["max_connections"] == 200 and host["socket_timeout"] == 10
    if url.startswith("rediss"):
        assert issubclass(connection_class, SSLConnection)
        assert (host["host"], host["port"], host["db"], host["username"], host["password"]) == (
            "redis.example.com", 6380, 2, "user", "secret",
        )  # fmt: skip
    if url.startswith("unix"):
        assert issubclass(connection_class, UnixDomainSocketConnection)
        assert (host["path"], host["db"]) == ("/run/redis.sock", 1)


def test_the_settings_give_the_redis_layer_the_cancel_safe_connections():
    from django.conf import settings

    if not settings.REDIS_URL:
        pytest.skip("the in-memory channel layer (no REDIS_URL)")
    from channels.layers import get_channel_layer
    from channels_redis.utils import create_pool

    layer = get_channel_layer()
    pool = create_pool(layer.hosts[0])
    assert pool.connection_class is CancelSafeConnection
    assert pool.connection_kwargs["socket_timeout"] == 10
