"""Two daphne processes, one table: what one player does, the other sees live; a timer fires once.

alice's websocket goes to process A and bob's to process B; both processes
share the test's PostgreSQL database and a Redis channel layer of its own
(tests/conftest.py: child_env). The table and the players' sessions are made
with the ORM; the first shoe is rigged in this process, which opens the
betting windows, so every card is known.

Round 1 is played by hand: each sees the other sit, bet, be dealt and hit, as
it happens. Round 2 nobody decides, with 1-second decisions: the timer of
whichever process committed the deal stands alice, then bob, while
`manage.py table_clock` (a sweeper every 50 ms and repeated `--once` runs)
and this process try to settle the same deadlines. Each decision is stood
exactly once, and the books balance.
"""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection
from django.test import Client

from accounts.audit import audit_ledger
from accounts.models import Transfer, TransferKind
from tables.engine import CardShoe
from tables.fairness import shoes
from tables.models import Round, RoundSeat, RuleProfile, Seat, Table
from tables.play import services
from tests.conftest import DAPHNE_LOGS, REPO, in_thread
from tests.tables.conftest import open_next_window
from tests.tables.ws import Page

pytestmark = [pytest.mark.scaled, pytest.mark.django_db(transaction=True)]

WAIT = 60  # seconds; generous, the machine may be busy
DECISIONS = ("hit", "stand", "double", "split", "surrender")
CARDS = [
    # Round 1. Deal order: seat 1, seat 2, dealer up, seat 1, seat 2, hole card.
    "5S", "TH", "9C", "6D", "8S", "7H",  # alice 5 6 = 11, bob T 8 = 18, dealer 9 (7 in the hole)
    "4C",  # alice hits: 15, and stands; bob stands
    "TC",  # the dealer's 16 draws a ten: bust
    # Round 2: alice 9 8, bob T 7, dealer 8 + 9: three 17s, nobody draws.
    "9S", "TD", "8H", "8D", "7C", "9D",
]  # fmt: skip


# --- Players on websockets, read on an event loop of their own ---------------------------


def section(frame: str, element_id: str) -> str:
    match = re.search(rf'<(\w+) id="{element_id}".*?</\1>', frame, re.S)
    return match.group(0) if match else ""


def seat_cards(frame: str, seat: int) -> list[str]:
    return re.findall(r'data-card="(\w\w)"', section(frame, f"seat-{seat}"))


def dealer_cards(frame: str) -> list[str]:
    return re.findall(r'data-card="(\w+)"', section(frame, "dealer"))


def buttons(frame: str) -> list[str]:
    """The viewer's decision buttons."""
    return re.findall(r'name="action" value="(\w+)"', section(frame, "controls"))


def version(frame: str) -> int:
    """The table version the page shows (its forms may carry older ones, still valid)."""
    return int(re.search(r'id="version" data-version="(\d+)"', frame).group(1))


class Player:
    """One browser tab's websocket to one process: the page after each frame it pushes, kept in order.

    Frames carry only what changed; like a browser, the tab swaps them into its page (tests.tables.ws.Page).
    """

    def __init__(self, name: str, seat: int, server_url: str, ws) -> None:
        self.name = name
        self.seat = seat
        self.server_url = server_url
        self.ws = ws
        self.frames: list[str] = []
        self.page = Page()
        self.new_frame = asyncio.Condition()
        self.reader = asyncio.ensure_future(self._read())

    @classmethod
    async def connect(cls, name: str, seat: int, server, table: Table, cookie: str) -> Player:
        import websockets

        ws = await websockets.connect(
            server.ws_url(f"/ws/tables/{table.pk}/"),
            additional_headers={"Origin": server.url, "Cookie": f"sessionid={cookie}"},
            max_size=2**22,
            open_timeout=WAIT,
        )
        player = cls(name, seat, server.url, ws)
        await player.wait_for(lambda frame: 'id="seat-1"' in frame, "the first frame")
        return player

    async def _read(self) -> None:
        async for frame in self.ws:
            async with self.new_frame:
                self.page.apply(frame)
                self.frames.append(self.page.html)
                self.new_frame.notify_all()

    @property
    def last(self) -> str:
        return self.frames[-1]

    async def wait_for(self, predicate: Callable[[str], bool], what: str) -> str:
        """The latest frame, once one satisfies `predicate`."""
        try:
            async with self.new_frame:
                await asyncio.wait_for(
                    self.new_frame.wait_for(lambda: bool(self.frames) and predicate(self.frames[-1])), WAIT
                )
        except TimeoutError:
            raise AssertionError(f"{self.name} ({self.server_url}) never saw {what}") from None
        return self.frames[-1]

    async def act(self, action: str, **fields: str) -> None:
        """Press a button of the latest frame, as htmx sends it."""
        offered = re.findall(r'name="action" value="(\w+)"', self.last)
        assert action in offered, f"{self.name} has no {action} button: {offered}"
        message = {"action": action, "seat": str(self.seat), "hand": "0", "version": str(version(self.last)), **fields}
        await self.ws.send(json.dumps(message))

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()


