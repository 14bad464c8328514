"""Time a player's hand history and its exports with 200,000 rounds behind them.

    .venv/bin/python benchmarks/history_speed.py [--rounds 200000] [--runs 7] [--keep | --reuse DIR]

Builds a scratch SQLite database (or uses DATABASE_URL when set), migrates it,
and seeds one player with --rounds settled rounds at four tables (four rule
profiles), each one really played by the engine with basic strategy from a
seeded shoe: its full `Round.state` (events and all) and its `RoundSeat`
history row, written with bulk_create in batches. Shoe rows are shared by
1,000 rounds each and no ledger transfers are written: neither the history
page nor the exports read them, and nothing here checks the ledger or a shoe.

Then it measures, in process with django.test.Client (server time: URL
routing, middleware, queries and rendering, no network), the median of --runs
requests of /history/ (the first page, a filter by result, a filter by
table, a date range, page 500) and the time to stream every byte of the CSV
and JSON exports. Prints one JSON object. A benchmark, not a test: the figures
depend on the machine.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

PLAYER = "bench"
# Four tables, one per profile: (name, profile, the player's seat).
TABLES = [
    ("Solo", "atlantic-city", 1),
    ("Boardwalk", "atlantic-city-multi", 3),
    ("Internet six", "internet-6", 2),
    ("Rocket", "rocket-academy", 1),
]
SESSION_ROUNDS = 400  # rounds in a row at one table before moving to the next
ROUNDS_PER_SHOE_ROW = 1000
BATCH = 2000
BETS = (5, 10, 10, 25, 50)


def prepare(env: dict[str, str]) -> None:
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=REPO, env=env, check=True)
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.test.utils import override_settings

    # DEBUG off (no query log), but static URLs without the collectstatic manifest,
    # which a scratch checkout does not have: a dict lookup either way.
    storages = {**settings.STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
    override_settings(STORAGES=storages).enable()
    warnings.filterwarnings("ignore", message="No directory at")  # whitenoise: no collectstatic output either


def play(engine_round, seat: int, bet: int) -> None:
    """One round with basic strategy: no insurance, the chart's decision for every hand."""
    from tables.engine import basic_strategy

    engine_round.bet(seat, bet)
    rules = engine_round.rules
    while True:
        phase = engine_round.phase
        if phase == "insurance":
            engine_round.decline_insurance(seat)
        elif phase == "players":
            _, hand = engine_round.to_act()
            cards = engine_round.seats[seat].hands[hand].cards
            action = basic_strategy(rules, cards, engine_round.up_card, engine_round.legal_actions(seat, hand))
            getattr(engine_round, action)(seat, hand)
        else:
            return


