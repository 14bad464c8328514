"""The coach's review as the history shows it: each decision's line, a history's accuracy, a player's play.

The figures are written after settlement by tables/play/reviews.py; here they
are only read. Chips are the expected value given away: the best play's value
minus the value of the play made, times the hand's stake.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet, Sum
from django.db.models.functions import Coalesce

from accounts.models import User
from tables.engine import BY_NAME
from tables.models import RoundSeat

COSTLIEST = 5  # mistakes listed on the profile
#: A seat's answers to the insurance offer, reviewed like its plays (exact/coach.py).
INSURANCE_ANSWERS = ("insurance", "no_insurance")


def _label(action: str) -> str:
    spec = BY_NAME.get(action)
    return spec.label if spec is not None else action.capitalize()


@dataclass(frozen=True)
class ReviewLine:
    """One decision priced: `Best: Split (-0.485) · You: Hit (-0.536) · cost 0.51 chips`.

    An answer to the insurance offer reads the same: `Best: No insurance (0.000) · You: Insurance (-0.039) · ...`.
    """

    step: int  # the replay step showing the table just after the decision
    seat: int
    hand: int
    cards: tuple[str, ...]
    dealer: str
    action: str
    by_timer: bool
    ev: float
    best: str
    best_ev: float
    cost_chips: float
    cost_pct: float
    is_best: bool

    @property
    def text(self) -> str:
        who = "Timer (time ran out)" if self.by_timer else "You"
        line = f"Best: {_label(self.best)} ({self.best_ev:.3f}) · {who}: {_label(self.action)} ({self.ev:.3f})"
        return line + (" · the best play" if self.is_best else f" · cost {self.cost_chips:.2f} chips")

    @property
    def hand_text(self) -> str:
        text = f"{','.join(card[0] for card in self.cards)} against {self.dealer[0]}"
        return text + ", insurance offered" if self.action in INSURANCE_ANSWERS else text


def review_lines(rows: list[RoundSeat]) -> list[ReviewLine]:
    """Every reviewed decision of the given history rows (a player's seats in one round), in order."""
    lines = [
        ReviewLine(
            step=verdict["seq"] + 1,
            seat=verdict["seat"],
            hand=verdict["hand"],
            cards=tuple(verdict["cards"]),
            dealer=verdict["dealer"],
            action=verdict["action"],
            by_timer=verdict["actor"] == "timer",
            ev=verdict["ev"],
            best=verdict["best"],
            best_ev=verdict["best_ev"],
            cost_chips=verdict["cost_chips"],
            cost_pct=verdict["cost_pct"],
            is_best=verdict["is_best"],
        )
        for row in rows
        for verdict in (row.review or [])
    ]
    return sorted(lines, key=lambda line: line.step)


@dataclass(frozen=True)
class PlayFigures:
    """The coach's figures over a set of history rows (only the reviewed ones count)."""

    reviewed: int  # rounds (history rows) reviewed
    decisions: int
    best_decisions: int
    given_away: float  # chips of expected value

    @property
    def accuracy_pct(self) -> float | None:
        return 100 * self.best_decisions / self.decisions if self.decisions else None

    @property
    def given_per_100(self) -> float | None:
        """Chips given away per 100 hands (rounds played and reviewed)."""
        return 100 * self.given_away / self.reviewed if self.reviewed else None


PREFIX = "play_"  # the aggregates' names, apart from the columns they sum


def aggregates() -> dict:
    """The aggregate expressions behind PlayFigures, for a summary's own aggregate query."""
    reviewed = Q(review__isnull=False)
    return {
        f"{PREFIX}reviewed": Count("id", filter=reviewed),
        f"{PREFIX}decisions": Coalesce(Sum("decisions", filter=reviewed), 0),
        f"{PREFIX}best_decisions": Coalesce(Sum("best_decisions", filter=reviewed), 0),
        f"{PREFIX}given_away": Coalesce(Sum("ev_given", filter=reviewed), 0.0),
    }


def figures_from(totals: dict) -> PlayFigures:
    """PlayFigures out of an aggregate's result (its `aggregates()` entries taken out of it)."""
    return PlayFigures(**{name.removeprefix(PREFIX): totals.pop(name) for name in aggregates()})


def figures_of(rows: QuerySet[RoundSeat]) -> PlayFigures:
    return figures_from(rows.order_by().aggregate(**aggregates()))


@dataclass(frozen=True)
class Mistake:
    round_id: int
    table: str
    round_number: int
    line: ReviewLine


def costliest_mistakes(player: User, count: int = COSTLIEST) -> list[Mistake]:
    """The player's costliest decisions, each linking to its replay step."""
    rows = (
        RoundSeat.objects.filter(player=player, worst_cost__gt=0)
        .select_related("table", "round")
        .only("id", "round_id", "seat", "review", "worst_cost", "table__name", "round__number")
        .order_by("-worst_cost", "-id")[:count]
    )
    mistakes = []
    for row in rows:
        worst = max(review_lines([row]), key=lambda line: line.cost_chips)
        mistakes.append(Mistake(round_id=row.round_id, table=row.table.name, round_number=row.round.number, line=worst))
    return mistakes
