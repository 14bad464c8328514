"""Bad input gets a clear notice and changes nothing; what is not the player's stays out of reach.

Beyond tests/tables/test_table_consumer.py::test_bad_input_gets_a_notice_and_changes_nothing:
bets against the table's limits and the player's stack, buy-ins, amounts
the player picks, wrong seats, stale and missing versions, internal names
sent as actions, binary and oversized frames; HTML in usernames, escaped
on every page and frame that shows them; and the security gaps of issue 6:
Origins, another player's seat over a plain POST, CSRF on every POST form,
the admin for staff only, and no page or frame holding the live shoe's seed,
its JSON or the hole card.
"""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.urls import reverse

from accounts import ledger
from accounts.audit import audit_ledger
from accounts.models import LedgerAccount, Transfer, User
from accounts.services import create_player
from tables.engine import CardShoe, Phase
from tables.fairness import shoes
from tables.models import Round, RuleProfile, Seat, Table
from tables.models import Shoe as ShoeRow
from tables.play import lobby, rounds, services
from tests.conftest import PASSWORD
from tests.tables.conftest import make_table, open_next_window
from tests.tables.ws import ORIGIN, Tab, notice

pytestmark = pytest.mark.django_db

STALE = "The table moved on before your click arrived; here it is as it stands."


@pytest.fixture(autouse=True)
def _own_channel_layer(private_channel_layer):
    """Tabs hear only this test's tables (see tests/conftest.py)."""


@database_sync_to_async
def books(table: Table) -> tuple:
    """Everything a refused action must leave as it was."""
    table = Table.objects.select_related("current_round").get(pk=table.pk)
    events = len(table.current_round.state.get("events", [])) if table.current_round else 0
    balances = tuple(LedgerAccount.objects.order_by("id").values_list("balance", flat=True))
    seats = tuple(Seat.objects.filter(table=table).order_by("number").values_list("player_id", "account_id"))
    return table.version, events, Transfer.objects.count(), balances, seats


@database_sync_to_async
def assert_audit_passes() -> None:
    report = audit_ledger()
    assert report.ok, report.problems


async def refused(tab: Tab, table: Table, message: dict | str, expected: str) -> str:
    """Send `message`; the answer is a frame whose notice is `expected`, and nothing changed."""
    before = await books(table)
    await tab.communicator.send_to(text_data=message if isinstance(message, str) else json.dumps(message))
    frame = await tab.receive(timeout=20)
    assert notice(frame) == expected
    assert await books(table) == before
    return frame


# --- Amounts, seats and versions over the websocket ------------------------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"amount": "60"}, "You hold 50 chips and cannot bet 60."),
        ({"amount": "4"}, "Bets at this table are from 5 to 200 chips."),
        ({"amount": "0"}, "Bets at this table are from 5 to 200 chips."),
        ({"amount": "201"}, "Bets at this table are from 5 to 200 chips."),
        ({"amount": "999999999999"}, "Bets at this table are from 5 to 200 chips."),
        ({"amount": "9999999999999"}, "The amount must be a whole number, not “9999999999999”."),
        ({"amount": "-5"}, "The amount must be a whole number, not “-5”."),
        ({"amount": "7.5"}, "The amount must be a whole number, not “7.5”."),
        ({"amount": "1e3"}, "The amount must be a whole number, not “1e3”."),
        ({"amount": "0x10"}, "The amount must be a whole number, not “0x10”."),
        ({"amount": True}, "The amount must be a whole number, not “True”."),
        ({"amount": None}, "Say which amount."),
        ({"amount": ""}, "Say which amount."),
        ({"amount": "10", "seat": "2"}, "That is not your seat."),
        ({"amount": "10", "seat": "0"}, "That is not your seat."),
        ({"amount": "10", "version": "stale"}, STALE),
        ({"amount": "10", "version": "ahead"}, STALE),
        ({"amount": "10", "version": ""}, "Say which version."),
        ({"amount": "10", "version": "-1"}, "The version must be a whole number, not “-1”."),
    ],
)
@pytest.mark.usefixtures("rig")
async def test_a_bad_bet_is_refused_with_its_reason(alice, fields, expected):
    table = await database_sync_to_async(make_table)(RuleProfile.ATLANTIC_CITY_MULTI, min_bet=5, max_bet=200)
    await database_sync_to_async(services.do_sit)(table.pk, alice, 1, 50)
    await database_sync_to_async(open_next_window)(table)
    tab = await Tab.open(table, alice)
    assert ">Deal<" in tab.last
    version = int(tab.version)
    message = {"action": "bet", "seat": "1", "hand": "0", "version": str(version), **fields}
    placeholders = {"stale": str(version - 1), "ahead": str(version + 1)}
    message["version"] = placeholders.get(message["version"], message["version"])
    message = {key: value for key, value in message.items() if value is not None}
    frame = await refused(tab, table, message, expected)
    assert ">Deal<" in frame  # the fresh render: still alice's to bet
    await assert_audit_passes()
    await tab.close()



