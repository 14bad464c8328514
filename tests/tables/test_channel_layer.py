"""The in-memory channel layer of a single process: Channels' own, cleaned up once a second."""

from __future__ import annotations

import time

import pytest

from casino.layers import ThrottledCleanupLayer


@pytest.mark.asyncio
async def test_it_delivers_a_group_message_to_every_member():
    layer = ThrottledCleanupLayer()
    alice, bob = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table-1", alice)
    await layer.group_add("table-1", bob)

    await layer.group_send("table-1", {"type": "table.changed", "version": 7})

    assert await layer.receive(alice) == {"type": "table.changed", "version": 7}
    assert await layer.receive(bob) == {"type": "table.changed", "version": 7}


@pytest.mark.asyncio
async def test_a_full_channel_misses_a_group_message_and_the_others_still_get_it():
    layer = ThrottledCleanupLayer(capacity=1)
    alice, bob = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table-1", alice)
    await layer.group_add("table-1", bob)
    await layer.send(alice, {"type": "filler"})  # alice's one slot is taken

    await layer.group_send("table-1", {"type": "table.changed", "version": 7})

    assert await layer.receive(alice) == {"type": "filler"}
    assert await layer.receive(bob) == {"type": "table.changed", "version": 7}


@pytest.mark.asyncio
async def test_it_drops_expired_messages_at_most_once_a_second(monkeypatch):
    layer = ThrottledCleanupLayer(expiry=60)
    scans = []
    monkeypatch.setattr("channels.layers.InMemoryChannelLayer._clean_expired", lambda self: scans.append(1))
    channel = await layer.new_channel()
    for version in range(20):
        await layer.group_send("table-1", {"type": "table.changed", "version": version})
    await layer.send(channel, {"type": "x"})
    await layer.receive(channel)
    assert len(scans) == 1  # the stock layer scans on each of those 22 calls

    layer._next_cleanup = 0.0  # a second later
    await layer.group_send("table-1", {"type": "table.changed", "version": 21})
    assert len(scans) == 2


@pytest.mark.asyncio
async def test_it_still_expires_old_messages(monkeypatch):
    layer = ThrottledCleanupLayer(expiry=60)
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "old"})
    later = time.time() + 120
    monkeypatch.setattr("channels.layers.time.time", lambda: later)

    layer._clean_expired()

    assert channel not in layer.channels
