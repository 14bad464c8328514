"""Every decision reviewed: at settlement, each play and each answer to the insurance offer priced
against the best one for that exact shoe (tables/engine/exact/coach.py).

`record_history` (tables/play/rounds.py) asks for a round's review once its
settlement commits. Pricing takes tens of milliseconds a decision
(docs/engine.md), so it runs on this process's review thread, never in the
table's transaction nor on the event loop; the history shows a round as
"not reviewed yet" until it is done. `manage.py review_rounds` prices any
settled round left unreviewed (a process stopped with reviews queued).

Each history row (RoundSeat) gets its seat's decisions in `review` (a list,
docs/hand-history-format.md) and four figures the history sums without
reading the list: decisions, best decisions, chips given away and the
costliest single mistake.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import close_old_connections, connection

from tables.engine import RuleSet
from tables.engine.exact.coach import recorded_decisions, review
from tables.models import Round, RoundPhase, RoundSeat

log = logging.getLogger(__name__)

_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="coach-review")

#: Whether settled rounds are reviewed on the review thread (the test process turns it off:
#: tests/conftest.py; the tests that need a review call `review_round`).
ENABLED = True


def schedule_review(round_id: int) -> None:
    """Review a settled round on the review thread (called once its settlement has committed).

    With COACH_REVIEW_THREAD off, `manage.py review_rounds --follow` reviews it instead.
    """
    if ENABLED and settings.COACH_REVIEW_THREAD:
        _executor.submit(_review_on_thread, round_id)


def _review_on_thread(round_id: int) -> None:
    close_old_connections()
    try:
        review_round(round_id)
    except Exception:
        log.exception("Round %s: its review failed", round_id)
    finally:
        connection.close()  # this thread's own connection


def review_round(round_id: int) -> int:
    """Price every decision of a settled round and store each seat's review; the rows reviewed."""
    row = Round.objects.filter(pk=round_id, phase=RoundPhase.SETTLED).values_list("state", flat=True).first()
    seats = list(RoundSeat.objects.filter(round_id=round_id, review__isnull=True).values_list("pk", "seat"))
    if row is None or not seats:
        return 0
    rules = RuleSet.from_json(row["rules"])
    reviews: dict[int, list[dict]] = {}
    try:
        decisions = recorded_decisions(row)
    except Exception:
        # A record the engine cannot replay: its rows get an empty review, so it is not tried forever.
        log.exception("Round %s: its decisions could not be replayed for review", round_id)
        decisions = []
    for decision in decisions:
        try:
            verdict = review(rules, decision)
        except ValueError as error:
            log.warning("Round %s, seat %s: a decision could not be priced (%s)", round_id, decision.seat, error)
            continue
        reviews.setdefault(decision.seat, []).append(verdict)
    done = 0
    for pk, seat in seats:
        mine = reviews.get(seat, [])
        done += RoundSeat.objects.filter(pk=pk, review__isnull=True).update(
            review=mine,
            decisions=len(mine),
            best_decisions=sum(1 for verdict in mine if verdict["is_best"]),
            ev_given=round(sum(verdict["cost_chips"] for verdict in mine), 4),
            worst_cost=max((verdict["cost_chips"] for verdict in mine), default=0.0),
        )
    return done


def review_unreviewed(limit: int | None = None) -> int:
    """Review the settled rounds whose history rows have no review yet (oldest first); the rows reviewed.

    The rows waiting are found from a partial index (RoundSeat "history_unreviewed"), however long the history.
    """
    waiting = RoundSeat.objects.filter(review__isnull=True).order_by("id").values_list("round_id", flat=True)
    # A round has at most seven rows: 7 x limit rows hold at least `limit` rounds.
    ids = list(dict.fromkeys(waiting if limit is None else waiting[: 7 * limit]))[:limit]
    return sum(review_round(round_id) for round_id in ids)
