"""The table's websocket, driven as htmx drives it: forms in, out-of-band HTML frames out."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from accounts.audit import audit_ledger
from tables.models import RuleProfile, Seat, Table
from tables.play import rounds
from tests.tables.conftest import make_table, open_next_window
from tests.tables.ws import Tab, notice, top_level_pieces

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def create_table(profile: str, **fields) -> Table:
    return make_table(profile, **fields)


open_window = database_sync_to_async(open_next_window)


@database_sync_to_async
def assert_books_balance() -> None:
    """After every round: the ledger audits clean and each seat's stack is its ledger balance."""
    report = audit_ledger()
    assert report.ok, report.problems
    for seat in Seat.objects.filter(player__isnull=False).select_related("account", "table__current_round"):
        round_row = seat.table.current_round
        if round_row is not None:
            part = rounds.load(round_row).seats.get(seat.number)
            if part is not None:
                assert part.stack == seat.account.balance, seat


@database_sync_to_async
def balance_of(table: Table, number: int) -> int:
    return Seat.objects.select_related("account").get(table=table, number=number).account.balance


async def test_it_sends_the_whole_table_on_connect_to_a_spectator(multi_table):
    tab = await Tab.open(multi_table)
    first = tab.frames[0]
    for piece in ('id="status"', 'id="dealer"', 'id="seats"', 'id="controls"', 'id="log"', 'id="seat-5"'):
        assert piece in first
    # htmx's ws extension swaps each top-level element by its id.
    assert [piece for piece, _ in top_level_pieces(first)] == [
        "status", "turn", "dealer", "result", "notice", "controls", "hints-switch", "seats", "log", "version"
    ]
    assert "Sit here" not in first  # anonymous viewers watch
    await tab.close()


async def test_an_anonymous_client_cannot_act(multi_table, rig):
    tab = await Tab.open(multi_table)
    await tab.send("sit", 1)
    assert notice(await tab.receive()) == "Sign in to play."
    await tab.send("bet", 1, version="1", amount="10")
    assert notice(await tab.receive()) == "Sign in to play."
    assert await database_sync_to_async(Seat.objects.filter(player__isnull=False).count)() == 0
    await tab.close()


async def test_it_refuses_a_foreign_origin(multi_table, alice):
    tab = await Tab.open(multi_table, alice, origin="http://evil.example", expect_open=False)
    assert not tab.connected
    await tab.close()  # ends the refused application instance, as a browser hanging up would


async def test_it_closes_a_private_table_to_others(alice, bob):
    from tables.play import lobby

    table = await database_sync_to_async(lobby.solo_table_for)(alice)
    tab = await Tab.open(table, bob, expect_open=False)
    assert tab.connected  # accepted, then closed for good: htmx would retry a refused handshake
    output = await tab.communicator.receive_output(timeout=2)
    assert output == {"type": "websocket.close", "code": 4403}
    await tab.close()


async def test_a_solo_atlantic_city_round_from_sitting_to_settlement(solo_table, alice, rig):
    rig(["TS", "9H", "9C", "8D"])
    tab = await Tab.open(solo_table, alice)
    assert "Sit here" in tab.last
    frame = await tab.act("sit", 1, buy_in=100)
    assert 'name="amount"' in frame and ">Deal<" in frame and ">Pass<" in frame
    frame = await tab.act("bet", 1, amount=10)
    assert 'data-card="TS"' in frame and 'data-card="9C"' in frame and 'data-card="9H"' in frame
    assert 'data-card="8D"' not in frame and 'data-card="hidden"' in frame
    assert ">Stand<" in frame and ">Hit<" in frame and ">Double<" in frame and ">Split<" not in frame
    frame = await tab.act("stand", 1)
    assert 'data-card="8D"' in frame
    assert "hand 1: win, 20 back" in frame
    assert await balance_of(solo_table, 1) == 110
    assert 'Stack <strong data-stack>110</strong> · session <span class="plus">+10</span>' in frame
    assert '<div id="result" class="win" role="status">You win +10</div>' in frame
    await assert_books_balance()
    await tab.close()


