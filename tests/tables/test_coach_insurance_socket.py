"""The coach at the insurance offer, over the table's websocket: the hint reaches the player who asked, nobody else."""

from __future__ import annotations

import re

import pytest
from channels.db import database_sync_to_async

from tables.live import coach
from tests.tables.conftest import open_next_window
from tests.tables.ws import Tab

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

open_window = database_sync_to_async(open_next_window)


def controls(page: str) -> str:
    return re.search(r'<section id="controls".*?</section>', page, re.DOTALL).group(0)


async def test_the_insurance_hint_reaches_only_the_player_who_turned_hints_on(multi_table, alice, bob, carol, rig):
    coach.forget()
    # alice (seat 1): 10,6; bob (seat 2): 9,7; the dealer shows an ace, a 9 in the hole.
    rig(["TS", "9D", "AS", "6H", "7C", "9C"])
    alice_tab = await Tab.open(multi_table, alice)
    bob_tab = await Tab.open(multi_table, bob)
    carol_tab = await Tab.open(multi_table, carol)  # watching, with hints on
    await alice_tab.act("sit", 1)
    await bob_tab.act("sit", 2)
    for user, tab in ((alice, alice_tab), (carol, carol_tab)):
        await tab.send("hints", 1, hints="on")
        await tab.receive_until("Hints: on" if user is alice else "You are watching")
    await open_window(multi_table)
    await alice_tab.receive_until(">Deal<")
    await bob_tab.receive_until(">Deal<")
    await alice_tab.act("bet", 1, amount=10)
    await bob_tab.act("bet", 2, amount=10)

    page = await alice_tab.receive_until('data-hint="exact"', timeout=30)
    hint = controls(page)
    assert "Expected value of insurance for 5 chips (your bet is 10)" in hint
    assert "with the 411 cards you have not seen" in hint
    # 127 tens among those 411 cards: 5 chips of insurance are worth 5 x (3 x 127/411 - 1), about -0.36.
    chips = float(re.search(r'data-play="insurance">Insurance (-[0-9.]+)<', hint).group(1))
    assert chips == pytest.approx(5 * (3 * 127 / 411 - 1), abs=0.006)
    assert re.search(r'class="best" data-play="no_insurance">No insurance 0\.00 \(best\)', hint)

    for tab in (bob_tab, carol_tab):
        await tab.receive_until(">No insurance<" if tab is bob_tab else 'id="version"')
        await tab.drain()
        assert "data-hint" not in tab.last and "Expected value" not in tab.last
        assert not any("data-hint" in frame for frame in tab.frames)
    for tab in (alice_tab, bob_tab, carol_tab):
        await tab.close()
