"""A process hears of a table's change once and shows it to each of its viewers (tables.live.audience)."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer

from channels.db import database_sync_to_async

from tables.live import broadcast
from tables.live.audience import audience
from tables.live.consumers import TableConsumer
from tests.conftest import in_thread
from tests.tables.conftest import make_table, seat_and_bet
from tests.tables.ws import Tab, frame_version

# A channel layer of its own on Redis: the groups it counts hold only its channels.
pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("private_channel_layer")]


async def members(table) -> set[str]:
    """The channels in the table's group: as the in-memory layer keeps them, or as Redis does."""
    layer, group = get_channel_layer(), broadcast.group_name(table.pk)
    if hasattr(layer, "groups"):
        return set(layer.groups.get(group, {}))
    connection = layer.connection(layer.consistent_hash(group))
    return {member.decode() for member in await connection.zrange(layer._group_key(group), 0, -1)}


async def test_it_puts_one_channel_per_process_in_the_tables_group_however_many_watch(multi_table, alice, bob):
    tabs = [await Tab.open(multi_table), await Tab.open(multi_table, alice), await Tab.open(multi_table, bob)]
    here = audience(get_channel_layer())
    assert await members(multi_table) == {here.channel}
    assert len(here.viewers[multi_table.pk]) == 3

    await tabs[0].close()
    assert await members(multi_table) == {here.channel}  # two still watch
    for tab in tabs[1:]:
        await tab.close()
    assert await members(multi_table) == set()
    assert multi_table.pk not in here.viewers
    assert here.channel is None  # nobody watches anything: it stopped listening


async def test_sockets_closing_together_leave_every_group_once_the_last_is_gone(multi_table, alice, bob, carol):
    """The last leaver to take the lock stops the listening; those still queued for it must not use its channel."""
    other = await database_sync_to_async(make_table)(name="The other table")
    tabs = [await Tab.open(multi_table, alice), await Tab.open(multi_table, bob), await Tab.open(other, carol)]
    here = audience(get_channel_layer())
    assert here.players_joined == {alice.pk, bob.pk, carol.pk}
    await asyncio.gather(*(tab.close() for tab in tabs))  # an error of the layer's here would end a socket's application
    assert here.channel is None
    assert (here.viewers, here.joined, here.players, here.players_joined) == ({}, set(), {}, set())
    assert await members(multi_table) == set() and await members(other) == set()


async def test_one_change_reaches_every_viewer_with_the_version_it_made(multi_table, alice, bob, carol):
    tabs = {user: await Tab.open(multi_table, user) for user in (alice, bob, carol)}
    await tabs[alice].act("sit", 1)
    for user in (bob, carol):
        frame = await tabs[user].receive()
        assert "alice" in frame
        assert frame_version(tabs[user].frames[-1]) == int(tabs[alice].version)
    for tab in tabs.values():
        await tab.close()


async def test_a_viewer_busy_with_its_own_click_holds_up_no_one(multi_table, alice, bob, carol):
    bob_tab, carol_tab = await Tab.open(multi_table, bob), await Tab.open(multi_table, carol)
    alice_tab = await Tab.open(multi_table, alice)
    bob_consumer = next(viewer for viewer in audience(get_channel_layer()).viewers[multi_table.pk] if viewer.user == bob)
    await bob_consumer.frame_lock.acquire()  # as while his own click's answer is being made
    try:
        await alice_tab.act("sit", 1)
        assert "alice" in await carol_tab.receive()
        assert await bob_tab.communicator.receive_nothing(timeout=0.2)
    finally:
        bob_consumer.frame_lock.release()
    assert "alice" in await bob_tab.receive()  # shown once his own frame is out
    for tab in (alice_tab, bob_tab, carol_tab):
        await tab.close()


async def test_a_viewer_whose_frame_fails_does_not_stop_the_others(multi_table, alice, bob, carol, monkeypatch):
    bob_tab, carol_tab = await Tab.open(multi_table, bob), await Tab.open(multi_table, carol)
    alice_tab = await Tab.open(multi_table, alice)
    original = TableConsumer.show

    async def broken_for_bob(self, version):
        if self.user == bob:
            raise RuntimeError("a bug in bob's frame")
        await original(self, version)

    monkeypatch.setattr(TableConsumer, "show", broken_for_bob)
    await alice_tab.act("sit", 1)
    assert "alice" in await carol_tab.receive()
    assert await bob_tab.communicator.receive_nothing(timeout=0.2)
    for tab in (alice_tab, bob_tab, carol_tab):
        await tab.close()


async def test_versions_that_queued_up_are_shown_as_the_newest(multi_table, alice, bob, rig):
    rig(["TS", "9H", "TC", "6D", "7S", "KD"])
    alice_tab, bob_tab = await Tab.open(multi_table, alice), await Tab.open(multi_table, bob)
    await in_thread(seat_and_bet, multi_table, alice, bob)  # several versions, committed off the loop
    await alice_tab.receive_until("Stand")
    await bob_tab.drain()
    versions = [frame_version(frame) for frame in bob_tab.frames[1:]]
    assert versions == sorted(set(versions)), "a version shown twice, or out of order"
    for tab in (alice_tab, bob_tab):
        await tab.close()