async def test_two_players_play_an_atlantic_city_multi_round_and_see_each_other(multi_table, alice, bob, rig):
    # alice: T 9 = 19; bob: 5 6 = 11 doubles onto 9 = 20; dealer 7 + T = 17.
    rig(["TS", "5C", "7H", "9C", "6D", "TD", "9S"])
    alice_tab = await Tab.open(multi_table, alice)
    bob_tab = await Tab.open(multi_table, bob)
    await alice_tab.act("sit", 1)
    await bob_tab.receive()
    await bob_tab.act("sit", 2)
    await alice_tab.receive()
    await open_window(multi_table)
    await alice_tab.receive_until(">Deal<")
    await bob_tab.receive_until(">Deal<")

    await alice_tab.act("bet", 1, amount=10)
    await bob_tab.receive()
    await bob_tab.act("bet", 2, amount=20)
    frame = await alice_tab.receive()
    assert 'data-card="6D"' in frame  # alice sees bob's cards
    assert ">Stand<" in frame  # seat 1 acts first
    assert ">Stand<" not in bob_tab.last  # bob waits for his turn

    await alice_tab.act("stand", 1)
    frame = await bob_tab.receive()
    assert ">Double<" in frame
    frame = await bob_tab.act("double", 2)
    assert "hand 1: win, 80 back" in frame  # bob: 40 staked
    frame = await alice_tab.receive()
    assert "hand 1: win, 20 back" in frame
    assert await balance_of(multi_table, 1) == 110
    assert await balance_of(multi_table, 2) == 140
    await assert_books_balance()
    await alice_tab.close()
    await bob_tab.close()


async def test_an_internet_7_natural_is_paid_at_once_when_the_dealer_shows_no_ace_or_ten(alice, rig):
    table = await create_table(RuleProfile.INTERNET_7, seat_count=7)
    rig(["AS", "9H", "KD", "7C"])
    tab = await Tab.open(table, alice)
    await tab.act("sit", 3)
    await open_window(table)
    await tab.receive_until(">Deal<")
    frame = await tab.act("bet", 3, amount=10)
    assert "hand 1: blackjack, 25 back" in frame
    assert await balance_of(table, 3) == 115
    await assert_books_balance()
    await tab.close()


async def test_an_internet_6_double_for_less(alice, rig):
    table = await create_table(RuleProfile.INTERNET_6, seat_count=6)
    # alice 6 5 = 11; dealer 5 + T = 15; alice doubles for 4 and draws 9 = 20; dealer draws 8: bust.
    rig(["6S", "5H", "5C", "TD", "9S", "8H"])
    tab = await Tab.open(table, alice)
    await tab.act("sit", 1)
    await open_window(table)
    await tab.receive_until(">Deal<")
    frame = await tab.act("bet", 1, amount=10)
    assert "Double for" in frame
    frame = await tab.act("double", 1, amount=4)
    assert "alice doubles for 4: 9 of spades." in frame
    assert "hand 1: win, 28 back" in frame
    assert await balance_of(table, 1) == 114
    await assert_books_balance()
    await tab.close()


async def test_one_player_plays_two_seats_at_a_rocket_academy_table(alice, rig):
    table = await create_table(RuleProfile.ROCKET_ACADEMY, seat_count=3)
    # seat 1: T 6 = 16 surrenders; seat 2: 9 9 = 18 stands; dealer 7 + Q = 17.
    rig(["TS", "9H", "7C", "6D", "9C", "QH"])
    tab = await Tab.open(table, alice)
    await tab.act("sit", 1)
    frame = await tab.act("sit", 2)
    assert "Sit here" in frame  # a third seat is still hers to take
    await open_window(table)
    await tab.receive_until(">Deal<")
    frame = await tab.act("bet", 1, amount=11)
    assert frame.count(">Deal<") == 1  # seat 2 still to bet
    frame = await tab.act("bet", 2, amount=10)
    assert ">Surrender<" in frame
    frame = await tab.act("surrender", 1)
    assert ">Surrender<" in frame and 'data-seat="2"' in frame
    frame = await tab.act("stand", 2)
    assert "surrender, 5 back" in frame
    assert "hand 1: win, 20 back" in frame
    assert await balance_of(table, 1) == 94  # 11 staked, 5 back
    assert await balance_of(table, 2) == 110
    await assert_books_balance()
    await tab.close()


