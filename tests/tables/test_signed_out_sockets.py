"""A player's open sockets close when their session stops standing, and act on nothing after."""

from __future__ import annotations

import pytest
import pytest_asyncio
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client

from casino.asgi import application
from tables.live.sockets import CLOSE_SIGNED_OUT
from tables.models import Seat
from tests.conftest import PASSWORD
from tests.tables.ws import ORIGIN, Tab, notice, same_origin_headers

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest_asyncio.fixture(autouse=True)
async def no_connection_left_behind():
    """The test client signs in on Channels' database thread: close what it opened there.

    Left open, the next test without the database (the echo consumer's) trips on it.
    """
    yield
    await sync_to_async(connections.close_all)()


@database_sync_to_async
def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


async def open_tab(table, client: Client) -> Tab:
    """A tab of the browser `client` is: its session cookie on the socket."""
    headers = [*same_origin_headers(ORIGIN), (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())]
    communicator = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/", headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    tab = Tab(communicator)
    await tab.receive()
    return tab


async def assert_closed_for_good(tab: Tab, reason: str) -> None:
    page = await tab.receive()
    assert reason in notice(tab.frames[-1]), page
    assert await tab.communicator.receive_output(timeout=2) == {"type": "websocket.close", "code": CLOSE_SIGNED_OUT}


async def seated_count(table) -> int:
    return await database_sync_to_async(Seat.objects.filter(table=table, player__isnull=False).count)()


async def test_it_closes_every_socket_of_a_player_who_logs_out(multi_table, alice, bob):
    browser = await signed_in(alice)
    first, second = await open_tab(multi_table, browser), await open_tab(multi_table, browser)
    bobs = await Tab.open(multi_table, bob)

    await database_sync_to_async(browser.post)("/accounts/logout/")

    await assert_closed_for_good(first, "signed out")
    await assert_closed_for_good(second, "signed out")
    # Another player's socket is untouched and still plays.
    await bobs.act("sit", 2, buy_in=100)
    assert await seated_count(multi_table) == 1
    await bobs.close()


async def test_it_acts_on_nothing_an_old_socket_sends(multi_table, alice):
    browser = await signed_in(alice)
    tab = await open_tab(multi_table, browser)
    await database_sync_to_async(browser.post)("/accounts/logout/")
    await assert_closed_for_good(tab, "signed out")
    # A message already on its way when the server closed the socket: refused, unanswered.
    await tab.send("sit", 1, buy_in=100)
    assert await tab.communicator.receive_nothing(timeout=0.5)
    assert await seated_count(multi_table) == 0


async def test_it_closes_the_sockets_of_a_player_who_changes_their_password(multi_table, alice):
    browser = await signed_in(alice)
    tab = await open_tab(multi_table, browser)
    response = await database_sync_to_async(browser.post)(
        "/accounts/password/change/",
        {"old_password": PASSWORD, "new_password1": "a new Passw0rd!", "new_password2": "a new Passw0rd!"},
    )
    assert response.status_code == 302
    await assert_closed_for_good(tab, "password changed")


async def test_it_closes_the_sockets_of_a_deactivated_account(multi_table, alice):
    tab = await Tab.open(multi_table, alice)
    alice.is_active = False
    await database_sync_to_async(alice.save)()
    await assert_closed_for_good(tab, "account deactivated")


async def test_it_leaves_the_sockets_open_when_nothing_about_the_session_changes(multi_table, alice):
    tab = await Tab.open(multi_table, alice)
    alice.first_name = "Alice"
    await database_sync_to_async(alice.save)()
    assert await tab.communicator.receive_nothing(timeout=0.3)
    await tab.act("sit", 1, buy_in=100)
    assert await seated_count(multi_table) == 1
    await tab.close()


async def test_it_closes_the_sockets_of_a_player_whose_password_is_reset(multi_table, alice):
    from django.contrib.auth.tokens import default_token_generator
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    tab = await Tab.open(multi_table, alice)
    uid = urlsafe_base64_encode(force_bytes(alice.pk))
    token = await database_sync_to_async(default_token_generator.make_token)(alice)
    stranger = Client()  # the reset link opened in another browser
    link = await database_sync_to_async(stranger.get)(f"/accounts/password/reset/{uid}/{token}/", follow=True)
    form_url = link.redirect_chain[-1][0]
    response = await database_sync_to_async(stranger.post)(
        form_url, {"new_password1": "a new Passw0rd!", "new_password2": "a new Passw0rd!"}
    )
    assert response.status_code == 302
    await assert_closed_for_good(tab, "password changed")
