"""A player's hand history as CSV or JSON, streamed (docs/hand-history-format.md).

The rows are read with `.iterator(chunk_size=...)` and `values()`, joined to
their round, table and shoe in the same query, so a history of hundreds of
thousands of rounds is written a chunk at a time without a query per row.
Only the parts of the round's state the format names are read (the dealer's
cards, the events): the shoe's state, which holds its seed, is not. A shoe's
seed is selected only once the shoe is retired.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import logging
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db.models import Case, F, QuerySet, When
from django.http import HttpRequest, StreamingHttpResponse
from django.utils import timezone

from tables.engine.hand import hand_value
from tables.models import RoundSeat

logger = logging.getLogger(__name__)

# 2: the coach's review of each decision (review, and three CSV columns); 3: insurance answers reviewed too
FORMAT_VERSION = 3
CHUNK_SIZE = 500  # rows per database fetch
RECORDS_PER_WRITE = 100  # records per piece of the response body

CSV_COLUMNS = [
    "round_id",
    "table_id",
    "table",
    "profile",
    "round_number",
    "settled_at",
    "seat",
    "stack_before",
    "stack_after",
    "net",
    "bet",
    "staked",
    "insurance",
    "result",
    "blackjacks",
    "hands",
    "dealer_cards",
    "dealer_total",
    "shoe_commitment",
    "shoe_seed",
    "decisions",
    "best_decisions",
    "chips_given_away",
]
# A spreadsheet runs a text cell beginning with these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _records(rows: QuerySet[RoundSeat], *, events: bool) -> Iterator[dict[str, Any]]:
    """Each history row as the format's record, oldest first."""
    fields: dict[str, Any] = {
        "dealer_cards": F("round__state__dealer"),
        "hole_revealed": F("round__state__hole_revealed"),
        # The seed leaves the database only once its shoe is retired.
        "shoe_seed": Case(When(round__shoe__retired_at__isnull=False, then=F("round__shoe__seed")), default=None),
    }
    if events:
        fields["events"] = F("round__state__events")
        fields["event_times"] = F("round__event_times")
    values = rows.order_by("id").values(
        "id", "round_id", "table_id", "table__name", "profile", "round__number", "settled_at", "seat",
        "stack_before", "stack_after", "net", "bet", "staked", "insurance", "result", "blackjacks", "hands",
        "round__shoe__commitment", "review", "decisions", "best_decisions", "ev_given", **fields,
    )
    for row in values.iterator(chunk_size=CHUNK_SIZE):
        yield _record(row, events=events)


def _record(row: dict[str, Any], *, events: bool) -> dict[str, Any]:
    revealed = bool(row["hole_revealed"])
    dealer = list(row["dealer_cards"] or [])
    if not revealed and len(dealer) > 1:
        # A settled round has always turned its hole card; should one not have, it stays hidden.
        dealer[1] = None
    shown = [card for card in dealer if card is not None]
    record = {
        "round_id": row["round_id"],
        "table_id": row["table_id"],
        "table": row["table__name"],
        "profile": row["profile"],
        "round_number": row["round__number"],
        "settled_at": _iso(row["settled_at"]),
        "seat": row["seat"],
        "stack_before": row["stack_before"],
        "stack_after": row["stack_after"],
        "net": row["net"],
        "bet": row["bet"],
        "staked": row["staked"],
        "insurance": row["insurance"],
        "result": row["result"],
        "blackjacks": row["blackjacks"],
        "hands": [
            {"cards": list(hand["cards"]), "total": hand["total"], "bet": hand["bet"], "outcome": hand["outcome"]}
            for hand in row["hands"]
        ],
        "dealer": {"cards": dealer, "total": hand_value(shown)[0] if shown else None},
        "shoe": {"commitment": row["round__shoe__commitment"], "seed": row["shoe_seed"] or None},
    }
    if events:
        times = row["event_times"] or []
        record["events"] = [
            _event(event, times[n] if n < len(times) else None, revealed) for n, event in enumerate(row["events"] or [])
        ]
        # The coach's review of each decision (tables/play/reviews.py); null until it is done.
        record["review"] = row["review"]
    else:
        record["decisions"] = row["decisions"] if row["review"] is not None else None
        record["best_decisions"] = row["best_decisions"] if row["review"] is not None else None
        record["chips_given_away"] = round(row["ev_given"], 2) if row["review"] is not None else None
    return record