async def test_a_stale_action_is_refused_and_changes_nothing(solo_table, alice, rig):
    rig(["TS", "9H", "2C", "8D", "5S", "4H"])
    tab = await Tab.open(solo_table, alice)
    await tab.act("sit", 1)
    await tab.act("bet", 1, amount=10)
    old_version = tab.version
    frame = await tab.act("hit", 1)
    assert "alice hits: 5 of spades." in frame
    # The same click again, as a double-click or a frame queued while offline.
    await tab.send("hit", 1, version=old_version, hand="0")
    frame = await tab.receive()
    assert notice(frame) == "The table moved on before your click arrived; here it is as it stands."
    assert "4 of hearts" not in frame
    assert ">Hit<" in frame  # the fresh render
    await tab.close()


async def test_an_action_for_someone_elses_seat_is_refused(multi_table, alice, bob, rig):
    rig(["TS", "9H", "9C", "8D"])
    alice_tab = await Tab.open(multi_table, alice)
    await alice_tab.act("sit", 1)
    await open_window(multi_table)
    await alice_tab.receive_until(">Deal<")
    bob_tab = await Tab.open(multi_table, bob)
    await bob_tab.send("bet", 1, version=alice_tab.version, amount="10")
    assert notice(await bob_tab.receive()) == "That is not your seat."
    await bob_tab.send("leave", 1)
    assert notice(await bob_tab.receive()) == "That is not your seat."
    assert await balance_of(multi_table, 1) == 100
    await alice_tab.close()
    await bob_tab.close()


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("not json", "That message could not be read."),
        ('["a", "list"]', "That message could not be read."),
        ('{"action": "fly", "seat": "1", "version": "1"}', "is not something you can do at this table."),
        ('{"action": "bet", "seat": "1", "version": "1", "amount": "-5"}', "The amount must be a whole number"),
        ('{"action": "bet", "seat": "1", "version": "1", "amount": "2.5"}', "The amount must be a whole number"),
        ('{"action": "bet", "seat": "one", "version": "1", "amount": "5"}', "The seat must be a whole number"),
        ('{"action": "bet", "seat": "1", "version": "1", "amount": "1000"}', "100"),
        ('{"action": "bet", "seat": "1", "version": "1", "amount": "99999999999999999999"}', "The amount must be"),
        ("x" * 5000, "That message is too large."),
        ("[" * 2000 + "]" * 2000, "That message could not be read."),
        ('{"action": "bet", "seat": "1", "version": "1", "amount": "²"}', "The amount must be a whole number"),
        ('{"action": "bet", "seat": "1", "version": "1", "amount": ["10"]}', "The amount must be a whole number"),
        ('{"action": ["sit"], "seat": "1"}', "Press one of the table"),
    ],
)
async def test_bad_input_gets_a_notice_and_changes_nothing(solo_table, alice, rig, message, expected):
    tab = await Tab.open(solo_table, alice)
    await tab.act("sit", 1)
    await tab.communicator.send_to(text_data=message)
    frame = await tab.receive()
    assert expected in notice(frame)
    assert await balance_of(solo_table, 1) == 100
    await assert_books_balance()
    await tab.close()


async def test_a_decision_times_out_into_a_stand(alice, bob, rig):
    table = await create_table(RuleProfile.ATLANTIC_CITY_MULTI, decision_seconds=1)
    rig(["TS", "5C", "7H", "9C", "6D", "TD", "9S"])
    tab = await Tab.open(table, alice)
    await tab.act("sit", 1)
    await open_window(table)
    await tab.receive_until(">Deal<")
    await tab.act("bet", 1, amount=10)
    # Nobody presses anything: the timer stands for alice and the round settles.
    frame = await tab.receive_until("alice stands (time ran out).", timeout=5)
    assert "Round over." in frame or "Round over." in await tab.receive_until("Round over.")
    await assert_books_balance()
    await tab.close()


