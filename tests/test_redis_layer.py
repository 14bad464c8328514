"""The Redis channel layer's group sends: channels_redis's, in two round trips (casino/redis_layer.py)."""

from __future__ import annotations

import time
from unittest import mock

import pytest
from channels_redis.core import RedisChannelLayer
from redis.asyncio import Redis

from casino.redis_layer import RedisLayer
from tests.conftest import own_channel_layer

pytestmark = pytest.mark.asyncio


@pytest.fixture
def layers():
    """This layer and channels_redis's own, on a key prefix of the test's own."""
    from django.conf import settings

    if not settings.REDIS_URL:
        pytest.skip("the in-memory channel layer (no REDIS_URL)")
    with own_channel_layer() as prefix:
        config = {**settings.CHANNEL_LAYERS["default"]["CONFIG"], "prefix": prefix, "capacity": 3}
        yield RedisLayer(**config), RedisChannelLayer(**config)


async def flushed(*layers) -> None:
    for layer in layers:
        await layer.flush()


async def test_the_settings_use_it():
    from channels.layers import get_channel_layer
    from django.conf import settings

    if not settings.REDIS_URL:
        pytest.skip("the in-memory channel layer (no REDIS_URL)")
    assert isinstance(get_channel_layer(), RedisLayer)


async def test_it_reaches_every_member_as_channels_redis_does_and_either_hears_the_other(layers):
    ours, theirs = layers
    try:
        alice, bob = await ours.new_channel(), await ours.new_channel()  # one process's two channels: one key
        carol = await theirs.new_channel()  # another process, on channels_redis's own class
        for channel in (alice, bob, carol):
            await ours.group_add("table-1", channel)

        await ours.group_send("table-1", {"type": "table.changed", "table": 1, "version": 7})
        await theirs.group_send("table-1", {"type": "table.changed", "table": 1, "version": 8})

        for layer, channel in ((ours, alice), (ours, bob), (theirs, carol)):
            assert [await layer.receive(channel), await layer.receive(channel)] == [
                {"type": "table.changed", "table": 1, "version": 7},
                {"type": "table.changed", "table": 1, "version": 8},
            ]
    finally:
        await flushed(ours, theirs)


async def test_a_send_is_two_round_trips(layers):
    ours, _ = layers
    try:
        for _ in range(3):
            await ours.group_add("table-1", await ours.new_channel())
        await ours.group_send("table-1", {"type": "table.changed", "table": 1, "version": 1})  # loads the scripts

        with mock.patch.object(Redis, "execute_command", autospec=True, side_effect=Redis.execute_command) as sent:
            await ours.group_send("table-1", {"type": "table.changed", "table": 1, "version": 2})
        assert [call.args[1] for call in sent.call_args_list] == ["EVALSHA", "EVALSHA"]
    finally:
        await ours.flush()


async def test_a_group_nobody_is_in_costs_one_round_trip(layers):
    ours, _ = layers
    try:
        with mock.patch.object(Redis, "execute_command", autospec=True, side_effect=Redis.execute_command) as sent:
            await ours.group_send("table-9", {"type": "table.changed", "table": 9, "version": 1})
        assert [call.args[1] for call in sent.call_args_list if call.args[1] != "SCRIPT LOAD"] == ["EVALSHA"]
    finally:
        await ours.flush()


async def test_it_drops_expired_members_and_messages_and_keeps_to_the_capacity(layers):
    ours, _ = layers
    try:
        gone, full, here = await ours.new_channel(), await ours.new_channel("full"), await ours.new_channel("here")
        for channel in (gone, full, here):
            await ours.group_add("table-1", channel)
        connection = ours.connection(0)
        group = ours._group_key("table-1")

        def key(channel: str) -> str:  # where channels_redis keeps a channel's messages
            return ours.prefix + ours.non_local_name(channel)

        # `gone` joined longer ago than the group expiry: dropped, and sent nothing.
        await connection.zadd(group, {gone: int(time.time()) - ours.group_expiry - 10})
        # `full` holds its capacity (3) of messages; `here` holds one that has expired.
        for n in range(3):
            await ours.send(full, {"type": "waiting", "n": n})
        await ours.send(here, {"type": "stale"})
        await connection.zadd(key(here), dict.fromkeys(await connection.zrange(key(here), 0, -1), 1))

        with mock.patch("casino.redis_layer.log") as log:
            await ours.group_send("table-1", {"type": "table.changed", "table": 1, "version": 3})

        assert [m.decode() for m in await connection.zrange(group, 0, -1)] == sorted([full, here])
        assert await ours.receive(here) == {"type": "table.changed", "table": 1, "version": 3}  # not the stale one
        assert [(await ours.receive(full))["type"] for _ in range(3)] == ["waiting"] * 3
        assert await connection.zcard(key(full)) == 0  # the change was dropped, not queued
        log.info.assert_called_once_with("%s of %s channels over capacity in group %s", 1, 2, "table-1")
        assert await connection.zcard(key(gone)) == 0
    finally:
        await ours.flush()


async def test_it_loads_its_scripts_again_after_redis_forgets_them(layers):
    ours, _ = layers
    try:
        channel = await ours.new_channel()
        await ours.group_add("table-1", channel)
        await ours.group_send("table-1", {"type": "table.changed", "table": 1, "version": 1})
        await ours.connection(0).script_flush()  # as a Redis restart does

        await ours.group_send("table-1", {"type": "table.changed", "table": 1, "version": 2})

        assert [(await ours.receive(channel))["version"] for _ in range(2)] == [1, 2]
    finally:
        await ours.flush()
