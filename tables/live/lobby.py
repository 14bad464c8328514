"""The lobby's tables as players see them: who sits where, what the round is doing, the rules that set a table apart.

Read fresh for every page and every poll (the lobby refreshes its list every
few seconds): one query for the tables, one for their seated players, whatever
their number.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.conf import settings
from django.db.models import Case, Count, F, Q, QuerySet, Value, When

from tables.engine import RuleSet
from tables.engine.rules import InsuranceRule, SplitAces, SplitBy, Surrender
from tables.models import RoundPhase, Seat, Table
from tables.play.access import public_tables, tables_created_by, viewer_id

#: "Your tables" listed at most (beside TABLES_PER_PLAYER Rocket Academy tables and a solo table).
LIMIT = 60
#: The longest page number read from a query string; anything else is page 1.
_PAGE_DIGITS = 9

#: Stakes by the table minimum: (slug, label, lowest minimum, highest minimum or None).
STAKES: tuple[tuple[str, str, int, int | None], ...] = (
    ("low", "Low: minimum bet under 5", 1, 4),
    ("medium", "Medium: minimum bet 5 to 24", 5, 24),
    ("high", "High: minimum bet 25 or more", 25, None),
)

PHASE_STATES = {
    RoundPhase.BETTING: ("betting", "Taking bets"),
    RoundPhase.INSURANCE: ("playing", "Insurance"),
    RoundPhase.PLAYERS: ("playing", "Hands in play"),
}


@dataclass(frozen=True)
class SeatSpot:
    number: int
    player: str | None  # None: free
    mine: bool


@dataclass(frozen=True)
class LobbyTable:
    table: Table
    tags: list[str]
    rules: list[str]
    seats: list[SeatSpot]
    state: str  # "idle", "betting" or "playing": the state badge's style
    state_label: str
    round_number: int | None
    #: Chips in the viewer's seats here; None when they hold none.
    my_stack: int | None

    @property
    def solo(self) -> bool:
        return self.table.seat_count == 1

    @property
    def taken(self) -> int:
        return sum(1 for seat in self.seats if seat.player is not None)

    @property
    def free(self) -> int:
        return self.table.seat_count - self.taken

    @property
    def players(self) -> list[str]:
        """Each seated player once, in seat order."""
        return list(dict.fromkeys(seat.player for seat in self.seats if seat.player is not None))

    @property
    def my_seats(self) -> list[int]:
        return [seat.number for seat in self.seats if seat.mine]


@dataclass(frozen=True)
class LobbyFilter:
    profile: str | None = None
    stakes: str | None = None
    free_seat: bool = False

    @classmethod
    def from_cleaned(cls, data: dict) -> LobbyFilter:
        return cls(
            profile=data.get("profile") or None,
            stakes=data.get("stakes") or None,
            free_seat=bool(data.get("free_seat")),
        )

    @property
    def active(self) -> bool:
        return bool(self.profile or self.stakes or self.free_seat)

    def query(self, page: int = 1) -> str:
        """The filter (and a page past the first) as a query string (no leading "?"), for links and the poll."""
        params = {
            "profile": self.profile,
            "stakes": self.stakes,
            "free_seat": "on" if self.free_seat else None,
            "page": str(page) if page > 1 else None,
        }
        return urlencode({key: value for key, value in params.items() if value})

    def apply(self, tables: QuerySet[Table]) -> QuerySet[Table]:
        if self.profile:
            tables = tables.filter(profile=self.profile)
        for slug, _, lowest, highest in STAKES:
            if slug == self.stakes:
                tables = tables.filter(min_bet__gte=lowest)
                if highest is not None:
                    tables = tables.filter(min_bet__lte=highest)
        if self.free_seat:
            tables = tables.filter(taken__lt=F("seat_count"))
        return tables


@dataclass(frozen=True)
class LobbyPage:
    """One page of the open tables (LOBBY_PAGE_SIZE of them), shared tables first."""

    tables: list[LobbyTable]
    number: int
    has_next: bool
    lobby_filter: LobbyFilter

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def previous_query(self) -> str:
        return self.lobby_filter.query(self.number - 1)

    @property
    def next_query(self) -> str:
        return self.lobby_filter.query(self.number + 1)


def page_number(raw: object) -> int:
    """A page number from a query string: digits only, else page 1 (never an error: the lobby clamps it)."""
    text = str(raw or "").strip()
    if not text.isascii() or not text.isdigit() or len(text) > _PAGE_DIGITS:
        return 1
    return max(1, int(text))


def rule_tags(rules: RuleSet) -> list[str]:
    """A few words for each rule that sets a profile apart, read from its RuleSet (STYLE.md: never a slug)."""
    tags = [f"{rules.decks} deck{'s' if rules.decks > 1 else ''}"]
    tags.append("Fresh shoe every hand" if rules.penetration is None else f"Cut card at {float(rules.penetration):.0%}")
    tags.append("Dealer peeks" if rules.dealer_peek else "No peek")
    if rules.original_bets_only:
        tags.append("Original bets only")
    tags.append({
        InsuranceRule.NONE: "No insurance",
        InsuranceRule.HALF_BET: "Insurance",
        InsuranceRule.UP_TO_HALF: "Insurance up to half",
    }[rules.insurance])
    if rules.double_for_less:
        tags.append("Double for less")
    tags.append("Split once" if rules.max_hands == 2 else f"Re-split to {rules.max_hands} hands")
    if rules.split_by is SplitBy.VALUE:
        tags.append("Split any tens")
    if rules.split_aces is SplitAces.PLAY_ON:
        tags.append("Split aces play on")
    if rules.surrender is Surrender.LATE:
        tags.append("Late surrender")
    return tags


def common_rule_lines(profiles: list[RuleSet]) -> list[str]:
    """The rule lines every profile shares: said once on the page, not on every table."""
    if not profiles:
        return []
    shared = set(profiles[0].rule_lines()).intersection(*(set(p.rule_lines()) for p in profiles[1:]))
    return [line for line in profiles[0].rule_lines() if line in shared]


def _with_counts(tables: QuerySet[Table]) -> QuerySet[Table]:
    return tables.annotate(
        taken=Count("seats", filter=Q(seats__player__isnull=False)),
        # The current round's phase and number, without reading its state.
        phase=F("current_round__phase"),
        round_number=F("current_round__number"),
    ).order_by("id")


def open_tables(viewer: object, lobby_filter: LobbyFilter, page: int = 1) -> LobbyPage:
    """Page `page` of the public tables that match, shared tables first.

    One query for the page (a row more than it shows says whether another
    follows); a page past the last one is clamped to the last (one count more).
    """
    size = settings.LOBBY_PAGE_SIZE
    solo_last = Case(When(seat_count=1, then=Value(1)), default=Value(0))
    matching = lobby_filter.apply(_with_counts(public_tables())).order_by(solo_last, "id")
    page = max(1, page)
    rows = list(matching[(page - 1) * size : page * size + 1])
    if not rows and page > 1:
        page = max(1, -(-matching.count() // size))
        rows = list(matching[(page - 1) * size : page * size + 1])
    return LobbyPage(_entries(rows[:size], viewer), page, len(rows) > size, lobby_filter)


def own_tables(viewer: object) -> list[LobbyTable]:
    """The tables the viewer opened (solo and Rocket Academy), newest first: on every page of the lobby."""
    limit = max(LIMIT, settings.TABLES_PER_PLAYER + 1)
    rows = list(_with_counts(tables_created_by(viewer)).order_by("-id")[:limit])
    return _entries(rows, viewer)


def _entries(tables: list[Table], viewer: object) -> list[LobbyTable]:
    who = viewer_id(viewer)
    seated: dict[int, dict[int, Seat]] = {}
    for seat in (
        Seat.objects.filter(table__in=[t.pk for t in tables], player__isnull=False)
        .select_related("player", "account")
        .only("table_id", "number", "player__username", "account__balance")
    ):
        seated.setdefault(seat.table_id, {})[seat.number] = seat
    return [_entry(table, seated.get(table.pk, {}), who) for table in tables]


def _entry(table: Table, seated: dict[int, Seat], who: int | None) -> LobbyTable:
    seats = [
        SeatSpot(
            number=number,
            player=seated[number].player.username if number in seated else None,
            mine=number in seated and seated[number].player_id == who,
        )
        for number in range(1, table.seat_count + 1)
    ]
    mine = [seat for seat in seated.values() if seat.player_id == who and seat.account_id]
    if not seated:
        state, label = "idle", "Free" if table.seat_count == 1 else "Waiting for players"
    else:
        state, label = PHASE_STATES.get(table.phase, ("idle", "Between rounds"))
    return LobbyTable(
        table=table,
        tags=rule_tags(table.rules),
        rules=table.rules.rule_lines(),
        seats=seats,
        state=state,
        state_label=label,
        round_number=table.round_number if state != "idle" else None,
        my_stack=sum(seat.account.balance for seat in mine) if mine else None,
    )
