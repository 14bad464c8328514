"""A live daphne whose crowd vanishes at once, mid-round, without a goodbye, stays healthy (issue 16).

Issue 16: after a 600-player load test was cut short, daphne spun at 100% of
a core for 55 minutes with nobody connected, served nothing and ignored
SIGTERM (a `read()` that awaited a finished future in a `while`, never
yielding). Here a crowd (the load test's bots, five to a table, and
anonymous watchers; tests/tables/crowd.py) plays at a few tables from a
process of its own, which is killed with SIGKILL while rounds are being
played: every socket drops at once, with no close handshake. Three times.
Then the server must be idle (its own CPU time, from /proc, nearly still),
serve a page, play a new round for alice, and stop within 10 s of SIGTERM
with viewers connected, exiting 0.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore

from accounts import ledger
from accounts.models import User
from accounts.services import create_player
from casino.watchdog import BLOCKED
from tables.loadtest.bots import Clock, GameBot
from tables.loadtest.stats import Stats
from tables.models import Round, RoundPhase, RoundSeat, RuleProfile, Table
from tests.conftest import REPO, Daphne

OUTPUT = REPO / "test-output" / "process-health"
TABLES = 3
PLAYERS_PER_TABLE = 5
WATCHERS_PER_TABLE = 8
CYCLES = 3
THINK_MS = 30
# Idle: the server's own CPU time grows by less than this over IDLE_WINDOW seconds.
IDLE_CPU_SECONDS = 0.3
IDLE_WINDOW = 2.0
# A dropped crowd's sockets are closed and its consumers ended within a few seconds at most.
IDLE_WITHIN = 15.0
WAIT = 30.0  # for anything the crowd or the server should do soon; the machine may be busy
STOP_WITHIN = 10.0
PAGE_WITHIN = 3.0


def cpu_seconds(pid: int) -> float:
    """The process's user + system CPU time so far (/proc/<pid>/stat fields 14 and 15)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (comm) ", the state is field 3
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle_window(pid: int, *, within: float = IDLE_WITHIN) -> list[float]:
    """The CPU seconds of each IDLE_WINDOW until one stays under IDLE_CPU_SECONDS (the last), or `within` runs out."""
    windows: list[float] = []
    deadline = time.monotonic() + within
    while True:
        before = cpu_seconds(pid)
        time.sleep(IDLE_WINDOW)
        windows.append(round(cpu_seconds(pid) - before, 2))
        if windows[-1] < IDLE_CPU_SECONDS or time.monotonic() > deadline:
            return windows


def wait_until(condition, what: str, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"gave up waiting for {what}"
        time.sleep(0.05)


def session_cookie(user: User) -> str:
    """A signed-in session, as a login leaves it (without the sign-in's hashing and django-axes' log lines)."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key


def player(username: str) -> User:
    """A player with a bankroll and no password to hash (a session is all a bot needs)."""
    return create_player(username, None)


def server_report(server: Daphne) -> str:
    """For a failure: the server's watchdog warnings (with the loop's stack), else the end of its log."""
    lines = server.log.read_text(errors="replace").splitlines()
    warnings = [n for n, line in enumerate(lines) if line.startswith(BLOCKED)]
    if warnings:
        return f"its watchdog says ({len(warnings)} warning(s)):\n" + "\n".join(lines[warnings[0] : warnings[0] + 60])
    tail = [line for line in lines if "WSCONNECT" not in line and "WSDISCONNECT" not in line][-40:]
    return "no watchdog warning; its log ends:\n" + "\n".join(tail)


class Crowd:
    """tests/tables/crowd.py in a child process; `kill()` is SIGKILL: every socket dropped without a close."""

    def __init__(self, server: Daphne, players: dict[int, list[str]], watchers: int, env: dict[str, str]) -> None:
        self.server = server
        self.plan = {"url": server.url, "players": players, "watchers": watchers, "think_ms": THINK_MS}
        self.sockets = sum(len(cookies) for cookies in players.values()) + watchers * len(players)
        self.env = env
        self.process: subprocess.Popen | None = None
        self.lines: list[str] = []

    def start(self) -> Crowd:
        self.lines = []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.tables.crowd", json.dumps(self.plan)],
            cwd=REPO, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        threading.Thread(target=self._read, args=(self.process,), daemon=True).start()
        return self

    def _read(self, process: subprocess.Popen) -> None:
        for line in process.stdout:
            self.lines.append(line.rstrip())

    def connected(self) -> int:
        return sum(1 for line in self.lines if line.startswith(("playing ", "watching ")))

    def wait_until_all_there(self) -> None:
        deadline = time.monotonic() + WAIT
        while self.connected() < self.sockets and self.process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert self.connected() >= self.sockets, (
            f"{self.connected()} of the crowd's {self.sockets} sockets connected; the crowd's output ends:\n"
            + "\n".join(self.lines[-12:]) + f"\nThe server: {server_report(self.server)}"
        )

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


@pytest.fixture
def watchdog_seconds() -> str:
    """The server's LOOP_WATCHDOG_SECONDS: the default unless a test says otherwise."""
    return "1"


