"""The audience's listener stops when asked to, whatever error its channel layer answers with."""

from __future__ import annotations

import asyncio

import pytest

from tables.live.audience import Audience

pytestmark = pytest.mark.asyncio


class LayerThatLosesItsConnection:
    """A channel layer whose receive, when cancelled, raises an error of its own instead.

    channels_redis did so in CI: the loop's shutdown cancelled the listener in the
    middle of a BRPOP, and redis-py answered "Connection closed by server".
    """

    def __init__(self) -> None:
        self.receives = 0
        self.honest = False  # set when the test is over: a cancelled receive is cancelled

    async def new_channel(self) -> str:
        return "specific.test!listener"

    async def group_add(self, group: str, channel: str) -> None:
        pass

    async def group_discard(self, group: str, channel: str) -> None:
        pass

    async def receive(self, channel: str) -> dict:
        self.receives += 1
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            if self.honest:
                raise
            raise ConnectionError("Connection closed by server.") from None
        raise AssertionError("unreachable")


class Watcher:
    def needs(self, version: int) -> bool:
        return False

    def ready(self, version: int) -> bool:
        return True

    async def show(self, version: int) -> None:
        pass


async def test_it_stops_listening_when_cancelled_though_the_layer_answers_with_another_error():
    layer, watcher = LayerThatLosesItsConnection(), Watcher()
    audience = Audience(layer)
    await audience.join(1, watcher)
    listening = list(audience._listening)
    await asyncio.sleep(0)  # the listener is in receive()

    await audience.leave(1, watcher)  # nobody watches: the listener is cancelled

    done, _ = await asyncio.wait(listening, timeout=2)
    if set(done) != set(listening):
        layer.honest = True  # so the test's own loop can shut down: then fail
        for task in listening:
            task.cancel()
        pytest.fail("the listener went on listening after it was cancelled")
    assert all(task.cancelled() for task in listening)
    assert layer.receives == 1  # it did not wait and listen again


async def test_it_listens_again_after_the_layer_fails_on_its_own(monkeypatch):
    """An error nobody asked for (Redis restarting) is logged and the listener goes on."""
    monkeypatch.setattr("tables.live.audience.RETRY_SECONDS", 0.01)
    layer, watcher = LayerThatLosesItsConnection(), Watcher()
    failures = 0

    async def fails_twice(channel: str) -> dict:
        nonlocal failures
        if failures < 2:
            failures += 1
            raise ConnectionError("Connection closed by server.")
        return await LayerThatLosesItsConnection.receive(layer, channel)

    layer.receive = fails_twice
    audience = Audience(layer)
    await audience.join(1, watcher)
    for _ in range(100):
        await asyncio.sleep(0.01)
        if layer.receives:
            break
    assert failures == 2 and layer.receives == 1  # listening again after each failure
    await audience.leave(1, watcher)
