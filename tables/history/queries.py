"""A player's hand history: their RoundSeat rows, filtered, summarised and cut into pages.

Every query starts from `player=` and filters on the columns RoundSeat's
indexes lead with (table, profile, result, settled_at), so a history of
hundreds of thousands of rounds is read from its indexes: the summary is one
aggregate, a page is its ids (from the index alone) and then its rows.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlencode

from django.core.paginator import Page, Paginator
from django.db.models import Count, Exists, Max, Min, OuterRef, Q, QuerySet, Sum
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import User
from tables.history import coach
from tables.live.cards import CardView
from tables.models import RoundSeat, SeatResult, Table

PAGE_SIZE = 50


@dataclass(frozen=True)
class HistoryFilter:
    """What the player asked to see; None: no filter on that field."""

    table: int | None = None
    profile: str | None = None
    outcome: str | None = None
    date_from: dt.date | None = None
    date_to: dt.date | None = None  # inclusive

    @classmethod
    def from_cleaned(cls, cleaned: dict) -> HistoryFilter:
        """From a form's cleaned_data; a field that did not validate is left out."""
        return cls(
            table=cleaned.get("table") or None,
            profile=cleaned.get("profile") or None,
            outcome=cleaned.get("outcome") or None,
            date_from=cleaned.get("date_from"),
            date_to=cleaned.get("date_to"),
        )

    def apply(self, rows: QuerySet[RoundSeat]) -> QuerySet[RoundSeat]:
        if self.table is not None:
            rows = rows.filter(table_id=self.table)
        if self.profile:
            rows = rows.filter(profile=self.profile)
        if self.outcome:
            rows = rows.filter(result=self.outcome)
        # Dates are days in the site's time zone: from the start of date_from
        # to the end of date_to.
        if self.date_from is not None:
            rows = rows.filter(settled_at__gte=_start_of(self.date_from))
        if self.date_to is not None:
            rows = rows.filter(settled_at__lt=_start_of(self.date_to + dt.timedelta(days=1)))
        return rows

    def params(self) -> dict[str, str]:
        """The filter as query parameters, empty fields left out."""
        values = {
            "table": self.table,
            "profile": self.profile,
            "outcome": self.outcome,
            "date_from": self.date_from.isoformat() if self.date_from else None,
            "date_to": self.date_to.isoformat() if self.date_to else None,
        }
        return {name: str(value) for name, value in values.items() if value is not None}

    def query(self, **extra: object) -> str:
        """'table=3&page=2': the filter (and `extra`) as a query string, without the '?'."""
        return urlencode({**self.params(), **{k: str(v) for k, v in extra.items() if v is not None}})

    @property
    def active(self) -> bool:
        return bool(self.params())


def _start_of(day: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min))


def rounds_of(player: User, history_filter: HistoryFilter | None = None) -> QuerySet[RoundSeat]:
    """The player's history rows (never anyone else's), filtered, newest first."""
    rows = RoundSeat.objects.filter(player=player)
    if history_filter is not None:
        rows = history_filter.apply(rows)
    return rows.order_by("-id")


def tables_played(player: User) -> list[tuple[int, str]]:
    """(id, name) of every table the player has a history row at, by name: the table filter's choices.

    One index probe on (player, table) per table, rather than a DISTINCT over
    every row of a long history.
    """
    played = RoundSeat.objects.filter(player=player, table=OuterRef("pk"))
    return list(Table.objects.filter(Exists(played)).order_by("name", "id").values_list("id", "name"))


@dataclass(frozen=True)
class Summary:
    rounds: int
    net: int
    wins: int
    pushes: int
    losses: int
    blackjacks: int
    biggest_win: int | None  # the largest positive net of one round, None without a win
    biggest_loss: int | None  # the most negative net of one round, None without a loss
    play: coach.PlayFigures | None = None  # the coach's review of the rows' decisions


def summarise(rows: QuerySet[RoundSeat]) -> Summary:
    """The whole (filtered) history in one aggregate query, the coach's figures included."""
    totals = rows.order_by().aggregate(
        rounds=Count("*"),
        net_total=Coalesce(Sum("net"), 0),
        wins=Count("id", filter=Q(result=SeatResult.WIN)),
        pushes=Count("id", filter=Q(result=SeatResult.PUSH)),
        losses=Count("id", filter=Q(result=SeatResult.LOSS)),
        blackjacks=Coalesce(Sum("blackjacks"), 0),
        biggest_win=Max("net", filter=Q(net__gt=0)),
        biggest_loss=Min("net", filter=Q(net__lt=0)),
        **coach.aggregates(),
    )
    totals["net"] = totals.pop("net_total")  # named apart: "net" would shadow the column in Max/Min
    play = coach.figures_from(totals)
    return Summary(**totals, play=play)


class CountedPaginator(Paginator):
    """A Paginator told its count (the summary's), so it does not run a COUNT of its own."""

    def __init__(self, object_list, per_page: int, *, count: int) -> None:
        super().__init__(object_list, per_page)
        self.__dict__["count"] = count  # Paginator.count is a cached_property


@dataclass(frozen=True)
class HandLine:
    cards: list[CardView]
    total: int
    bet: int
    outcome: str | None


def page_of(rows: QuerySet[RoundSeat], number: object, *, count: int) -> Page:
    """One page of rows, newest first: the ids from the index, then those rows with their table and round."""
    paginator = CountedPaginator(rows.values_list("id", flat=True), PAGE_SIZE, count=count)
    page = paginator.get_page(number)
    ids = list(page.object_list) if count else []
    found = (
        RoundSeat.objects.filter(pk__in=ids)
        .select_related("table", "round")
        .only(
            "id", "round_id", "table_id", "seat", "settled_at", "net", "bet", "staked", "insurance",
            "hands", "result", "blackjacks", "profile", "table__name", "round__number",
        )
        .order_by("-id")
        if ids
        else []
    )
    page.object_list = list(found)
    for row in page.object_list:
        row.hand_lines = hand_lines(row.hands)
    return page


def hand_lines(hands: Iterable[dict]) -> list[HandLine]:
    """Each hand of a history row (or of a round's result) with its cards as the pages draw them."""
    return [
        HandLine(
            cards=[CardView(card) for card in hand.get("cards", [])],
            total=hand.get("total", 0),
            bet=hand.get("bet", 0),
            outcome=hand.get("outcome"),
        )
        for hand in hands
    ]