def _event(event: dict[str, Any], time: str | None, revealed: bool) -> dict[str, Any]:
    card = event.get("card")
    if not revealed and event.get("kind") == "deal_card" and event.get("face_up") is False:
        card = None
    return {
        "seq": event["seq"],
        "time": time,
        "kind": event["kind"],
        "actor": event["actor"],
        "seat": event.get("seat"),
        "hand": event.get("hand"),
        "card": card,
        "face_up": event.get("face_up", True),
        "chips": event.get("chips", 0),
        "outcome": event.get("outcome"),
    }


def _iso(moment: dt.datetime | str | None) -> str | None:
    if moment is None or isinstance(moment, str):
        return moment
    return moment.astimezone(dt.timezone.utc).isoformat()


# --- CSV -------------------------------------------------------------------------------


class _Line:
    """A file-like object whose write returns what it was given: csv.writer's row as a string."""

    def write(self, value: str) -> str:
        return value


def csv_row(record: dict[str, Any]) -> list[Any]:
    table = record["table"]
    if table.startswith(FORMULA_STARTS):
        table = "'" + table
    return [
        record["round_id"],
        record["table_id"],
        table,
        record["profile"],
        record["round_number"],
        record["settled_at"],
        record["seat"],
        record["stack_before"],
        record["stack_after"],
        record["net"],
        record["bet"],
        record["staked"],
        record["insurance"],
        record["result"],
        record["blackjacks"],
        json.dumps(record["hands"], separators=(",", ":")),
        " ".join(card or "??" for card in record["dealer"]["cards"]),
        "" if record["dealer"]["total"] is None else record["dealer"]["total"],
        record["shoe"]["commitment"],
        record["shoe"]["seed"] or "",
        *("" if record[name] is None else record[name] for name in ("decisions", "best_decisions", "chips_given_away")),
    ]


def csv_chunks(rows: QuerySet[RoundSeat]) -> Iterator[str]:
    writer = csv.writer(_Line())
    yield writer.writerow(CSV_COLUMNS)
    yield from _joined(writer.writerow(csv_row(record)) for record in _records(rows, events=False))


# --- JSON ------------------------------------------------------------------------------


def json_chunks(rows: QuerySet[RoundSeat]) -> Iterator[str]:
    """One JSON array, written item by item."""
    yield "["
    first = True

    def items() -> Iterator[str]:
        nonlocal first
        for record in _records(rows, events=True):
            yield ("\n" if first else ",\n") + json.dumps(record, ensure_ascii=False, separators=(",", ":"))
            first = False

    yield from _joined(items())
    yield "\n]\n"


def _joined(pieces: Iterable[str]) -> Iterator[str]:
    """Pieces glued into writes of RECORDS_PER_WRITE records."""
    batch: list[str] = []
    for piece in pieces:
        batch.append(piece)
        if len(batch) >= RECORDS_PER_WRITE:
            yield "".join(batch)
            batch = []
    if batch:
        yield "".join(batch)


# --- Responses -------------------------------------------------------------------------


def streaming_response(request: HttpRequest, chunks: Iterator[str], *, content_type: str, filename: str):
    """A download streamed as it is written, under WSGI and ASGI alike.

    Under ASGI (daphne) Django would read a plain iterator into a list before
    sending it, so there each chunk is fetched in the request's own thread as
    the previous one is sent.
    """
    content: Iterator[str] | AsyncIterator[str]
    chunks = _ending_on_error(chunks, filename)
    content = _async_chunks(chunks) if isinstance(request, ASGIRequest) else chunks
    response = StreamingHttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


def _ending_on_error(chunks: Iterator[str], filename: str) -> Iterator[str]:
    """The chunks, and on an error the end of the response, logged: never a download left hanging.

    Once the first chunk is sent the status is 200 and cannot change; an error
    after it, raised out of the body, left the client waiting for the rest
    (issue 15). The file ends short instead: a CSV without its last rows, a
    JSON array without its closing bracket, which no reader takes as whole.
    """
    try:
        yield from chunks
    except Exception:
        logger.exception("The export %s failed part way; its response ends here.", filename)
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()


async def _async_chunks(chunks: Iterator[str]) -> AsyncIterator[str]:
    done = object()
    step = sync_to_async(next, thread_sensitive=True)
    try:
        while True:
            chunk = await step(chunks, done)
            if chunk is done:
                return
            yield chunk
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            await sync_to_async(close, thread_sensitive=True)()


def filename(extension: str) -> str:
    return f"hand-history-{timezone.localdate():%Y-%m-%d}.{extension}"
