"""After a commit: the viewers are told through the event loop, and the committing thread goes on.

This process's viewers are shown the change directly; other processes hear of it through the layer.
"""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import BaseChannelLayer, InMemoryChannelLayer

from tables.live import broadcast, frames
from tables.live.audience import audience
from tables.play import timers


@pytest.fixture
def no_loop(monkeypatch):
    monkeypatch.setattr(timers, "_loop", None)


@pytest.mark.asyncio
async def test_it_hands_work_to_the_loop_without_waiting_for_it(monkeypatch):
    monkeypatch.setattr(timers, "_loop", None)
    timers.remember_loop()
    started = asyncio.Event()
    release = asyncio.Event()

    async def slow() -> None:
        started.set()
        await release.wait()

    # From another thread, as after a commit in Channels' database thread: were
    # run_soon to wait for `slow`, this would never return.
    assert await asyncio.wait_for(asyncio.to_thread(timers.run_soon, slow), timeout=5) is True
    await asyncio.wait_for(started.wait(), timeout=5)
    release.set()


class Watcher:
    """A viewer of the table, as the audience sees one: it records each version it is shown."""

    def __init__(self) -> None:
        self.shown: list[int] = []
        self.showed = asyncio.Event()

    def needs(self, version: int) -> bool:
        return not self.shown or version > self.shown[-1]

    def ready(self, version: int) -> bool:
        return True

    async def show(self, version: int) -> None:
        self.shown.append(version)
        self.showed.set()


class OtherProcessesLayer(BaseChannelLayer):
    """A layer that reaches other processes (as Redis does): it records what is sent to a group."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[tuple[str, dict]] = []

    async def new_channel(self, prefix: str = "specific.") -> str:
        return f"{prefix}test"

    async def group_add(self, group: str, channel: str) -> None:
        pass

    async def group_discard(self, group: str, channel: str) -> None:
        pass

    async def receive(self, channel: str) -> dict:
        await asyncio.Event().wait()  # nothing comes back from the other processes here

    async def group_send(self, group: str, message: dict) -> None:
        self.sent.append((group, message))


@pytest.fixture
def table_held(monkeypatch):
    """Table 7 needs no read from the database: this process holds every version of it."""

    async def held(table_id: int, version: int) -> None:
        pass

    monkeypatch.setattr(frames, "read", held)


async def watch(monkeypatch, layer, table_id: int) -> Watcher:
    """A viewer of the table on this loop, whose changes go through `layer`."""
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    monkeypatch.setattr(timers, "_loop", None)
    timers.remember_loop()
    watcher = Watcher()
    await audience(layer).join(table_id, watcher)
    return watcher


@pytest.mark.asyncio
async def test_this_process_viewers_are_shown_a_change_without_the_in_memory_layer(monkeypatch, table_held):
    layer = InMemoryChannelLayer()
    watcher = await watch(monkeypatch, layer, 7)
    sent = []
    monkeypatch.setattr(layer, "group_send", lambda *args: sent.append(args))

    # From another thread, as after a commit in Channels' database thread; it does not wait for the viewers.
    await asyncio.to_thread(broadcast.table_changed, 7, 12)

    await asyncio.wait_for(watcher.showed.wait(), timeout=5)
    assert watcher.shown == [12]
    assert sent == []  # the layer reaches this process only: its viewers were told directly
    await audience(layer).leave(7, watcher)


@pytest.mark.asyncio
async def test_a_layer_to_other_processes_gets_the_change_and_this_process_shows_it_at_once(monkeypatch, table_held):
    layer = OtherProcessesLayer()
    watcher = await watch(monkeypatch, layer, 7)

    await asyncio.to_thread(broadcast.table_changed, 7, 12)

    # Shown here without waiting for the event to come back through the layer (it never does here).
    await asyncio.wait_for(watcher.showed.wait(), timeout=5)
    assert watcher.shown == [12]
    await asyncio.sleep(0)
    assert layer.sent == [(broadcast.group_name(7), {"type": "table.changed", "table": 7, "version": 12})]
    await audience(layer).leave(7, watcher)


def test_without_a_loop_it_sends_there_and_then(no_loop):
    sent = []

    async def send() -> None:
        sent.append(True)

    assert timers.run_soon(send) is False  # a management command or a test: the caller sends itself
    assert sent == []
