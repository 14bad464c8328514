"""``manage.py review_rounds``: price the decisions of settled rounds not reviewed yet (tables/play/reviews.py)."""

from __future__ import annotations

import json
import os
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections

from tables.play.reviews import review_unreviewed


class Command(BaseCommand):
    help = "Review every settled round whose decisions are not priced yet (the last line is JSON)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--limit", type=int, default=None, help="at most this many rounds (per pass with --follow)")
        parser.add_argument("--follow", action="store_true",
                            help="keep going: review new rounds as they settle (with COACH_REVIEW_THREAD=false)")
        parser.add_argument("--every", type=float, default=2.0, help="seconds between passes with --follow")
        parser.add_argument("--nice", type=int, default=10, choices=range(20), metavar="0-19",
                            help="with --follow, run at this much lower CPU priority (Unix; default 10): "
                                 "on cores it shares with the tables' processes, a play comes first and a "
                                 "review a little later; 0 keeps the priority")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["follow"] and options["nice"] and hasattr(os, "nice"):
            os.nice(options["nice"])  # reviews wait for a few ms; a player's click should not
        started = time.perf_counter()
        rows = review_unreviewed(options["limit"])
        while options["follow"]:
            time.sleep(options["every"])
            close_old_connections()
            rows += review_unreviewed(options["limit"] or 100)
        self.stdout.write(json.dumps({"reviewed": rows, "seconds": round(time.perf_counter() - started, 2)}))