@pytest.fixture
def crowd_at_tables(start_daphne, child_env, watchdog_seconds):
    """A daphne, TABLES tables of five seats, a player for each seat (session cookies) and the crowd to run them."""
    child_env["LOOP_WATCHDOG_SECONDS"] = watchdog_seconds
    server = start_daphne("health", log_dir=OUTPUT)
    tables = [
        Table.objects.create(
            name=f"Crowd {n}", profile=RuleProfile.ATLANTIC_CITY_MULTI, seat_count=PLAYERS_PER_TABLE,
            min_bet=1, max_bet=100, pause_seconds=1,
        )
        for n in range(1, TABLES + 1)
    ]
    players: dict[int, list[str]] = {}
    for table in tables:
        players[table.pk] = []
        for seat in range(1, PLAYERS_PER_TABLE + 1):
            players[table.pk].append(session_cookie(player(f"crowd-{table.pk}-{seat}")))
    crowd = Crowd(server, players, WATCHERS_PER_TABLE, child_env)
    yield server, tables, crowd
    crowd.kill()


def rounds_settled(tables: list[Table]) -> int:
    return Round.objects.filter(table__in=tables, phase=RoundPhase.SETTLED).count()


def a_round_is_dealt(tables: list[Table]) -> bool:
    return Round.objects.filter(table__in=tables, phase__in=[RoundPhase.INSURANCE, RoundPhase.PLAYERS]).exists()


def stop_with_sigterm(server: Daphne) -> tuple[float, int]:
    """SIGTERM, as systemd stops a unit; (seconds until it exited, exit status). Fails after STOP_WITHIN."""
    started = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    try:
        status = server.process.wait(timeout=STOP_WITHIN)
    except subprocess.TimeoutExpired:
        pytest.fail(f"daphne still runs {STOP_WITHIN:g} s after SIGTERM; {server_report(server)}")
    seconds = time.monotonic() - started
    record(f"{server.log.name}: exited with {status} {seconds:.2f} s after SIGTERM")
    return seconds, status


def record(line: str) -> None:
    """The figures beside the server logs (test-output/process-health/measurements.txt), for the curious."""
    with open(OUTPUT / "measurements.txt", "a") as out:
        out.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} {line}\n")


