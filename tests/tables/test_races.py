"""Many copies of one action at once apply exactly once.

A double-click, a second tab, a frame replayed after a reconnect: each copy
carries the version it was made against, and the Table row lock lets one
through; the others are refused with a notice and change nothing. Threads
race through the services on their own database connections; tabs race over
the websocket. (The race for the last free seat through the services is in
test_sit.py; here it is run over two players' websockets.)
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections import Counter
from collections.abc import Callable

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from accounts import ledger
from accounts.audit import audit_ledger
from accounts.models import Transfer, TransferKind
from tables.models import Round, RuleProfile, Seat, Table
from tables.play import services
from tests.tables.conftest import make_table, open_next_window
from tests.tables.ws import Tab, frame_version, notice

pytestmark = pytest.mark.django_db(transaction=True)

COPIES = 8
STALE = "The table moved on before your click arrived; here it is as it stands."


@pytest.fixture(autouse=True)
def _own_channel_layer(private_channel_layer):
    """Tabs hear only this test's tables (see tests/conftest.py)."""


def race(copies: int, action: Callable[[], object]) -> list[object]:
    """Run `action` in `copies` threads released at once; each result is a return value or a TableError."""
    barrier = threading.Barrier(copies)
    results: list[object] = [None] * copies

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = action()
        except services.TableError as error:
            results[i] = error
        except Exception as error:  # noqa: BLE001 - reported by the assertion below
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(copies)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a racer hung"
    unexpected = [r for r in results if isinstance(r, Exception) and not isinstance(r, services.TableError)]
    assert not unexpected, unexpected
    return results


def version_of(table: Table) -> int:
    return Table.objects.values_list("version", flat=True).get(pk=table.pk)


def events_of(table: Table) -> list[dict]:
    table.refresh_from_db()
    return Round.objects.get(pk=table.current_round_id).state["events"]


def stack(table: Table, number: int) -> int:
    return Seat.objects.select_related("account").get(table=table, number=number).account.balance


def assert_books_balance() -> None:
    report = audit_ledger()
    assert report.ok, report.problems


def deal(alice, bob, rig, draws: list[str]) -> Table:
    """alice (seat 1: 5 6 = 11) and bob (seat 2: T 8) have bet 10 each; alice is to act.

    The dealer shows a 9, with a 7 in the hole; `draws` are the cards after the deal, in order.
    """
    # Deal order: seat 1, seat 2, dealer up, seat 1, seat 2, hole card.
    rig(["5S", "TH", "9C", "6D", "8S", "7H", *draws])
    table = make_table(RuleProfile.ATLANTIC_CITY_MULTI)
    services.do_sit(table.pk, alice, 1)
    services.do_sit(table.pk, bob, 2)
    open_next_window(table)
    services.do_act(table.pk, alice, "bet", seat=1, amount=10, version=version_of(table))
    services.do_act(table.pk, bob, "bet", seat=2, amount=10, version=version_of(table))
    return table


@pytest.fixture
def dealt(alice, bob, rig) -> Table:
    """As `deal`; alice's first card drawn is the 4 of clubs (11 + 4 = 15: still hers to play)."""
    return deal(alice, bob, rig, ["4C", "3D", "2H", "2S"])


# --- Threads: the services under the table lock ----------------------------------------


def test_copies_of_one_hit_apply_once_and_the_rest_are_stale(dealt, alice):
    seen = version_of(dealt)
    results = race(COPIES, lambda: services.do_act(dealt.pk, alice, "hit", seat=1, version=seen))

    applied = [r for r in results if isinstance(r, services.Change)]
    refused = [r for r in results if isinstance(r, services.TableError)]
    assert len(applied) == 1
    assert [error.code for error in refused] == ["stale"] * (COPIES - 1)
    assert {error.message for error in refused} == {STALE}
    hits = [e for e in events_of(dealt) if e["kind"] == "hit"]
    assert [(e["seat"], e["actor"]) for e in hits] == [(1, "player")]
    assert version_of(dealt) == seen + 1
    cards = [e["card"] for e in events_of(dealt) if e["kind"] == "deal_card" and e["seat"] == 1]
    assert cards == ["5S", "6D", "4C"]  # one card drawn, not eight
    assert stack(dealt, 1) == 90
    assert_books_balance()


