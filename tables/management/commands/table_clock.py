"""Settle table deadlines that no process has a timer for (e.g. after a restart)."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand
from django.utils import timezone

from tables.models import Table
from tables.play import services


class Command(BaseCommand):
    help = "Sweep overdue table deadlines (betting windows, decisions) every --interval seconds."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--interval", type=float, default=1.0, help="Seconds between sweeps (default 1).")
        parser.add_argument("--once", action="store_true", help="Sweep once and exit.")

    def handle(self, *args, interval: float, once: bool, **options) -> None:
        while True:
            settled = sweep()
            if settled:
                self.stdout.write(f"{timezone.now():%H:%M:%S} settled {settled} overdue deadline(s)")
            if once:
                return
            time.sleep(interval)


def sweep() -> int:
    """Settle every overdue deadline once; returns how many changes that made."""
    count = 0
    overdue = Table.objects.filter(deadline__lte=timezone.now()).values_list("pk", flat=True)
    for table_id in overdue:
        if services.settle_overdue(table_id) is not None:
            count += 1
    return count
