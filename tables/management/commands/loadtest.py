"""Bot players sign up, sit, bet and play basic strategy at a running server, over real websockets.

    python manage.py loadtest --url http://127.0.0.1:8000 --players 200 --tables 40 --seconds 60
    python manage.py loadtest --url http://127.0.0.1:8001 --url http://127.0.0.1:8002 --players 400 --tables 80
    python manage.py loadtest --url ... --url ... --route by-table ...   # a table's players all on one server
    python manage.py loadtest --echo --players 200 --seconds 60    # the server runs with ECHO_ENDPOINT=true

It runs beside the server, on the server's settings and database: it makes
(or reuses) the tables "Load test 1".."Load test T" with the ORM, counts the
rounds settled there during the run, and audits the ledger at the end. It
exits 1 on any error or a failed audit. The last line printed is JSON.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from urllib.parse import urlsplit

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db.models import Count
from django.utils import timezone

from tables.loadtest.runner import ROUTES, Plan, play, sign_up_bots
from tables.loadtest.stats import Stats
from tables.models import Round, RoundSeat, RuleProfile, Seat, Table

PROFILE = RuleProfile.ATLANTIC_CITY_MULTI
SEATS = 5
TABLE_NAME = "Load test {}"


class Command(BaseCommand):
    help = "Bot players over real websockets at a running server; prints rounds, actions, errors and latency."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--url", action="append", dest="url",
                            help="The server, e.g. http://127.0.0.1:8000; repeat it to split the bots across "
                                 "several processes (default http://127.0.0.1:8000).")
        parser.add_argument("--route", choices=ROUTES, default="alternate",
                            help="With several --url: 'alternate' puts a table's players on the servers in turn, so "
                                 "every change crosses the channel layer (the default, the worst case); 'by-table' "
                                 "puts all of a table's players on one server, as nginx's table-hashed upstream does "
                                 "(docs/deploy.md).")
        parser.add_argument("--players", type=int, default=20, help="Bot players (default 20).")
        parser.add_argument("--tables", type=int, default=4, help=f"Tables of {SEATS} seats to spread them over (default 4).")
        parser.add_argument("--seconds", type=float, default=60.0, help="How long they play (default 60).")
        parser.add_argument("--think-ms", type=int, default=400,
                            help="A bot's think time before each click, jittered ±50%% (default 400).")
        parser.add_argument("--reply-timeout", type=float, default=10.0,
                            help="Seconds to wait for an answer to an action before counting an error (default 10).")
        parser.add_argument("--echo", action="store_true",
                            help="Measure /ws/echo/ instead (the server runs with ECHO_ENDPOINT=true): "
                                 "the same bots, pace and message size, no game.")
        parser.add_argument("--allow-remote", action="store_true",
                            help="Allow a server that is not on this machine's loopback interface.")

    def handle(self, *args, **options) -> None:
        urls = self._urls(options["url"], options["allow_remote"])
        players, tables, seconds = options["players"], options["tables"], options["seconds"]
        if players < 1 or tables < 1 or seconds <= 0 or options["think_ms"] < 0:
            raise CommandError("--players and --tables must be at least 1, --seconds above 0, --think-ms not negative.")
        if not options["echo"] and players > tables * SEATS:
            raise CommandError(f"{players} players need at least {-(-players // SEATS)} tables of {SEATS} seats.")
        stats = Stats()
        mode = "echo" if options["echo"] else "game"
        table_ids: tuple[int, ...] = ()
        if mode == "game":
            table_ids = tuple(self._tables(tables))
        plan = Plan(urls=urls, players=players, seconds=seconds, think_ms=options["think_ms"],
                    reply_timeout=options["reply_timeout"], table_ids=table_ids, seats=SEATS, profile=PROFILE,
                    route=options["route"])
        where = f"{len(table_ids)} table{'s' if len(table_ids) != 1 else ''}" if mode == "game" else "/ws/echo/"
        self.stdout.write(
            f"Load test ({mode}): {players} players at {where} for {seconds:g} s against {', '.join(urls)}, "
            f"think time {options['think_ms']} ms ±50%."
        )
        cookies = sign_up_bots(plan, stats, self.stdout.write) if mode == "game" else None
        started_at = timezone.now()
        elapsed = asyncio.run(play(plan, stats, self.stdout.write, cookies))
        ended_at = timezone.now()

        rounds = hands = 0
        if mode == "game":
            rounds = Round.objects.filter(table_id__in=table_ids, settled_at__gte=started_at, settled_at__lte=ended_at).count()
            hands = RoundSeat.objects.filter(table_id__in=table_ids, settled_at__gte=started_at, settled_at__lte=ended_at).count()
        self._report(stats, mode, rounds, hands, elapsed)
        audit_ok = None
        if mode == "game":
            self.stdout.write("Ledger audit (audit_ledger):")
            try:
                call_command("audit_ledger", stdout=self.stdout, stderr=self.stderr)
                audit_ok = True
            except CommandError as error:
                self.stderr.write(str(error))
                audit_ok = False
        self.stdout.write(json.dumps({
            "mode": mode, "urls": urls, "route": plan.route, "players": players, "tables": len(table_ids), "seconds": seconds,
            "think_ms": options["think_ms"], "elapsed_seconds": round(elapsed, 1), "rounds": rounds, "hands": hands,
            "actions": stats.actions, "frames": stats.frames, "bytes_per_frame": stats.frame_bytes // max(1, stats.frames), "bytes_per_action": stats.frame_bytes // max(1, stats.actions), "wire_bytes_per_frame": stats.wire_bytes // max(1, stats.frames), "wire_bytes_per_action": stats.wire_bytes // max(1, stats.actions), "drain_actions": stats.drain_actions, "errors": stats.error_count, "errors_by_kind": dict(stats.errors),
            "expected_refusals": sum(stats.expected_refusals.values()), "reconnects": stats.reconnects,
            "latency_ms": stats.latency_summary(), "audit_ok": audit_ok,
        }))
        if stats.error_count or audit_ok is False:
            raise CommandError(
                f"Load test failed: {stats.error_count} error(s)" + (", ledger audit failed" if audit_ok is False else "") + ".",
                returncode=1,
            )

    def _urls(self, given: list[str] | str | None, allow_remote: bool) -> list[str]:
        urls = [given] if isinstance(given, str) else list(given or ["http://127.0.0.1:8000"])
        for url in urls:
            parts = urlsplit(url)
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise CommandError(f"--url {url!r}: give a server's address, e.g. http://127.0.0.1:8000.")
            if not allow_remote and not _loopback(parts.hostname):
                raise CommandError(f"--url {url!r} is not on this machine; pass --allow-remote to load-test it anyway.")
        return [url.rstrip("/") for url in urls]

    def _tables(self, count: int) -> list[int]:
        """Tables "Load test 1".."Load test <count>": made if missing, reused as they are if present."""
        ids = []
        for n in range(1, count + 1):
            table, created = Table.objects.get_or_create(
                name=TABLE_NAME.format(n),
                defaults={"profile": PROFILE, "seat_count": SEATS, "min_bet": 1, "max_bet": 100, "pause_seconds": 1},
            )
            if table.profile != PROFILE or table.seat_count != SEATS or table.is_private:
                raise CommandError(f"“{table.name}” exists but is not a public {PROFILE} table of {SEATS} seats.")
            ids.append(table.pk)
        taken = Seat.objects.filter(table_id__in=ids, player__isnull=False).aggregate(n=Count("id"))["n"]
        if taken:
            self.stdout.write(f"{taken} seat(s) at the load-test tables are taken (a previous run?): bots take free ones.")
        return ids

    def _report(self, stats: Stats, mode: str, rounds: int, hands: int, elapsed: float) -> None:
        latency = stats.latency_summary()
        write = self.stdout.write
        write(f"Ran {elapsed:.1f} s.")
        if mode == "game":
            write(f"Rounds completed: {rounds} ({hands} hands played)")
        actions = ", ".join(f"{name} {n}" for name, n in stats.by_action.most_common())
        write(f"Actions sent: {stats.actions}" + (f" ({actions})" if actions else ""))
        if stats.drain_actions:
            write(f"  of which {stats.drain_actions} after the end, finishing hands and leaving (not in the latency)")
        write(
            f"Frames received: {stats.frames} ({stats.frame_bytes // max(1, stats.frames)} bytes each on average, "
            f"{stats.frame_bytes // max(1, stats.actions)} bytes per action sent, all viewers together)"
        )
        write(
            f"On the wire (compressed, with headers and handshakes): {stats.wire_bytes // max(1, stats.frames)} bytes "
            f"a frame, {stats.wire_bytes // max(1, stats.actions)} bytes per action sent"
        )
        write(f"Latency, action to update (ms): p50 {latency['p50']}  p95 {latency['p95']}  p99 {latency['p99']}  "
              f"max {latency['max']}  mean {latency['mean']}  (n={latency['n']})")
        for action in sorted(stats.latencies_by_action, key=lambda a: -len(stats.latencies_by_action[a])):
            each = stats.latency_summary(action)
            write(f"  {action:<13} p50 {each['p50']}  p99 {each['p99']}  max {each['max']}  (n={each['n']})")
        if stats.expected_refusals:
            write(f"Expected refusals (two players reaching for one seat): {sum(stats.expected_refusals.values())}")
        write(f"Reconnects: {stats.reconnects}")
        write(f"Errors: {stats.error_count}")
        for kind, n in stats.errors.most_common():
            write(f"  {n} × {kind}")
            for example in stats.examples.get(kind, []):
                write(f"      e.g. {example}")


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
