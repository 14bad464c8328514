"""The table socket's limits (tables/live/limits.py, issue 15): sockets per player and per address, bad frames per second."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from tables.live import limits
from tables.live.audience import audience
from tables.models import Seat
from tests.tables.ws import (
    Tab,
    _session_cookie,
    frame_version,
    notice,
    same_origin_headers,
)
from tests.tables.ws import communicator as ws_communicator

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def connect(table, user=None, address: str | None = None) -> WebsocketCommunicator:
    headers = same_origin_headers()
    if user is not None:
        cookie = await database_sync_to_async(_session_cookie)(user)
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    communicator = ws_communicator(f"/ws/tables/{table.pk}/", headers)
    if address is not None:
        communicator.scope["client"] = (address, 50000)  # read when the application starts, on connect
    connected, _ = await communicator.connect(timeout=5)
    assert connected  # accepted, then closed with a code: a refused handshake makes htmx retry forever
    return communicator


async def assert_refused(communicator: WebsocketCommunicator, code: int, text: str) -> None:
    frame = await communicator.receive_from(timeout=5)
    assert notice(frame) == text.replace("'", "&#x27;")
    assert "seat-1" not in frame  # the notice alone, not the table
    assert await communicator.receive_output(timeout=2) == {"type": "websocket.close", "code": code}


async def opened(communicator: WebsocketCommunicator) -> bool:
    frame = await communicator.receive_from(timeout=5)
    return frame_version(frame) is not None


# --- Sockets per player and per address -------------------------------------------------------


async def test_it_closes_a_players_socket_past_their_limit_with_4429_and_gives_the_place_back(
    multi_table, alice, bob, settings
):
    settings.SOCKETS_PER_USER = 2
    first, second = await connect(multi_table, alice), await connect(multi_table, alice)
    assert await opened(first) and await opened(second)
    third = await connect(multi_table, alice)
    await assert_refused(third, limits.CLOSE_TOO_MANY_SOCKETS, limits.TOO_MANY_SOCKETS)
    assert limits.open_sockets(user_id=alice.pk) == 2
    # Another player is not held back.
    bobs = await connect(multi_table, bob)
    assert await opened(bobs)
    # A closed socket gives its place back.
    await first.disconnect()
    assert limits.open_sockets(user_id=alice.pk) == 1
    again = await connect(multi_table, alice)
    assert await opened(again)
    for communicator in (second, bobs, again, third):
        await communicator.disconnect()
    assert limits.open_sockets(user_id=alice.pk) == 0
    assert limits.open_sockets(user_id=bob.pk) == 0


async def test_a_socket_whose_connect_fails_gives_its_place_back(multi_table, alice, monkeypatch):
    from tables.live import consumers

    def broken(table_id):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(consumers, "_settle_and_read_deadline", broken)
    failed = await connect(multi_table, alice)
    with pytest.raises(RuntimeError):
        await failed.receive_output(timeout=5)  # accepted, then the consumer died in connect

    assert limits.open_sockets(user_id=alice.pk) == 0
    # Nor does it stay in the table's audience, to be shown every change to come.
    assert multi_table.pk not in audience(get_channel_layer()).viewers
    monkeypatch.undo()
    again = await connect(multi_table, alice)
    assert await opened(again)
    assert limits.open_sockets(user_id=alice.pk) == 1
    await again.disconnect()


async def test_a_refused_socket_acts_on_nothing(multi_table, alice, settings):
    settings.SOCKETS_PER_USER = 1
    first = await connect(multi_table, alice)
    assert await opened(first)
    refused = await connect(multi_table, alice)
    await assert_refused(refused, limits.CLOSE_TOO_MANY_SOCKETS, limits.TOO_MANY_SOCKETS)
    await refused.send_to(text_data=json.dumps({"action": "sit", "seat": "1", "buy_in": "100"}))
    assert await refused.receive_nothing(timeout=0.5)
    assert not await database_sync_to_async(Seat.objects.filter(player=alice).exists)()
    await first.disconnect()
    await refused.disconnect()


async def test_it_closes_a_socket_past_the_limit_of_its_address(multi_table, alice, settings):
    settings.SOCKETS_PER_ADDRESS = 2
    watchers = [await connect(multi_table, address="203.0.113.7") for _ in range(2)]
    assert all([await opened(w) for w in watchers])
    # Signed in or not, from the same address.
    refused = await connect(multi_table, alice, address="203.0.113.7")
    await assert_refused(refused, limits.CLOSE_TOO_MANY_SOCKETS, limits.TOO_MANY_SOCKETS)
    elsewhere = await connect(multi_table, address="198.51.100.1")
    assert await opened(elsewhere)
    for communicator in (*watchers, refused, elsewhere):
        await communicator.disconnect()
    assert limits.open_sockets(address="203.0.113.7") == 0


# --- Bad frames ------------------------------------------------------------------------------------


@pytest.fixture
def frozen_clock(monkeypatch):
    """Every frame of the test arrives within the same second."""
    monkeypatch.setattr(limits, "clock", lambda: 1000.0)


@pytest.mark.parametrize(
    "frame",
    ["not json", '["a", "list"]', "x" * 5000, '{"action": "fly", "seat": "1", "version": "1"}', '{"seat": "1"}'],
)
async def test_a_junk_frame_gets_a_small_notice_not_the_table(multi_table, alice, frame):
    tab = await Tab.open(multi_table, alice)
    await tab.act("sit", 1)
    await tab.communicator.send_to(text_data=frame)
    answer = await tab.communicator.receive_from(timeout=5)
    assert answer.startswith('<div id="notice"') and answer.count("<div") == 1
    assert notice(answer)
    assert frame_version(answer) is None  # no version of the table: nothing was read or rendered
    # The next frame clears the notice.
    await tab.act("leave", 1)
    assert notice(tab.frames[-1]) == ""
    await tab.close()


async def test_it_closes_a_socket_past_the_bad_frame_limit_with_4400(multi_table, alice, settings, frozen_clock):
    settings.BAD_FRAMES_PER_SECOND = 3
    tab = await Tab.open(multi_table, alice)
    for _ in range(3):
        await tab.communicator.send_to(text_data="junk")
        assert notice(await tab.communicator.receive_from(timeout=5)) == "That message could not be read."
    await tab.communicator.send_to(text_data="junk")
    assert notice(await tab.communicator.receive_from(timeout=5)) == limits.TOO_MANY_BAD_FRAMES
    assert await tab.communicator.receive_output(timeout=2) == {"type": "websocket.close", "code": limits.CLOSE_BAD_FRAMES}
    # Anything still on its way is read no more.
    await tab.send("sit", 1, buy_in=100)
    assert await tab.communicator.receive_nothing(timeout=0.5)
    assert not await database_sync_to_async(Seat.objects.filter(player=alice).exists)()
    await tab.close()
    assert limits.open_sockets(user_id=alice.pk) == 0


async def test_a_refused_play_is_no_bad_frame(multi_table, alice, settings, frozen_clock):
    """A stale click or a taken seat is the page's own message: the table comes back, the socket stays."""
    settings.BAD_FRAMES_PER_SECOND = 1
    tab = await Tab.open(multi_table, alice)
    for _ in range(3):
        await tab.send("leave", 1)
        assert notice(await tab.receive()) == "That is not your seat."
    await tab.act("sit", 1)
    assert await database_sync_to_async(Seat.objects.filter(player=alice).exists)()
    await tab.close()


async def test_the_bad_frame_budget_refills_every_second(monkeypatch):
    now = [50.0]
    monkeypatch.setattr(limits, "clock", lambda: now[0])
    budget = limits.FrameBudget(per_second=2)
    assert [budget.spend(), budget.spend()] == [True, True]
    now[0] += 1.0
    assert [budget.spend(), budget.spend(), budget.spend()] == [True, True, False]
    now[0] += 5.0
    assert budget.spend() is False  # closed for good once past it