# With the watchdog off too: its thread changes how the interpreter tears down, and in our
# runs it hid the crash that pending consumers caused on the way out (casino/shutdown.py).
@pytest.mark.parametrize("watchdog_seconds", ["0"])
def test_it_stops_within_10_seconds_of_sigterm_with_viewers_connected_and_exits_0(crowd_at_tables):
    server, tables, crowd = crowd_at_tables
    before = rounds_settled(tables)
    crowd.start().wait_until_all_there()
    wait_until(lambda: rounds_settled(tables) > before and a_round_is_dealt(tables), "a round being played")
    # And a browser whose request is still on its way (its first line sent, not its
    # headers), as a socket's upgrade request also stands for up to a second: daphne's
    # own shutdown step then cancels no consumer at all (casino/shutdown.py).
    with socket.create_connection(("127.0.0.1", server.port), timeout=WAIT) as slow:
        slow.sendall(b"GET / HTTP/1.1\r\n")
        time.sleep(0.2)
        seconds, status = stop_with_sigterm(server)

    assert seconds < STOP_WITHIN
    assert status == 0, f"daphne exited with {status} after SIGTERM; {server_report(server)}"
    assert "Event loop watchdog on" not in server.log.read_text()  # LOOP_WATCHDOG_SECONDS=0


def test_it_stays_idle_serves_and_plays_after_its_crowd_vanishes_mid_round_three_times(crowd_at_tables, alice):
    server, tables, crowd = crowd_at_tables
    pid = server.process.pid
    for cycle in range(1, CYCLES + 1):
        before = rounds_settled(tables)
        crowd.start().wait_until_all_there()
        wait_until(
            lambda before=before: rounds_settled(tables) > before and a_round_is_dealt(tables),
            f"a round being played (cycle {cycle})",
        )
        crowd.kill()  # mid-round: every socket gone at once, no close frames

    # Idle: a server spinning on its loop burns IDLE_WINDOW seconds of CPU in each window.
    windows = idle_window(pid)
    record(f"{server.log.name}: CPU seconds per {IDLE_WINDOW:g} s window after the crowd vanished: {windows}")
    assert windows[-1] < IDLE_CPU_SECONDS, (
        f"daphne is not idle after its crowd vanished: CPU seconds per {IDLE_WINDOW:g} s window {windows}; "
        f"{server_report(server)}"
    )

    # It serves a page.
    started = time.monotonic()
    try:
        with urllib.request.urlopen(f"{server.url}/", timeout=PAGE_WITHIN) as response:
            assert response.status == 200
    except OSError as error:
        pytest.fail(f"GET / failed: {error!r}; {server_report(server)}")
    assert time.monotonic() - started < PAGE_WITHIN

    # And plays a new round: alice sits at a table of her own, bets and plays it out.
    ledger.open_bankroll(alice)  # once per user: a no-op if the fixture made her with one
    table = Table.objects.create(
        name="Alice's", profile=RuleProfile.ATLANTIC_CITY_MULTI, seat_count=5, min_bet=1, max_bet=100, pause_seconds=1
    )
    stats = play_as(server, alice, table, seconds=2.0)
    assert stats.error_count == 0, f"{stats.examples}; {server_report(server)}"
    assert stats.by_action["sit"] == 1 and stats.by_action["bet"] >= 1, stats.by_action
    assert RoundSeat.objects.filter(table=table, player=alice).exists(), "alice's round did not settle"

    # It stops on SIGTERM with viewers connected.
    crowd.start().wait_until_all_there()
    seconds, status = stop_with_sigterm(server)
    assert seconds < STOP_WITHIN
    assert status == 0, f"daphne exited with {status} after SIGTERM; {server_report(server)}"
    assert "Event loop watchdog on" in server.log.read_text()  # it watched daphne's loop all along


def play_as(server: Daphne, player: User, table: Table, *, seconds: float) -> Stats:
    """`player` plays as a load-test bot for `seconds`, then finishes the hand and leaves."""
    stats = Stats()
    cookie = session_cookie(player)

    async def play() -> GameBot:
        now = time.perf_counter()
        clock = Clock(stop=now + seconds, hard_stop=now + seconds + WAIT)
        bot = GameBot(0, server.url, stats, clock, cookie=cookie, table_id=table.pk, seat=1,
                      profile=table.profile, think_ms=THINK_MS, reply_timeout=10.0)  # fmt: skip
        await bot.run()
        return bot

    bot = asyncio.run(play())
    assert bot.done, f"{player.username} was still seated when the time ran out: {stats.examples}"
    return stats