def test_copies_of_one_double_stake_once(dealt, alice):
    seen = version_of(dealt)
    results = race(COPIES, lambda: services.do_act(dealt.pk, alice, "double", seat=1, version=seen))

    assert sum(isinstance(r, services.Change) for r in results) == 1
    assert all(isinstance(r, services.Change | services.TableError) for r in results)
    doubles = Transfer.objects.filter(kind=TransferKind.DOUBLE)
    assert [(t.amount, t.source.seat.number) for t in doubles] == [(10, 1)]
    assert Counter(e["kind"] for e in events_of(dealt))["double"] == 1
    assert stack(dealt, 1) == 80  # 10 bet + 10 doubled
    assert_books_balance()


def test_copies_of_one_bet_stake_once(alice, bob, rig):
    rig(["5S", "TH", "9C", "6D", "8S", "7H"])
    table = make_table(RuleProfile.ATLANTIC_CITY_MULTI)
    services.do_sit(table.pk, alice, 1)
    services.do_sit(table.pk, bob, 2)
    open_next_window(table)
    seen = version_of(table)
    results = race(COPIES, lambda: services.do_act(table.pk, alice, "bet", seat=1, amount=10, version=seen))

    assert sum(isinstance(r, services.Change) for r in results) == 1
    refused = {r.message for r in results if isinstance(r, services.TableError)}
    assert refused == {"Seat 1 has already answered this betting window."}
    assert list(Transfer.objects.filter(kind=TransferKind.BET).values_list("amount", flat=True)) == [10]
    assert stack(table, 1) == 90
    assert_books_balance()


def test_copies_of_the_last_stand_settle_the_round_once(alice, bob, rig):
    table = deal(alice, bob, rig, ["TC"])  # the dealer's 16 draws a ten: bust, both hands win
    services.do_act(table.pk, alice, "stand", seat=1, version=version_of(table))
    seen = version_of(table)
    results = race(COPIES, lambda: services.do_act(table.pk, bob, "stand", seat=2, version=seen))

    assert sum(isinstance(r, services.Change) for r in results) == 1
    table.refresh_from_db()
    assert table.current_round.phase == "settled"
    assert Counter(e["kind"] for e in events_of(table))["round_settled"] == 1
    payouts = Transfer.objects.filter(kind=TransferKind.PAYOUT, round=table.current_round)
    assert sorted((t.destination.seat.number, t.amount) for t in payouts) == [(1, 20), (2, 20)]
    assert table.current_round.players.count() == 2
    assert (stack(table, 1), stack(table, 2)) == (110, 110)
    assert_books_balance()


def test_a_click_and_the_timer_racing_for_one_decision_apply_once(dealt, alice):
    """alice's decision times out as she clicks Hit: the timer's stand or the hit, never both.

    A click that arrives after the deadline loses to the timer's default
    (README: "Time ran out before your click arrived"), whichever thread
    takes the lock first.
    """
    from django.utils import timezone

    seen = version_of(dealt)
    Table.objects.filter(pk=dealt.pk).update(deadline=timezone.now())
    turns = iter(range(COPIES))
    lock = threading.Lock()

    def click_or_timer():
        with lock:
            i = next(turns)
        if i % 2:
            return services.do_act(dealt.pk, alice, "hit", seat=1, version=seen)
        return services.do_expire(dealt.pk, seen)

    results = race(COPIES, click_or_timer)
    codes = Counter(r.code for r in results if isinstance(r, services.TableError))
    applied = sum(isinstance(r, services.Change) for r in results) + codes["late"]
    assert applied == 1
    assert set(codes) <= {"late", "out_of_turn"}
    decisions = [(e["kind"], e["actor"]) for e in events_of(dealt) if e["seat"] == 1 and e["kind"] in ("hit", "stand")]
    assert decisions == [("stand", "timer")]
    assert_books_balance()