@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"buy_in": "-100"}, "The buy-in must be a whole number, not “-100”."),
        ({"buy_in": "50.5"}, "The buy-in must be a whole number, not “50.5”."),
        ({"buy_in": "4"}, "Buy in with at least the minimum bet, 5 chips."),
        ({"buy_in": "0"}, "Buy in with at least the minimum bet, 5 chips."),
        ({"buy_in": "1001"}, "Your bankroll holds fewer than 1001 chips."),
        ({"buy_in": "999999999999"}, "Your bankroll holds fewer than 999999999999 chips."),
        ({"buy_in": "100", "seat": "6"}, "This table has no seat 6."),
        ({"buy_in": "100", "seat": "0"}, "This table has no seat 0."),
        ({"buy_in": "100", "seat": "2"}, "Someone else took that seat."),
        ({"buy_in": "100", "seat": ""}, "Say which seat."),
    ],
)
async def test_a_bad_sit_is_refused_with_its_reason(alice, bob, fields, expected):
    table = await database_sync_to_async(make_table)(RuleProfile.ATLANTIC_CITY_MULTI, min_bet=5, max_bet=200)
    await database_sync_to_async(services.do_sit)(table.pk, bob, 2)
    tab = await Tab.open(table, alice)
    await refused(tab, table, {"action": "sit", "seat": "1", "version": tab.version, **fields}, expected)
    assert await database_sync_to_async(lambda: ledger.bankroll_of(alice).balance)() == 1000
    await tab.close()



@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("cards", "action", "amount", "expected"),
    [
        # internet-6: alice 6 5 = 11 against a 5; a double for less is from 1 to the bet.
        (["6S", "5H", "5C", "TD"], "double", "11", "A double is from 1 to 10 chips (your bet)."),
        (["6S", "5H", "5C", "TD"], "double", "0", "A double is from 1 to 10 chips (your bet)."),
        (["6S", "5H", "5C", "TD"], "double", "-3", "The amount must be a whole number, not “-3”."),
        # The dealer shows an ace: insurance is from 1 to half the bet.
        (["9S", "AH", "7C", "KD"], "insurance", "6", "Insurance is from 1 to 5 chips (half your bet)."),
        (["9S", "AH", "7C", "KD"], "insurance", "0", "Insurance is from 1 to 5 chips (half your bet)."),
        (["9S", "AH", "7C", "KD"], "insurance", "2.5", "The amount must be a whole number, not “2.5”."),
    ],
)
async def test_an_amount_the_player_picks_is_checked_too(alice, rig, cards, action, amount, expected):
    rig(cards)
    table = await database_sync_to_async(make_table)(RuleProfile.INTERNET_6, seat_count=6)
    await database_sync_to_async(services.do_sit)(table.pk, alice, 1)
    await database_sync_to_async(open_next_window)(table)
    tab = await Tab.open(table, alice)
    await tab.act("bet", 1, amount=10)
    message = {"action": action, "seat": "1", "hand": "0", "version": tab.version, "amount": amount}
    await refused(tab, table, message, expected)
    await tab.close()