class LoopThread:
    """The players' event loop, in a thread, so the test itself stays synchronous (the ORM, subprocesses)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine, timeout: float = 5 * WAIT):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def close(self) -> None:
        async def cancel_the_rest() -> None:
            tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        self.run(cancel_the_rest(), timeout=WAIT)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=30)
        self.loop.close()


# --- The ones trying to fire the timers a second time --------------------------------------


class Sweepers:
    """`table_clock` every 50 ms, `table_clock --once` back to back, and settle_overdue here, all at once."""

    def __init__(self, env: dict[str, str], table: Table) -> None:
        self.env = env
        self.table = table
        self.stopping = threading.Event()
        self.once_runs = 0
        self.here_runs = 0
        DAPHNE_LOGS.mkdir(parents=True, exist_ok=True)
        self.log_path = DAPHNE_LOGS / f"table-clock-{table.pk}-{time.time_ns()}.log"
        self.log = open(self.log_path, "wb")  # noqa: SIM115 - closed in stop()
        self.sweeper = subprocess.Popen(
            [sys.executable, "manage.py", "table_clock", "--interval", "0.05"],
            cwd=REPO, env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        self.threads = [threading.Thread(target=self._once_again), threading.Thread(target=self._here)]
        for thread in self.threads:
            thread.start()

    def _once_again(self) -> None:
        while not self.stopping.is_set():
            subprocess.run(
                [sys.executable, "manage.py", "table_clock", "--once"],
                cwd=REPO, env=self.env, stdout=self.log, stderr=subprocess.STDOUT, timeout=WAIT, check=True,
            )  # fmt: skip
            self.once_runs += 1

    def _here(self) -> None:
        try:
            while not self.stopping.is_set():
                services.settle_overdue(self.table.pk)
                self.here_runs += 1
                time.sleep(0.02)
        finally:
            connection.close()

    def stop(self) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(timeout=2 * WAIT)
        self.sweeper.terminate()
        self.sweeper.wait(timeout=WAIT)
        self.log.close()


# --- The test -----------------------------------------------------------------------------


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def events(round_row: Round) -> list[dict]:
    round_row.refresh_from_db()
    return round_row.state["events"]


def assert_books_balance(table: Table) -> None:
    report = audit_ledger()
    assert report.ok, report.problems
    for seat in Seat.objects.filter(table=table, player__isnull=False).select_related("account"):
        row = RoundSeat.objects.filter(round__table=table, seat=seat.number).order_by("-id").first()
        assert row is not None and row.stack_after == seat.account.balance, (seat, row)
    for round_row in Round.objects.filter(table=table):
        reasons = list(
            Transfer.objects.filter(round=round_row, kind=TransferKind.PAYOUT).values_list("reason", flat=True)
        )
        assert len(reasons) == len(set(reasons)), f"a hand was paid twice: {reasons}"
        settles = [e for e in events(round_row) if e["kind"] == "settle" and e["chips"] > 0]
        assert len(reasons) == len(settles), (reasons, settles)


def test_two_players_on_two_processes_play_live_and_a_timer_fires_once(
    start_daphne, child_env, alice, bob, monkeypatch
):
    monkeypatch.setattr(shoes, "shoe_source", lambda rules: CardShoe.stacked(CARDS, rules.decks))
    table = Table.objects.create(
        name="Two processes", profile=RuleProfile.ATLANTIC_CITY_MULTI, seat_count=5, min_bet=1, max_bet=100,
        pause_seconds=3600, betting_seconds=WAIT, insurance_seconds=WAIT, decision_seconds=WAIT,
    )  # fmt: skip
    a, b = start_daphne("a"), start_daphne("b")
    logs = f"daphne logs: {a.log}, {b.log}"
    loop = LoopThread()
    try:
        alice_tab = loop.run(Player.connect("alice", 1, a, table, session_cookie(alice)))
        bob_tab = loop.run(Player.connect("bob", 2, b, table, session_cookie(bob)))
        loop.run(play_round_1(table, alice_tab, bob_tab))
        round_1 = Round.objects.get(table=table, number=1)
        assert round_1.phase == "settled", logs
        stacks = Seat.objects.filter(table=table).order_by("number").values_list("account__balance", flat=True)
        assert list(stacks[:2]) == [110, 120]
        assert_books_balance(table)

        Table.objects.filter(pk=table.pk).update(decision_seconds=1)
        sweepers = Sweepers(child_env, table)
        try:
            loop.run(play_round_2(table, alice_tab, bob_tab))
        finally:
            sweepers.stop()
        round_2 = Round.objects.get(table=table, number=2)
        assert round_2.phase == "settled", logs
        decisions = [(e["kind"], e["seat"], e["actor"]) for e in events(round_2) if e["kind"] in DECISIONS]
        assert decisions == [("stand", 1, "timer"), ("stand", 2, "timer")], (decisions, logs, sweepers.log_path)
        assert sweepers.once_runs >= 1 and sweepers.here_runs >= 10  # they did try
        assert_books_balance(table)
        assert RoundSeat.objects.filter(round__table=table).count() == 4
        for tab in (alice_tab, bob_tab):
            loop.run(tab.close())
    finally:
        loop.close()


async def play_round_1(table: Table, alice: Player, bob: Player) -> None:
    await alice.act("sit", buy_in="100")
    await bob.wait_for(lambda f: "alice" in section(f, "seat-1"), "alice sit down")  # B hears of A's change
    await bob.act("sit", buy_in="100")
    await alice.wait_for(lambda f: "bob" in section(f, "seat-2"), "bob sit down")  # and A of B's

    await in_thread(open_next_window, table)
    for player in (alice, bob):
        await player.wait_for(lambda f: "bet" in buttons(f), "the betting window open")

    await alice.act("bet", amount="10")
    frame = await bob.wait_for(lambda f: "alice bets 10." in f, "alice's bet")
    assert "Bet 10" in section(frame, "seat-1") and "bet" in buttons(frame)
    await bob.act("bet", amount="20")
    # Both see both hands, dealt by whichever process took the last bet.
    frame = await alice.wait_for(lambda f: seat_cards(f, 2) == ["TH", "8S"], "bob's cards")
    assert seat_cards(frame, 1) == ["5S", "6D"] and dealer_cards(frame) == ["9C", "hidden"]
    assert "Bet 20" in section(frame, "seat-2") and "hit" in buttons(frame)
    frame = await bob.wait_for(lambda f: seat_cards(f, 1) == ["5S", "6D"], "alice's cards")
    assert seat_cards(frame, 2) == ["TH", "8S"] and buttons(frame) == []  # seat 1 plays first

    await alice.act("hit")
    frame = await bob.wait_for(lambda f: seat_cards(f, 1) == ["5S", "6D", "4C"], "alice's hit")
    assert "alice hits: 4 of clubs." in frame
    await alice.wait_for(lambda f: seat_cards(f, 1) == ["5S", "6D", "4C"] and "stand" in buttons(f), "her own card")
    await alice.act("stand")
    await bob.wait_for(lambda f: "stand" in buttons(f), "his turn")
    await bob.act("stand")
    for player in (alice, bob):
        frame = await player.wait_for(lambda f: "Round over." in f, "the round settle")
        assert dealer_cards(frame) == ["9C", "7H", "TC"]
        assert "alice, hand 1: win, 20 back." in frame and "bob, hand 1: win, 40 back." in frame


async def play_round_2(table: Table, alice: Player, bob: Player) -> None:
    await in_thread(open_next_window, table)
    for player in (alice, bob):
        await player.wait_for(lambda f: "bet" in buttons(f), "round 2's betting window")
    await alice.act("bet", amount="10")
    await bob.wait_for(lambda f: "alice bets 10." in f and "bet" in buttons(f), "alice's bet")
    await bob.act("bet", amount="20")
    # Nobody decides: the 1-second timers stand alice, then bob.
    for player in (alice, bob):
        frame = await player.wait_for(lambda f: "Round over." in f and "round 2" in section(f, "status"), "round 2 end")
        assert seat_cards(frame, 1) == ["9S", "8D"] and seat_cards(frame, 2) == ["TD", "7C"]
        seen = "".join(player.frames)
        assert "alice stands (time ran out)." in seen and "bob stands (time ran out)." in seen