def seed(rounds: int) -> dict:
    """The player, the tables and `rounds` settled rounds with their history rows."""
    from django.db import transaction
    from django.db.models import F
    from django.utils import timezone

    from accounts.models import AccountKind, LedgerAccount
    from accounts.services import create_player
    from tables.engine import PROFILES, derive_seed
    from tables.engine import GameRound
    from tables.engine import CardShoe
    from tables.models import Round, RoundPhase, RoundSeat, SeatResult, Shoe, Table

    player = create_player(PLAYER, "benchmark")
    rng = random.Random(20250301)
    master = b"history-benchmark".ljust(32, b".")
    tables = []
    for name, profile, seat in TABLES:
        rules = PROFILES[profile]
        table = Table.objects.create(name=name, profile=profile, seat_count=rules.seats, min_bet=1, max_bet=100)
        account = LedgerAccount.objects.create(
            kind=AccountKind.SEAT, user=player, label=f"{name} seat {seat} ({PLAYER})"
        )
        tables.append({"table": table, "rules": rules, "seat": seat, "account": account, "number": 0,
                       "stack": 1000, "shoe": None, "shoe_row": None, "shoe_rounds": 0, "shoes": 0})
    # Two years of play, newest last.
    start = timezone.now() - dt.timedelta(days=730)
    step = dt.timedelta(days=730) / max(rounds, 1)
    started = time.perf_counter()
    made = 0
    while made < rounds:
        round_rows, seat_rows = [], []
        for _ in range(min(BATCH, rounds - made)):
            place = tables[(made // SESSION_ROUNDS) % len(tables)]
            rules, seat = place["rules"], place["seat"]
            if place["shoe"] is None or place["shoe"].needs_reshuffle(rules):
                place["shoes"] += 1
                key = derive_seed(master, place["table"].name.encode(), place["shoes"])
                place["shoe"] = CardShoe.from_seed(key, rules.decks)
            if place["shoe_row"] is None or place["shoe_rounds"] >= ROUNDS_PER_SHOE_ROW:
                place["shoe_row"] = Shoe.objects.create(
                    table=place["table"], decks=rules.decks, commitment=place["shoe"].commitment,
                    seed=place["shoe"].seed.hex(), retired_at=timezone.now(),
                )
                place["shoe_rounds"] = 0
            place["shoe_rounds"] += 1
            if place["stack"] < 100:
                place["stack"] += 1000  # a top-up, as the tables grant
            engine = GameRound.new(
                rules=rules, shoe=place["shoe"], seats={seat: place["stack"]}, min_bet=1, max_bet=100
            )
            play(engine, seat, rng.choice(BETS))
            result = engine.result().seats[0]
            place["stack"] = result.stack
            place["number"] += 1
            settled_at = start + step * made + dt.timedelta(seconds=rng.randint(0, 20))
            staked = -sum(event.chips for event in engine.events if event.chips < 0)
            round_row = Round(
                table=place["table"], number=place["number"], profile=rules.slug, shoe=place["shoe_row"],
                phase=RoundPhase.SETTLED, state=engine.to_json(),
                event_times=[settled_at.isoformat()] * len(engine.events), settled_at=settled_at,
            )
            round_rows.append(round_row)
            seat_rows.append(
                RoundSeat(
                    round=round_row, table=place["table"], profile=rules.slug, player=player,
                    account=place["account"], seat=seat, settled_at=settled_at,
                    stack_before=result.stack_before, stack_after=result.stack, net=result.net, bet=result.bet,
                    staked=staked, insurance=result.insurance, hands=[hand.to_json() for hand in result.hands],
                    result=SeatResult.WIN if result.net > 0 else SeatResult.LOSS if result.net < 0 else SeatResult.PUSH,
                    blackjacks=sum(1 for hand in result.hands if hand.outcome == "blackjack"),
                )
            )
            made += 1
        with transaction.atomic():
            Round.objects.bulk_create(round_rows)
            for row in seat_rows:
                row.round_id = row.round.pk
            RoundSeat.objects.bulk_create(seat_rows)
        if sys.stderr.isatty():
            print(f"\rseeded {made:,} rounds", end="", file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    # started_at is auto_now_add, which bulk_create sets to now: make it the round's own time.
    Round.objects.update(started_at=F("settled_at"))
    return {"seed_seconds": round(time.perf_counter() - started, 1)}


def median_ms(fetch, runs: int) -> float:
    fetch()  # warm: templates compiled, the database's pages cached
    timings = []
    for _ in range(runs):
        began = time.perf_counter()
        fetch()
        timings.append((time.perf_counter() - began) * 1000)
    return round(statistics.median(timings), 1)


def measure(runs: int, export_runs: int) -> dict:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from accounts.models import User
    from tables.models import RoundSeat, Table

    player = User.objects.get(username=PLAYER)
    client = Client()
    client.force_login(player)
    history = reverse("history")
    table = Table.objects.get(name="Boardwalk")
    last = RoundSeat.objects.filter(player=player).latest("id").settled_at.date()
    pages = {
        "first_page": {},
        "outcome_win": {"outcome": "win"},
        "table": {"table": table.pk},
        "last_90_days": {"date_from": str(last - dt.timedelta(days=90)), "date_to": str(last)},
        "page_500": {"page": 500},
    }
    history_ms, queries = {}, {}
    for name, params in pages.items():

        def fetch(params=params) -> None:
            response = client.get(history, params)
            assert response.status_code == 200, (name, response.status_code)
            response.content  # noqa: B018 - the whole body

        with CaptureQueriesContext(connection) as captured:
            fetch()
        queries[name] = len(captured.captured_queries)
        history_ms[name] = median_ms(fetch, runs)

    exports = {}
    for name in ("history_export_csv", "history_export_json"):
        url = reverse(name)
        timings, size = [], 0
        for _ in range(export_runs):
            began = time.perf_counter()
            response = client.get(url)
            assert response.status_code == 200, (name, response.status_code)
            if response.streaming:
                size = sum(len(chunk) for chunk in response.streaming_content)
            else:
                size = len(response.content)
            timings.append(time.perf_counter() - began)
        exports[name.removeprefix("history_export_")] = {
            "seconds": round(statistics.median(timings), 2),
            "bytes": size,
            "streaming": response.streaming,
            "megabytes_per_second": round(size / statistics.median(timings) / 1e6, 1),
        }
    return {"history_ms": history_ms, "history_queries": queries, "export": exports}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200_000)
    parser.add_argument("--runs", type=int, default=7, help="requests per history page, the median is reported")
    parser.add_argument("--export-runs", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="keep the scratch database (its folder is printed)")
    parser.add_argument("--reuse", metavar="DIR", help="measure a database seeded by an earlier --keep run")
    parser.add_argument("--analyze", action="store_true", help="run SQLite's ANALYZE before measuring")
    args = parser.parse_args()
    scratch = args.reuse or tempfile.mkdtemp(prefix="casino-history-bench-")
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "benchmark-" + "x" * 50,
        "ALLOWED_HOSTS": "testserver,127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        "LOG_LEVEL": "WARNING",
    }
    env.setdefault("DATABASE_URL", f"sqlite:///{scratch}/bench.sqlite3")
    try:
        prepare(env)
        from django.db import connection

        from tables.models import RoundSeat

        figures: dict = {"rounds": args.rounds}
        if args.reuse:
            figures["rounds"] = RoundSeat.objects.count()
        else:
            figures.update(seed(args.rounds))
        if connection.vendor == "sqlite":
            if args.analyze:
                with connection.cursor() as cursor:
                    cursor.execute("ANALYZE")  # the planner's statistics, as PostgreSQL's autovacuum keeps them
                figures["analyzed"] = True
            figures["database_megabytes"] = round(Path(connection.settings_dict["NAME"]).stat().st_size / 1e6, 1)
        figures.update(measure(args.runs, args.export_runs))
        figures.update({"database": connection.vendor, "python": platform.python_version()})
        if args.keep:
            figures["kept"] = scratch
        print(json.dumps(figures))
    finally:
        if not (args.keep or args.reuse):
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