@pytest.fixture
def two_players_dealt(alice, bob, rig) -> Table:
    """alice (seat 1: T 6) and bob (seat 2: 9 8) have bet 10; the dealer shows a 7; alice is to act."""
    rig(["TS", "9C", "7H", "6D", "8S", "TD", "5C", "5D"])
    table = make_table(RuleProfile.ATLANTIC_CITY_MULTI)
    services.do_sit(table.pk, alice, 1)
    services.do_sit(table.pk, bob, 2)
    open_next_window(table)
    for player, seat in ((alice, 1), (bob, 2)):
        version = Table.objects.values_list("version", flat=True).get(pk=table.pk)
        services.do_act(table.pk, player, "bet", seat=seat, amount=10, version=version)
    return table


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("action", "seat", "expected"),
    [
        ("hit", 1, "That is not your seat."),
        ("stand", 1, "That is not your seat."),
        ("double", 1, "That is not your seat."),
        ("split", 1, "That is not your seat."),
        ("surrender", 1, "That is not your seat."),
        ("leave", 1, "That is not your seat."),
        ("hit", 3, "That is not your seat."),
        ("hit", 2, "It is not your turn: seat 1 is to play."),
        ("stand", 2, "It is not your turn: seat 1 is to play."),
    ],
)
async def test_a_player_cannot_play_another_seat_or_out_of_turn(two_players_dealt, bob, action, seat, expected):
    tab = await Tab.open(two_players_dealt, bob)
    message = {"action": action, "seat": str(seat), "hand": "0", "version": tab.version}
    frame = await refused(tab, two_players_dealt, message, expected)
    assert ">Hit<" not in frame  # bob has nothing to decide yet
    await tab.close()



@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # The engine's own methods are not actions: the timer's default is the server's alone.
        ({"action": "expire", "seat": "1", "version": "V"}, "“expire” is not something you can do at this table."),
        ({"action": "pass_bet", "seat": "1", "version": "V"}, "“pass_bet” is not something you can do at this table."),
        ({"action": "decline_insurance", "seat": "1", "version": "V"}, "“decline_insurance” is not something you can do at this table."),
        ({"action": "__init__", "seat": "1", "version": "V"}, "“__init__” is not something you can do at this table."),
        ({"action": "to_json", "seat": "1", "version": "V"}, "“to_json” is not something you can do at this table."),
        ({"action": "<b>bet</b>", "seat": "1", "version": "V"}, "“&lt;b&gt;bet&lt;/b&gt;” is not something you can do at this table."),
        ({"action": "x" * 40, "seat": "1", "version": "V"}, f"“{'x' * 20}” is not something you can do at this table."),
        ({"action": "", "seat": "1", "version": "V"}, "“” is not something you can do at this table."),
        ({"action": None, "seat": "1"}, "Press one of the table&#x27;s buttons."),
        ({"action": 7, "seat": "1"}, "Press one of the table&#x27;s buttons."),
        ({"seat": "1", "version": "V"}, "Press one of the table&#x27;s buttons."),
        ({"action": "hit", "version": "V"}, "Say which seat."),
        ({"action": "hit", "seat": "1"}, "Say which version."),
        ("é" * 2100, "That message is too large."),  # 2,100 characters, 4,200 bytes: the limit counts bytes
        ("", "That message could not be read."),
        ("null", "That message could not be read."),
    ],
)
async def test_unknown_actions_and_malformed_frames_get_a_notice(alice, rig, message, expected):
    rig(["TS", "9H", "9C", "8D"])
    table = await database_sync_to_async(make_table)(RuleProfile.ATLANTIC_CITY)
    tab = await Tab.open(table, alice)
    await tab.act("sit", 1)
    await tab.act("bet", 1, amount=10)
    if isinstance(message, dict):
        message = {key: (tab.version if value == "V" else value) for key, value in message.items()}
    if message == "":
        before = await books(table)
        await tab.communicator.send_input({"type": "websocket.receive", "text": ""})
        assert notice(await tab.receive(timeout=20)) == expected
        assert await books(table) == before
    else:
        await refused(tab, table, message, expected)
    await tab.close()



