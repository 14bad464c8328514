"""``manage.py review_rounds``: price the decisions of settled rounds not reviewed yet (tables/play/reviews.py)."""

from __future__ import annotations

import json
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tables.play.reviews import review_unreviewed


class Command(BaseCommand):
    help = "Review every settled round whose decisions are not priced yet (the last line is JSON)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--limit", type=int, default=None, help="at most this many rounds")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        rows = review_unreviewed(options["limit"])
        self.stdout.write(json.dumps({"reviewed": rows, "seconds": round(time.perf_counter() - started, 2)}))
