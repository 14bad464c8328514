"""Issue 14: a break closes the player's open sockets, leaves their seats, and refuses new sockets."""

from __future__ import annotations

import datetime as dt

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from accounts.models import User
from casino.asgi import application
from tables.live.sockets import CLOSE_SIGNED_OUT
from tables.models import Seat
from tests.conftest import PASSWORD
from tests.tables.test_signed_out_sockets import (
    assert_closed_for_good,
    open_tab,
    seated_count,
    signed_in,
)
from tests.tables.ws import ORIGIN, Tab, same_origin_headers

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_a_break_closes_the_players_sockets_and_leaves_their_seats(multi_table, alice, bob):
    browser = await signed_in(alice)
    tab = await open_tab(multi_table, browser)
    await tab.act("sit", 1, buy_in=100)
    bobs = await Tab.open(multi_table, bob)
    assert await seated_count(multi_table) == 1

    response = await database_sync_to_async(browser.post)(
        "/accounts/break/", {"length": "break-24h", "password": PASSWORD}
    )
    assert response.status_code == 302

    await assert_closed_for_good(tab, "taking a break")
    assert await seated_count(multi_table) == 0
    # bob's socket stays open.
    await bobs.drain()
    await bobs.act("sit", 2, buy_in=100)
    assert await seated_count(multi_table) == 1
    await bobs.close()


async def test_a_paused_player_gets_no_new_socket(multi_table, alice):
    until = timezone.now() + dt.timedelta(days=7)
    await database_sync_to_async(User.objects.filter(pk=alice.pk).update)(paused_until=until)
    alice.paused_until = until
    communicator = WebsocketCommunicator(application, f"/ws/tables/{multi_table.pk}/", headers=same_origin_headers(ORIGIN))
    communicator.scope["user"] = alice
    connected, _ = await communicator.connect(timeout=5)
    assert connected  # accepted, then closed with a code the page understands
    assert await communicator.receive_output(timeout=2) == {"type": "websocket.close", "code": CLOSE_SIGNED_OUT}
    assert not await database_sync_to_async(Seat.objects.filter(player=alice).exists)()


async def test_the_players_other_sessions_end_with_the_break(multi_table, alice):
    browser, phone = await signed_in(alice), await signed_in(alice)
    await database_sync_to_async(browser.post)("/accounts/break/", {"length": "break-24h", "password": PASSWORD})
    # The phone's session ended with the break: a socket opened with its cookie is a visitor's, who cannot sit.
    headers = [*same_origin_headers(ORIGIN), (b"cookie", f"sessionid={phone.cookies['sessionid'].value}".encode())]
    communicator = WebsocketCommunicator(application, f"/ws/tables/{multi_table.pk}/", headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    tab = Tab(communicator)
    await tab.receive()
    await tab.send("sit", 1, buy_in=100)
    await tab.receive()
    assert "Sign in" in tab.frames[-1]
    assert await seated_count(multi_table) == 0
    await tab.close()
