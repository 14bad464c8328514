"""Issue 14: the reality check over the table's websocket, and its answers as the table's own actions."""

from __future__ import annotations

import datetime as dt

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from accounts import limits
from accounts.models import PlayLimits
from tables.models import Seat
from tests.tables.ws import Tab, notice

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def reality_check_due(user, minutes_played: int = 20) -> None:
    limits.do_set_limits(user, {"reality_check_minutes": 15})
    now = timezone.now()
    PlayLimits.objects.filter(user=user).update(
        session_started_at=now - dt.timedelta(minutes=minutes_played), last_bet_at=now, reality_check_at=now
    )


async def test_the_check_answers_a_bet_and_keep_playing_lets_it_through(solo_table, alice, rig):
    rig(["TS", "9H", "9C", "8D"])
    tab = await Tab.open(solo_table, alice)
    await tab.act("sit", 1, buy_in=100)
    await reality_check_due(alice)
    await tab.send("bet", 1, version=tab.version, amount="10")
    await tab.receive()
    last = tab.frames[-1]
    assert 'id="reality-check"' in last and "20 minutes" in last and ">Keep playing<" in last and ">Stop playing<" in last
    assert notice(last) == ""  # shown as the popup alone
    assert 'data-card="TS"' not in last  # the bet waits
    await tab.send("keep_playing", 1)
    await tab.receive()
    assert '<div id="reality-check" hidden></div>' in tab.frames[-1]
    assert "next reality check comes in 15 minutes" in notice(tab.frames[-1])
    frame = await tab.act("bet", 1, amount=10)
    assert 'data-card="TS"' in frame
    await tab.close()


async def test_stop_playing_leaves_every_seat_of_the_player(solo_table, multi_table, alice, rig):
    rig(["TS", "9H", "9C", "8D"])
    other = await Tab.open(multi_table, alice)
    await other.act("sit", 3, buy_in=100)
    tab = await Tab.open(solo_table, alice)
    await tab.act("sit", 1, buy_in=100)
    await reality_check_due(alice)
    await tab.send("bet", 1, version=tab.version, amount="10")
    await tab.receive()
    assert ">Stop playing<" in tab.frames[-1]
    await tab.send("stop_playing", 1)
    await tab.receive_until("Leaving every table")
    assert not await database_sync_to_async(Seat.objects.filter(player=alice).exists)()
    await tab.close()
    await other.close()


async def test_a_visitor_cannot_answer_a_reality_check(multi_table):
    tab = await Tab.open(multi_table)
    await tab.send("stop_playing", 1)
    assert notice(await tab.receive()) == "Sign in to play."
    await tab.close()