def test_a_leave_replayed_during_a_round_is_refused(dealt, alice):
    seen = version_of(dealt)
    services.do_leave(dealt.pk, alice, 1, version=seen)
    with pytest.raises(services.TableError):
        services.do_leave(dealt.pk, alice, 1, version=seen)
    assert version_of(dealt) == seen + 1


# --- Tabs: the same frame over the websocket -------------------------------------------


@database_sync_to_async
def transfers(kind: str) -> list[int]:
    return list(Transfer.objects.filter(kind=kind).order_by("id").values_list("amount", flat=True))


@database_sync_to_async
def event_kinds(table: Table) -> Counter:
    return Counter(e["kind"] for e in events_of(table))


async def replies(*tabs: Tab, notices: int, timeout: float = 30) -> list[str]:
    """Frames until every tab got one more and `notices` notices came in all; return those notices.

    Call it as soon as the copies are sent: only frames received from then on count.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    seen = [len(tab.frames) for tab in tabs]

    def said() -> list[str]:
        return [notice(frame) for tab, n in zip(tabs, seen) for frame in tab.frames[n:] if notice(frame)]

    while len(said()) < notices or any(len(tab.frames) == n for tab, n in zip(tabs, seen)):
        assert loop.time() < deadline, f"still waiting; notices so far: {said()}"
        for tab in tabs:
            if not await tab.communicator.receive_nothing(timeout=0.02):
                await tab.receive()
    for tab in tabs:
        await tab.drain()
    return said()


async def open_tabs(table: Table, *players) -> list[Tab]:
    return [await Tab.open(table, player) for player in players]


@pytest.mark.asyncio
async def test_two_tabs_sending_the_same_hit_at_once_apply_it_once(dealt, alice):
    first, second = await open_tabs(dealt, alice, alice)
    sent = int(first.version)
    hit = json.dumps({"action": "hit", "seat": "1", "hand": "0", "version": str(sent)})
    # A double-click in each tab.
    await asyncio.gather(*(tab.communicator.send_to(text_data=hit) for tab in (first, second, first, second)))

    assert await replies(first, second, notices=3) == [STALE] * 3
    assert (await event_kinds(dealt))["hit"] == 1
    for tab in (first, second):
        assert tab.last.count('data-card="4C"') == 1
        assert ">Hit<" in tab.last  # 15: still alice's to play
    await database_sync_to_async(assert_books_balance)()
    for tab in (first, second):
        await tab.close()


@pytest.mark.asyncio
async def test_two_tabs_double_clicking_deal_place_one_bet(alice, bob, rig):
    rig(["5S", "TH", "9C", "6D", "8S", "7H"])
    table = await database_sync_to_async(make_table)(RuleProfile.ATLANTIC_CITY_MULTI)
    await database_sync_to_async(services.do_sit)(table.pk, alice, 1)
    await database_sync_to_async(services.do_sit)(table.pk, bob, 2)
    await database_sync_to_async(open_next_window)(table)
    first, second = await open_tabs(table, alice, alice)
    assert ">Deal<" in first.last and ">Deal<" in second.last
    sent = int(first.version)
    deal_10 = json.dumps({"action": "bet", "seat": "1", "hand": "0", "version": str(sent), "amount": "10"})
    await asyncio.gather(*(tab.communicator.send_to(text_data=deal_10) for tab in (first, first, second, second)))

    assert await replies(first, second, notices=3) == ["Seat 1 has already answered this betting window."] * 3
    assert await transfers(TransferKind.BET) == [10]
    assert await database_sync_to_async(stack)(table, 1) == 90
    for tab in (first, second):
        assert ">Deal<" not in tab.last  # alice has answered; bob's seat is still betting
    for tab in (first, second):
        await tab.close()


@pytest.mark.asyncio
async def test_frames_replayed_in_the_next_round_are_refused_with_a_notice(alice, bob, rig):
    """Frames queued while offline, or replayed by hand, arrive when the table has moved on."""
    # alice 5 6 doubles onto 4; bob T 8 hits a 2 and stands; the dealer's 9 7 draws a ten: bust.
    rig(["5S", "TH", "9C", "6D", "8S", "7H", "4C", "2D", "TC"], [])
    table = await database_sync_to_async(make_table)(RuleProfile.ATLANTIC_CITY_MULTI)
    await database_sync_to_async(services.do_sit)(table.pk, alice, 1)
    await database_sync_to_async(services.do_sit)(table.pk, bob, 2)
    await database_sync_to_async(open_next_window)(table)
    alice_tab, bob_tab = await open_tabs(table, alice, bob)
    assert ">Deal<" in alice_tab.last and ">Deal<" in bob_tab.last

    sent: list[tuple[Tab, str]] = []

    async def act(tab: Tab, action: str, seat: int, **fields: str) -> None:
        frame = json.dumps({"action": action, "seat": str(seat), "hand": "0", "version": tab.version, **fields})
        sent.append((tab, frame))
        before = int(tab.version)
        await tab.communicator.send_to(text_data=frame)
        while (frame_version(tab.last) or 0) <= before:
            await tab.receive(timeout=20)
        assert not notice(tab.last), notice(tab.last)

    await act(alice_tab, "bet", 1, amount="10")
    await bob_tab.receive_until(">Deal<")
    await act(bob_tab, "bet", 2, amount="20")
    await alice_tab.receive_until(">Double<")
    await act(alice_tab, "double", 1)
    await bob_tab.receive_until(">Hit<")
    await act(bob_tab, "hit", 2)
    await bob_tab.receive_until(">Stand<")
    await act(bob_tab, "stand", 2)
    await alice_tab.receive_until("Round over.")
    await database_sync_to_async(open_next_window)(table)
    await alice_tab.receive_until(">Deal<")
    await bob_tab.receive_until(">Deal<")

    books = [await transfers(kind) for kind in (TransferKind.BET, TransferKind.DOUBLE, TransferKind.PAYOUT)]
    assert books == [[10, 20], [10], [40, 40]]
    version = await database_sync_to_async(version_of)(table)
    for tab, frame in sent:
        await tab.drain()
        await tab.communicator.send_to(text_data=frame)
        assert notice(await tab.receive(timeout=20)) == STALE
    assert [await transfers(kind) for kind in (TransferKind.BET, TransferKind.DOUBLE, TransferKind.PAYOUT)] == books
    assert await database_sync_to_async(version_of)(table) == version
    assert ">Deal<" in alice_tab.last and ">Deal<" in bob_tab.last  # the fresh render: round 2 is betting
    for tab in (alice_tab, bob_tab):
        await tab.close()


@pytest.mark.asyncio
async def test_two_players_pressing_sit_here_on_the_last_free_seat_one_wins(alice, bob):
    table = await database_sync_to_async(make_table)(RuleProfile.ATLANTIC_CITY)  # one seat, public
    alice_tab, bob_tab = await open_tabs(table, alice, bob)
    sent = int(alice_tab.version)
    await asyncio.gather(
        alice_tab.send("sit", 1, version=str(sent), buy_in="100"),
        bob_tab.send("sit", 1, version=str(sent), buy_in="100"),
    )
    assert await replies(alice_tab, bob_tab, notices=1) == ["Someone else took that seat."]

    @database_sync_to_async
    def outcome() -> tuple[str, int, int]:
        seat = Seat.objects.select_related("player").get(table=table, number=1)
        return seat.player.username, ledger.bankroll_of(alice).balance, ledger.bankroll_of(bob).balance

    winner, alice_bankroll, bob_bankroll = await outcome()
    assert (alice_bankroll, bob_bankroll) == ((900, 1000) if winner == "alice" else (1000, 900))
    loser_tab = bob_tab if winner == "alice" else alice_tab
    assert any(notice(frame) == "Someone else took that seat." for frame in loser_tab.frames)
    for tab in (alice_tab, bob_tab):
        await tab.close()