async def test_the_betting_window_closes_on_silent_seats(alice, bob, rig):
    table = await create_table(RuleProfile.ATLANTIC_CITY_MULTI, betting_seconds=1)
    rig(["TS", "7H", "9C", "TD"])
    alice_tab = await Tab.open(table, alice)
    bob_tab = await Tab.open(table, bob)
    await alice_tab.act("sit", 1)
    await bob_tab.receive()
    await bob_tab.act("sit", 2)
    await open_window(table)
    await alice_tab.receive_until(">Deal<")
    await alice_tab.act("bet", 1, amount=10)
    # bob says nothing: after the window closes he is left out and alice plays alone.
    frame = await bob_tab.receive_until("bob missed the betting window.", timeout=5)
    assert ">Stand<" not in frame
    frame = await alice_tab.receive_until(">Stand<")
    await alice_tab.act("stand", 1)
    assert await balance_of(table, 2) == 100
    await assert_books_balance()
    await alice_tab.close()
    await bob_tab.close()


async def test_a_reconnecting_player_gets_the_round_as_it_stands(multi_table, alice, rig):
    rig(["TS", "9H", "9C", "8D"])
    tab = await Tab.open(multi_table, alice)
    await tab.act("sit", 1)
    await open_window(multi_table)
    await tab.receive_until(">Deal<")
    await tab.act("bet", 1, amount=10)
    await tab.close()
    again = await Tab.open(multi_table, alice)
    assert 'data-card="TS"' in again.last and 'data-card="9C"' in again.last
    assert ">Stand<" in again.last
    assert 'data-card="8D"' not in again.last
    await again.act("stand", 1)
    assert "hand 1: win, 20 back" in again.last
    await again.close()


async def test_no_frame_shows_the_hole_card_before_it_is_turned(alice, bob, rig):
    table = await create_table(RuleProfile.ATLANTIC_CITY_MULTI)
    # The hole card, the seven of clubs, is the only seven in this shoe.
    rig(["TS", "5D", "AH", "9C", "6D", "7C", "3S", "8H"])
    alice_tab = await Tab.open(table, alice)
    bob_tab = await Tab.open(table, bob)
    spectator = await Tab.open(table)
    await alice_tab.act("sit", 1)
    await bob_tab.act("sit", 2)
    await bob_tab.receive_until("Leave table")
    await open_window(table)
    await alice_tab.receive_until(">Deal<")
    await bob_tab.receive_until(">Deal<")
    await alice_tab.act("bet", 1, amount=10)
    await bob_tab.act("bet", 2, amount=10)
    await alice_tab.receive_until(">No insurance<")
    await alice_tab.act("no_insurance", 1)
    await bob_tab.receive_until(">No insurance<")
    await bob_tab.act("no_insurance", 2)
    await alice_tab.receive_until(">Stand<")
    await alice_tab.act("stand", 1)
    await bob_tab.receive_until(">Hit<")
    await bob_tab.act("hit", 2)  # 5 6 3 = 14
    await bob_tab.receive_until(">Stand<")
    await bob_tab.act("stand", 2)
    for tab in (alice_tab, bob_tab, spectator):
        await tab.receive_until("Round over.")
        await tab.drain()
        turned = next(i for i, frame in enumerate(tab.frames) if "turns the hole card" in frame)
        for frame in tab.frames[:turned]:
            assert "7C" not in frame and "7 of clubs" not in frame
        assert 'data-card="7C"' in tab.frames[turned]
    await assert_books_balance()
    for tab in (alice_tab, bob_tab, spectator):
        await tab.close()


async def test_leaving_during_a_round_cashes_out_when_it_ends(solo_table, alice, rig):
    rig(["TS", "9H", "9C", "8D"])
    tab = await Tab.open(solo_table, alice)
    await tab.act("sit", 1, buy_in=150)
    await tab.act("bet", 1, amount=10)
    frame = await tab.act("leave", 1)
    assert "Leaving when this round ends." in frame
    await tab.act("stand", 1)
    from accounts import ledger

    bankroll = await database_sync_to_async(lambda: ledger.bankroll_of(alice).balance)()
    assert bankroll == 1010
    assert "Sit here" in tab.last
    await assert_books_balance()
    await tab.close()