async def test_a_version_being_read_holds_up_no_other_tables_viewers(multi_table, alice, bob, carol, monkeypatch, rig):
    from channels.db import database_sync_to_async

    from tables.live import frames, state
    from tables.models import Table
    from tables.play import services
    from tests.tables.conftest import make_table, open_next_window

    other = await database_sync_to_async(make_table)(name="The other table")
    # Alice's bet deals 10 and 7 against the dealer's 9: the round goes on to her decision. (A
    # blackjack would settle it, and a settled round is read back, behind the read that hangs.)
    rig(["TS", "9H", "7C", "6D"])
    await in_thread(services.do_sit, other.pk, alice, 1)
    await in_thread(open_next_window, other)
    watching, at_other = await Tab.open(multi_table, carol), await Tab.open(other, bob)
    # The first table's next version is not in this process's memory: it must be read, and the read hangs.
    release, snapshot = asyncio.Event(), state.snapshot
    loop = asyncio.get_running_loop()

    def slow_snapshot(table_id):
        if table_id == multi_table.pk:
            asyncio.run_coroutine_threadsafe(release.wait(), loop).result()
        return snapshot(table_id)

    monkeypatch.setattr(state, "snapshot", slow_snapshot)
    frames._latest.pop(multi_table.pk)
    await in_thread(services.do_sit, multi_table.pk, bob, 2)

    # Meanwhile alice bets at the other table, a play this process wrote: shown at once.
    # (Off Channels' database thread: the hanging read holds it.)
    version = await in_thread(Table.objects.values_list("version", flat=True).get, pk=other.pk)
    await in_thread(services.do_act, other.pk, alice, "bet", seat=1, amount=5, version=version)
    assert "alice bets 5." in await at_other.receive_until("alice bets 5.")
    assert await watching.communicator.receive_nothing(timeout=0.1)  # still being read

    release.set()
    assert "bob" in await watching.receive_until("bob")
    for tab in (watching, at_other):
        await tab.close()


async def test_only_the_audience_reads_the_channel_layer_never_a_tables_socket(multi_table, alice, bob, monkeypatch):
    """A socket that closes cancels nothing on the layer, so it can swallow no other channel's message.

    On Redis, channels_redis reads every channel of a process through one BZPOPMIN, run by
    whichever `receive` holds its lock. When a table's socket read the layer itself, its
    `receive` was cancelled as it closed, and a reply to that BZPOPMIN on its way (a table's
    change, meant for the audience) was lost with it: the other viewers never saw that
    version when it was the table's last (the load test's bot waited 10 s for its Leave).
    """
    layer = get_channel_layer()
    receiving: list[str] = []
    original = layer.receive

    async def receive(channel):
        receiving.append(channel)
        return await original(channel)

    monkeypatch.setattr(layer, "receive", receive)
    alice_tab, bob_tab = await Tab.open(multi_table, alice), await Tab.open(multi_table, bob)
    here = audience(layer)
    listening = here.channel
    await alice_tab.act("sit", 1)
    assert "alice" in await bob_tab.receive_until("alice")
    await alice_tab.close()  # as a tab closing: nothing on the layer is cancelled
    page = await bob_tab.act("sit", 2)
    assert 'class="seat mine"' in page
    assert set(receiving) == {listening}
    assert here.players == {bob.pk: {next(iter(here.viewers[multi_table.pk])): None}}
    await bob_tab.close()
    assert here.players == {} and here.channel is None


def awaiting(task: asyncio.Task) -> list:
    """The frames of the coroutines a task is suspended in, outermost first."""
    frames, awaited = [], task.get_coro()
    while awaited is not None and hasattr(awaited, "cr_frame"):
        if awaited.cr_frame is not None:
            frames.append(awaited.cr_frame)
        awaited = awaited.cr_await
    return frames


async def test_a_tab_closing_as_a_change_comes_in_keeps_it_from_no_one_on_redis(multi_table, alice, bob, carol, monkeypatch):
    """The load test's lost Leave, made to happen: on Redis, a socket closes in the very turn of the
    loop that brings in the reply to the BZPOPMIN its `receive` was running for the whole process.

    A busy server handles many events in one turn, so the close and the reply can meet there: the
    reply (alice's sit, meant for the audience) was thrown away with the cancelled `receive`, and
    nobody in the process was ever shown it.
    """
    from django.conf import settings

    if not settings.REDIS_URL:
        pytest.skip("channels_redis's shared BZPOPMIN (REDIS_URL)")
    bob_tab = await Tab.open(multi_table, bob)  # the first socket: before the fix, its `receive` ran the BZPOPMIN
    carol_tab = await Tab.open(multi_table, carol)
    here = audience(get_channel_layer())
    cancelled: list[str] = []
    original_feed = asyncio.StreamReader.feed_data

    def feed_data(reader, data):
        original_feed(reader, data)
        if b"table.changed" not in data:
            return
        for task in asyncio.all_tasks():
            frames = awaiting(task)
            names = [frame.f_code.co_name for frame in frames]
            if "_brpop_with_clean" not in names:
                continue
            channel = next(frame.f_locals.get("channel") for frame in frames if frame.f_code.co_name == "receive")
            if channel != here.channel:  # a socket's own receive, reading for everyone: its socket closes now
                cancelled.append(channel)
                task.cancel()

    monkeypatch.setattr(asyncio.StreamReader, "feed_data", feed_data)
    from tables.play import services

    await in_thread(services.do_sit, multi_table.pk, alice, 1)
    page = await carol_tab.receive_until("alice", timeout=8)  # longer than channels_redis's 5 s BZPOPMIN
    assert "alice" in page
    assert not cancelled
    for tab in (bob_tab, carol_tab):
        await tab.close()