@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_binary_frame_gets_a_notice(solo_table, alice):
    tab = await Tab.open(solo_table, alice)
    before = await books(solo_table)
    await tab.communicator.send_to(bytes_data=b'{"action": "sit", "seat": "1"}')
    assert notice(await tab.receive(timeout=20)) == "The table only understands its own buttons."
    assert await books(solo_table) == before
    await tab.close()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ('{"action": "\\ud800", "seat": "1", "version": "1"}', "” is not something you can do at this table."),
        ('{"action": "bet", "seat": "1", "version": "1", "amount": "\\udc00"}', "The amount must be a whole number, not “"),
    ],
)
async def test_a_lone_surrogate_gets_a_notice_a_real_websocket_can_carry(solo_table, alice, message, expected):
    """JSON may escape half a UTF-16 pair ("\\ud800"); quoted back as it is, daphne could not send the frame."""
    tab = await Tab.open(solo_table, alice)
    await tab.act("sit", 1)
    before = await books(solo_table)
    await tab.communicator.send_to(text_data=message)
    frame = await tab.receive(timeout=20)
    assert expected in notice(frame)
    frame.encode("utf-8")  # what daphne does before it sends a text frame
    assert await books(solo_table) == before
    await tab.close()


# --- Origins -----------------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "origin",
    [
        "http://evil.example",
        "http://localhost.evil.example",
        "http://127.0.0.1.evil.example:8000",
        "https://evil.example/http://localhost",
        "null",
        "file://",
        None,  # no Origin header at all
    ],
)
async def test_a_foreign_or_missing_origin_is_refused(multi_table, alice, origin):
    from channels.testing import WebsocketCommunicator

    from casino.asgi import application
    from tests.tables.ws import _session_cookie

    cookie = await database_sync_to_async(_session_cookie)(alice)
    headers = [(b"cookie", f"sessionid={cookie}".encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    communicator = WebsocketCommunicator(application, f"/ws/tables/{multi_table.pk}/", headers=headers)
    connected, _ = await communicator.connect(timeout=10)
    assert not connected
    await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("origin", [ORIGIN, "http://127.0.0.1:8000", "https://localhost", "http://[::1]:8000"])
async def test_our_own_origins_connect(multi_table, alice, origin):
    tab = await Tab.open(multi_table, alice, origin=origin)
    assert tab.connected and 'id="seats"' in tab.frames[0]
    await tab.close()


# --- Plain POSTs: anonymous, another's seat, CSRF -------------------------------------------


def test_a_plain_post_cannot_play_another_players_seat(client, bob, two_players_dealt):
    client.force_login(bob)
    before = (Table.objects.get(pk=two_players_dealt.pk).version, Transfer.objects.count())
    url = reverse("table_action", args=[two_players_dealt.pk])
    for action in ("hit", "stand", "double", "leave"):
        message = {"action": action, "seat": "1", "hand": "0", "version": str(before[0])}
        response = client.post(url, message, follow=True)
        assert "That is not your seat." in response.content.decode()
    assert (Table.objects.get(pk=two_players_dealt.pk).version, Transfer.objects.count()) == before


def test_an_anonymous_plain_post_cannot_act(client, two_players_dealt):
    before = (Table.objects.get(pk=two_players_dealt.pk).version, Transfer.objects.count())
    url = reverse("table_action", args=[two_players_dealt.pk])
    response = client.post(url, {"action": "hit", "seat": "1", "hand": "0", "version": str(before[0])}, follow=True)
    assert "Sign in to play." in response.content.decode()
    assert (Table.objects.get(pk=two_players_dealt.pk).version, Transfer.objects.count()) == before


@pytest.mark.parametrize("path", ["/tables/solo/", "/tables/rocket/", "/history/", "/accounts/profile/"])
def test_anonymous_visitors_are_sent_to_sign_in(client, path):
    response = client.post(path, {"seats": "3"}) if path.startswith("/tables/") else client.get(path)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not Table.objects.exists()


def post_forms(html: str) -> list[str]:
    return re.findall(r"<form\b[^>]*method=\"post\"[^>]*>.*?</form>", html, re.S | re.I)


def test_every_post_form_on_every_page_carries_a_csrf_token(client, alice, carol):
    carol.is_staff = carol.is_superuser = True
    carol.save()
    table = make_table(RuleProfile.ATLANTIC_CITY_MULTI)
    services.do_sit(table.pk, alice, 1)
    other = make_table(RuleProfile.ATLANTIC_CITY_MULTI, name="Free table")
    pages = {
        None: ["/accounts/signup/", "/accounts/login/", "/accounts/password/reset/", "/admin/login/"],
        alice: ["/tables/", f"/tables/{table.pk}/", f"/tables/{other.pk}/", "/accounts/profile/",
                "/accounts/password/change/", "/history/"],
        carol: ["/admin/", "/admin/accounts/user/", f"/admin/accounts/user/{alice.pk}/change/"],
    }  # fmt: skip
    checked = 0
    for user, paths in pages.items():
        client.logout()
        if user is not None:
            client.force_login(user)
        for path in paths:
            response = client.get(path)
            assert response.status_code == 200, path
            for form in post_forms(response.content.decode()):
                assert 'name="csrfmiddlewaretoken"' in form, f"a POST form on {path} has no CSRF token:\n{form[:300]}"
                checked += 1
    assert checked >= 15  # sit, leave, move, log out, sign up, log in, the admin's ...


@pytest.mark.parametrize(
    ("who", "path", "data"),
    [
        (None, "/accounts/signup/", {"username": "mallory", "password1": PASSWORD, "password2": PASSWORD}),
        (None, "/accounts/login/", {"username": "alice", "password": PASSWORD}),
        (None, "/accounts/password/reset/", {"email": "alice@example.com"}),
        ("alice", "/accounts/logout/", {}),
        ("alice", "/accounts/password/change/", {"old_password": PASSWORD, "new_password1": "x" + PASSWORD, "new_password2": "x" + PASSWORD}),
        ("alice", "/tables/solo/", {}),
        ("alice", "/tables/rocket/", {"seats": "3"}),
        ("alice", "TABLE_ACTION", {"action": "sit", "seat": "1"}),
        ("carol", "/admin/accounts/user/", {"action": "adjust_chips", "_selected_action": ["ALICE"], "apply": "1", "amount": "5", "reason": "r"}),
    ],
)
def test_every_post_needs_the_csrf_token(alice, carol, multi_table, who, path, data):
    carol.is_staff = carol.is_superuser = True
    carol.save()
    client = Client(enforce_csrf_checks=True)
    if who is not None:
        client.force_login({"alice": alice, "carol": carol}[who])
    path = reverse("table_action", args=[multi_table.pk]) if path == "TABLE_ACTION" else path
    data = {key: ([str(alice.pk)] if value == ["ALICE"] else value) for key, value in data.items()}
    before = (User.objects.count(), Transfer.objects.count(), Table.objects.count(), alice.password)
    response = client.post(path, data)
    assert response.status_code == 403
    alice.refresh_from_db()
    assert (User.objects.count(), Transfer.objects.count(), Table.objects.count(), alice.password) == before
    if who is not None:
        assert client.get("/accounts/profile/").status_code == 200  # still signed in: no log-out either


# --- The admin is for staff ------------------------------------------------------------------


ADMIN_PAGES = [
    "/admin/",
    "/admin/accounts/user/",
    "/admin/accounts/ledgeraccount/",
    "/admin/accounts/transfer/",
    "/admin/tables/table/",
    "/admin/tables/table/add/",
    "/admin/tables/round/",
    "/admin/tables/shoe/",
]


@pytest.mark.parametrize("path", ADMIN_PAGES)
def test_the_admin_refuses_players_and_anonymous_visitors(client, alice, path):
    for signed_in in (False, True):
        if signed_in:
            client.force_login(alice)
        response = client.get(path)
        assert response.status_code == 302, (path, signed_in)
        assert response["Location"].startswith("/admin/login/")


def test_a_player_cannot_grant_themselves_chips_through_the_admin(client, alice):
    client.force_login(alice)
    data = {"action": "adjust_chips", "_selected_action": [str(alice.pk)], "apply": "1", "amount": "99", "reason": "me"}
    response = client.post("/admin/accounts/user/", data)
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    assert ledger.bankroll_of(alice).balance == 1000


# --- HTML in usernames -------------------------------------------------------------------


def test_sign_up_refuses_html_in_a_username_with_a_message(client):
    response = client.post(
        reverse("signup"), {"username": "<b>x</b>", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 200
    text = response.content.decode()
    assert "Enter a valid username." in text
    assert "<b>x</b>" not in text
    assert not User.objects.filter(username="<b>x</b>").exists()
    assert not Transfer.objects.exists()


NAMES = ["<b>x</b>", '"><img src=x onerror=alert(1)>']


@pytest.fixture(params=NAMES)
def html_player(request, django_user_model):
    """A player whose name is HTML, as an admin or an import could create one (sign-up refuses it)."""
    return create_player(request.param, PASSWORD)


def assert_escaped(text: str, name: str, where: str, *, shown: bool = True) -> None:
    from django.utils.html import escape
    from markupsafe import escape as jinja_escape

    assert name not in text, f"{where} shows the name unescaped"
    if shown:
        # Django's templates write &quot;, the table's pieces (Jinja2) &#34;: both escape it.
        assert escape(name) in text or jinja_escape(name) in text, f"{where} does not show the name at all"


def test_an_html_username_is_escaped_on_every_page(client, html_player, bob, carol, rig):
    name = html_player.username
    # html_player 9 8 stands on 17 against 7 + T: a push, so a history row, a replay and statement rows.
    rig(["9S", "TC", "7H", "8D", "9C", "TD", "2S"])
    table = make_table(RuleProfile.ATLANTIC_CITY_MULTI)
    services.do_sit(table.pk, html_player, 1)
    services.do_sit(table.pk, bob, 2)
    open_next_window(table)
    for player, seat in ((html_player, 1), (bob, 2)):
        services.do_act(table.pk, player, "bet", seat=seat, amount=10, version=Table.objects.get(pk=table.pk).version)
    for player, seat in ((html_player, 1), (bob, 2)):
        services.do_act(table.pk, player, "stand", seat=seat, version=Table.objects.get(pk=table.pk).version)
    round_row = Round.objects.get(table=table)
    assert round_row.phase == "settled"
    rocket = lobby.create_rocket_table(html_player, seats=3)  # named after its creator
    solo = lobby.solo_table_for(html_player)

    client.force_login(html_player)
    for path in ("/tables/", f"/tables/{table.pk}/", f"/tables/{solo.pk}/", f"/tables/{table.pk}/rounds/",
                 "/history/", f"/history/{round_row.pk}/", "/accounts/profile/", f"/tables/{rocket.pk}/"):  # fmt: skip
        response = client.get(path)
        assert response.status_code == 200, path
        assert_escaped(response.content.decode(), name, path)

    # bob sees the name at the table and in the replay of the round they played together.
    client.force_login(bob)
    for path in (f"/tables/{table.pk}/", f"/history/{round_row.pk}/", "/tables/"):
        assert_escaped(client.get(path).content.decode(), name, f"{path} (bob)")

    carol.is_staff = carol.is_superuser = True
    carol.save()
    client.force_login(carol)
    for path in ("/admin/accounts/user/", f"/admin/accounts/user/{html_player.pk}/change/",
                 "/admin/accounts/ledgeraccount/", "/admin/accounts/transfer/", "/admin/tables/round/",
                 f"/admin/tables/round/{round_row.pk}/change/", "/admin/tables/table/",
                 f"/admin/tables/round/?player={html_player.pk}"):  # fmt: skip
        response = client.get(path)
        assert response.status_code == 200, path
        assert_escaped(response.content.decode(), name, path)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", NAMES)
async def test_an_html_username_is_escaped_in_the_tables_frames(django_user_model, bob, rig, name):
    rig(["9S", "TC", "7H", "8D", "9C", "TD", "2S"])
    player = await database_sync_to_async(create_player)(name, PASSWORD)
    table = await database_sync_to_async(make_table)(RuleProfile.ATLANTIC_CITY_MULTI)
    player_tab, bob_tab, spectator = await Tab.open(table, player), await Tab.open(table, bob), await Tab.open(table)
    await player_tab.act("sit", 1)
    await bob_tab.receive()  # the player's sit
    await bob_tab.act("sit", 2)
    await database_sync_to_async(open_next_window)(table)
    await player_tab.receive_until(">Deal<")
    await player_tab.act("bet", 1, amount=10)
    await bob_tab.receive_until(">Deal<")
    await bob_tab.act("bet", 2, amount=10)
    await player_tab.receive_until(">Stand<")
    await player_tab.act("stand", 1)
    for tab in (player_tab, bob_tab, spectator):
        await tab.drain()
        frame = tab.last
        assert_escaped(frame, name, "a frame")
        # The seat, the log line of the bet and the stand: all escaped, the lines as the log's template escapes them.
        from markupsafe import escape

        assert f"{escape(name)} bets 10." in frame and f"{escape(name)} stands." in frame
    for tab in (player_tab, bob_tab, spectator):
        await tab.close()


# --- Nothing secret leaves early ----------------------------------------------------------


@pytest.fixture
def seeded(monkeypatch) -> bytes:
    """A real shoe from a known seed: a test can look for the seed in everything the server sends."""
    seed = hashlib.sha256(b"the secret seed of the test shoe").digest()
    monkeypatch.setattr(shoes, "shoe_source", lambda rules: CardShoe.from_seed(seed, rules.decks))
    return seed


def assert_nothing_secret(text: str, seed: bytes, hole_card: str | None, where: str) -> None:
    assert seed.hex() not in text, f"{where} holds the live shoe's seed"
    assert seed.hex().upper() not in text, f"{where} holds the live shoe's seed"
    for leak in ('"shoe"', "&quot;shoe&quot;", "&#34;shoe&#34;", '"seed"', "&quot;seed&quot;", '"cards": ['):
        assert leak not in text, f"{where} holds the shoe's JSON ({leak})"
    if hole_card is not None:
        dealer = re.search(r'<section id="dealer".*?</section>', text, re.S)
        if dealer:
            assert f'data-card="{hole_card}"' not in dealer.group(0), f"{where} shows the hole card"


def round_in_play(alice, bob) -> tuple[Table, str]:
    """Both players have bet and the cards are out; the hole card is still face down. Returns it too."""
    table = make_table(RuleProfile.ATLANTIC_CITY_MULTI)
    services.do_sit(table.pk, alice, 1)
    services.do_sit(table.pk, bob, 2)
    open_next_window(table)
    for player, seat in ((alice, 1), (bob, 2)):
        services.do_act(table.pk, player, "bet", seat=seat, amount=10, version=Table.objects.get(pk=table.pk).version)
    table.refresh_from_db()
    engine = rounds.load(table.current_round)
    assert not engine.hole_revealed and engine.phase is not Phase.SETTLED
    return table, engine.dealer.cards[1]


def test_no_page_holds_the_live_shoe_its_seed_or_the_hole_card(client, alice, bob, carol, seeded):
    table, hole_card = round_in_play(alice, bob)
    shoe = ShoeRow.objects.get(table=table)
    assert shoe.seed == seeded.hex() and shoe.retired_at is None
    carol.is_staff = carol.is_superuser = True
    carol.save()
    pages = {
        None: ["/tables/", f"/tables/{table.pk}/", f"/tables/{table.pk}/rounds/"],
        alice: [f"/tables/{table.pk}/", "/history/", "/history/export.csv", "/history/export.json",
                "/accounts/profile/", f"/tables/shoes/{shoe.pk}/"],
        carol: [f"/admin/tables/round/{table.current_round_id}/change/", f"/admin/tables/shoe/{shoe.pk}/change/",
                "/admin/tables/shoe/", "/admin/tables/round/", f"/admin/tables/table/{table.pk}/change/",
                f"/tables/shoes/{shoe.pk}/"],
    }  # fmt: skip
    for user, paths in pages.items():
        client.logout()
        if user is not None:
            client.force_login(user)
        for path in paths:
            response = client.get(path)
            text = b"".join(response.streaming_content) if response.streaming else response.content
            assert_nothing_secret(text.decode(), seeded, hole_card, f"{path} ({user or 'anonymous'})")
    # The admin's events table shows the hole card face down.
    client.force_login(carol)
    text = client.get(f"/admin/tables/round/{table.current_round_id}/change/").content.decode()
    assert "face down" in text and "(hole)" not in text


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_no_frame_holds_the_live_shoe_or_its_seed(alice, bob, seeded):
    table, hole_card = await database_sync_to_async(round_in_play)(alice, bob)
    tabs = [await Tab.open(table, alice), await Tab.open(table, bob), await Tab.open(table)]
    await tabs[0].send("hit", 1, version="0", hand="0")  # stale: a notice and a fresh render
    await tabs[0].receive(timeout=20)
    for tab in tabs:
        for frame in tab.frames:
            assert_nothing_secret(frame, seeded, hole_card, "a frame")
        assert 'data-card="hidden"' in tab.last
        await tab.close()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("site", "origin", "opens"),
    [
        ("127.0.0.1:8000", "http://127.0.0.1:8000", True),
        ("127.0.0.1:8000", "http://localhost:8000", False),  # another host of ALLOWED_HOSTS is another site
        ("127.0.0.1:8000", "http://localhost:9999", False),
        ("127.0.0.1:8000", "http://127.0.0.1:9999", False),
        ("127.0.0.1:8000", "https://127.0.0.1", False),
        ("127.0.0.1:8000", "https://127.0.0.1:8000", False),
        ("localhost", "http://localhost:80", True),
        ("localhost", "http://localhost:3000", False),
        ("evil.example", "http://evil.example", False),  # a host outside ALLOWED_HOSTS
    ],
)
async def test_the_origin_must_be_the_sites_own_scheme_host_and_port(multi_table, alice, site, origin, opens):
    from tests.tables.ws import _session_cookie, communicator

    cookie = await database_sync_to_async(_session_cookie)(alice)
    headers = [(b"host", site.encode()), (b"origin", origin.encode()), (b"cookie", f"sessionid={cookie}".encode())]
    socket = communicator(f"/ws/tables/{multi_table.pk}/", headers)
    connected, _ = await socket.connect(timeout=10)
    assert connected is opens
    await socket.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_behind_a_trusted_tls_proxy_the_https_origin_opens(multi_table, alice, settings):
    from tests.tables.ws import _session_cookie, communicator

    settings.CSRF_TRUSTED_ORIGINS = ["https://casino.example:8443"]
    cookie = await database_sync_to_async(_session_cookie)(alice)

    async def opens(origin: str, peer: str, proto: str = "https") -> bool:
        headers = [
            (b"host", b"localhost"), (b"origin", origin.encode()), (b"x-forwarded-proto", proto.encode()),
            (b"cookie", f"sessionid={cookie}".encode()),
        ]
        socket = communicator(f"/ws/tables/{multi_table.pk}/", headers)
        socket.scope["client"] = [peer, 40000]
        connected, _ = await socket.connect(timeout=10)
        await socket.disconnect()
        return connected

    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    assert await opens("https://localhost", "127.0.0.1")
    assert not await opens("http://localhost", "127.0.0.1")
    assert not await opens("https://localhost", "203.0.113.5")  # X-Forwarded-Proto from anyone else is not believed
    assert await opens("https://casino.example:8443", "203.0.113.5")  # CSRF_TRUSTED_ORIGINS
