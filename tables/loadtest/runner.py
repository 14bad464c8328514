"""A load test's phases: sign the bots up over HTTP, then play (or echo) for the run's seconds."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass

from tables.loadtest.bots import Bot, Clock, EchoBot, GameBot
from tables.loadtest.signup import SignupFailed, sign_up
from tables.loadtest.stats import Stats

# Sign-ups hash a password (PBKDF2, ~0.2 s of server CPU each): two at a time
# per server process keep its core busy; more gain nothing on a small machine.
SIGNUPS_PER_URL = 2
# Players arrive over the first seconds, table by table, so that the tables'
# rounds do not all start (and ask for bets) in the same instant.
MAX_RAMP_SECONDS = 10.0
PROGRESS_EVERY = 10.0


@dataclass(frozen=True)
class Plan:
    urls: list[str]
    players: int
    seconds: float
    think_ms: int
    reply_timeout: float = 10.0
    drain_seconds: float = 15.0
    table_ids: tuple[int, ...] = ()
    seats: int = 5
    profile: str = "atlantic-city-multi"
    signups_per_url: int = SIGNUPS_PER_URL
    route: str = "alternate"  # or "by-table": ROUTES

    def url_of(self, bot: int) -> str:
        tables = max(1, len(self.table_ids))
        if self.route == "by-table" and self.table_ids:
            # Every player of a table on one server, as nginx's table-hashed
            # upstream sends them (docs/deploy.md): tables spread over the servers.
            return self.urls[(bot % tables) % len(self.urls)]
        # Bots of one table alternate between the servers, so a table's
        # changes must cross the channel layer to reach all its players.
        return self.urls[(bot // tables) % len(self.urls)]


# How the bots of one table are spread over several --url servers.
ROUTES = ("alternate", "by-table")


def sign_up_bots(plan: Plan, stats: Stats, report: Callable[[str], None]) -> dict[int, str]:
    """Bot number -> session cookie, for every bot whose sign-up worked."""
    run_id = secrets.token_hex(3)
    password = secrets.token_urlsafe(12) + "-Aa1"
    cookies: dict[int, str] = {}
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=plan.signups_per_url * len(plan.urls)) as pool:
        futures = {
            pool.submit(sign_up, plan.url_of(n), f"bot-{run_id}-{n}", password): n for n in range(plan.players)
        }
        for future in as_completed(futures):
            number = futures[future]
            try:
                cookies[number] = future.result()
            except SignupFailed as error:
                stats.error("sign-up failed", f"bot {number}: {error}")
            except OSError as error:
                stats.error("sign-up failed", f"bot {number}: {error!r}")
    report(f"Signed up {len(cookies)} of {plan.players} bots (bot-{run_id}-N) in {time.perf_counter() - started:.1f} s.")
    return cookies


async def play(plan: Plan, stats: Stats, report: Callable[[str], None], cookies: dict[int, str] | None) -> float:
    """Run the bots (game bots with `cookies`, else echo bots) until the end; returns the seconds taken."""
    started = time.perf_counter()
    clock = Clock(stop=started + plan.seconds, hard_stop=started + plan.seconds + plan.drain_seconds)
    options = {"think_ms": plan.think_ms, "reply_timeout": plan.reply_timeout}
    ramp = min(MAX_RAMP_SECONDS, plan.seconds / 5)
    bots: list[tuple[Bot, float]] = []
    for n in range(plan.players):
        if cookies is None:
            bots.append((EchoBot(n, plan.url_of(n), stats, clock, **options), ramp * n / plan.players))
        elif n in cookies:
            index = n % len(plan.table_ids)
            seat = (n // len(plan.table_ids)) % plan.seats + 1
            bot = GameBot(n, plan.url_of(n), stats, clock, cookie=cookies[n], table_id=plan.table_ids[index],
                          seat=seat, profile=plan.profile, **options)
            # A table's players arrive together (within half a second), the tables one after another.
            bots.append((bot, ramp * index / len(plan.table_ids) + 0.5 * (seat - 1) / plan.seats))
    progress = asyncio.create_task(_progress(stats, report, started))
    try:
        await asyncio.gather(*(bot.run(start_delay=delay) for bot, delay in bots))
    finally:
        progress.cancel()
    unfinished = sum(1 for bot, _ in bots if isinstance(bot, GameBot) and not bot.done)
    if unfinished:
        # Still seated when the drain ran out (e.g. waiting on a slow round): the
        # table's timers finish their hands and the three-missed-windows rule frees the seats.
        report(f"{unfinished} bot(s) were still seated when the run ended.")
    return time.perf_counter() - started


async def _progress(stats: Stats, report: Callable[[str], None], started: float) -> None:
    progress = Progress(stats)
    while True:
        await asyncio.sleep(PROGRESS_EVERY)
        report(progress.line(time.perf_counter() - started))


@dataclass
class Progress:
    """The run's progress lines: the run so far, and the latency of the actions answered since the line before.

    The run's own figures take in its start, when the tables fill up; the window's show where it stands now.
    """

    stats: Stats
    answered: int = 0  # the actions answered by the line before

    def line(self, elapsed: float) -> str:
        stats = self.stats
        summary, window = stats.latency_summary(), stats.latency_summary(since=self.answered)
        self.answered += window["n"]
        return (
            f"  {elapsed:5.0f} s: {stats.actions} actions, {stats.error_count} errors, "
            f"p50 {summary['p50']} ms, p99 {summary['p99']} ms; since the line before: {window['n']} answered"
            + (f", p99 {window['p99']} ms" if window["n"] else "")
        )
