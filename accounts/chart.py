"""A player's chips over time as a small server-rendered SVG line chart (no chart service, no script).

Pure: give it the chips after each transfer, in order, and it returns the
SVG markup. The profile charts the player's chips, not the bankroll alone
(`chips_history`): a buy-in only moves chips to a seat, so it is no loss, and
a session's result shows when its seat cashes out. The x axis is the
transfer's place in the statement, so an evening of play reads as clearly as
a quiet month; the first and last dates label its ends. A long history is cut down to at most `max_points` points, keeping the
first, the last, and the lowest and highest balance of every stretch, so no
peak or trough disappears.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

# A point: (when, chips after that transfer).
Point = tuple[dt.datetime, int]


@dataclass(frozen=True)
class Frame:
    """The drawing area inside the SVG's viewBox, margins left for the labels."""

    width: int = 640
    height: int = 220
    left: int = 76
    right: int = 12
    top: int = 12
    bottom: int = 28

    @property
    def plot_width(self) -> int:
        return self.width - self.left - self.right

    @property
    def plot_height(self) -> int:
        return self.height - self.top - self.bottom


def balance_history(changes: Sequence[tuple[dt.datetime, int]]) -> list[Point]:
    """(when, signed amount) in statement order -> (when, balance after it)."""
    balance = 0
    points = []
    for when, amount in changes:
        balance += amount
        points.append((when, balance))
    return points


@dataclass(frozen=True)
class Move:
    """One transfer of the bankroll's statement, as the chart reads it."""

    when: dt.datetime
    #: Chips in (+) or out (-) of the bankroll.
    change: int
    #: For a buy-in or a cash-out, the seat's ledger account on the other side; None for any other transfer.
    seat: int | None = None


def chips_history(moves: Sequence[Move], *, now: dt.datetime | None = None, at_tables: int | None = None) -> list[Point]:
    """(when, the player's chips after it) for each bankroll transfer, in statement order.

    The chips are the bankroll plus what was bought in at seats not yet cashed
    out: a buy-in leaves the total as it was, and a cash-out changes it by the
    session's result. Given the chips at the tables `now`, a last point says
    what the player holds at this moment, if play has changed it since.
    """
    bankroll = 0
    bought_in: dict[int, int] = {}
    points: list[Point] = []
    for move in moves:
        bankroll += move.change
        if move.seat is not None:
            if move.change < 0:
                bought_in[move.seat] = bought_in.get(move.seat, 0) - move.change
            else:
                bought_in.pop(move.seat, None)  # a cash-out empties its seat
        points.append((move.when, bankroll + sum(bought_in.values())))
    if now is not None and at_tables is not None and points and bankroll + at_tables != points[-1][1]:
        points.append((now, bankroll + at_tables))
    return points


def downsample(points: Sequence[Point], max_points: int = 300) -> list[tuple[int, Point]]:
    """At most `max_points` of the points, each with its index in the full history.

    The first and last always stay; the points between are cut into equal
    stretches and each stretch keeps its lowest and highest balance, in order.
    """
    count = len(points)
    if count <= max_points:
        return list(enumerate(points))
    max_points = max(max_points, 4)
    buckets = (max_points - 2) // 2
    inner = count - 2
    kept: list[tuple[int, Point]] = [(0, points[0])]
    for bucket in range(buckets):
        start = 1 + bucket * inner // buckets
        end = 1 + (bucket + 1) * inner // buckets
        if start >= end:
            continue
        low = min(range(start, end), key=lambda i: points[i][1])
        high = max(range(start, end), key=lambda i: points[i][1])
        for index in sorted({low, high}):
            kept.append((index, points[index]))
    kept.append((count - 1, points[-1]))
    return kept


def summary(points: Sequence[Point], *, title: str = "Bankroll over time") -> str:
    """The chart in words, for its aria-label and title."""
    if not points:
        return f"{title}: no transfers yet."
    first_when, first = points[0]
    last_when, last = points[-1]
    balances = [balance for _, balance in points]
    if len(points) == 1:
        return f"{title}: {first:,} chips on {first_when:%Y-%m-%d}."
    return (
        f"{title}: from {first:,} chips on {first_when:%Y-%m-%d} to {last:,} chips on "
        f"{last_when:%Y-%m-%d}; lowest {min(balances):,}, highest {max(balances):,}."
    )


def bankroll_svg(
    points: Sequence[Point], *, max_points: int = 300, frame: Frame = Frame(), title: str = "Bankroll over time"
) -> str:
    """The SVG markup of the chart; an empty string when there is nothing to draw."""
    if not points:
        return ""
    label = escape(summary(points, title=title))
    kept = downsample(points, max_points)
    balances = [balance for _, balance in points]
    low, high = min(balances), max(balances)
    last_index = len(points) - 1

    def x(index: int) -> float:
        if last_index == 0:
            return frame.left + frame.plot_width / 2
        return frame.left + frame.plot_width * index / last_index

    def y(balance: int) -> float:
        if high == low:
            return frame.top + frame.plot_height / 2
        return frame.top + frame.plot_height * (high - balance) / (high - low)

    coordinates = " ".join(f"{x(index):.1f},{y(balance):.1f}" for index, (_, balance) in kept)
    bottom = frame.top + frame.plot_height
    right = frame.left + frame.plot_width
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bankroll-chart" viewBox="0 0 {frame.width} {frame.height}" '
        f'role="img" aria-label="{label}">',
        f"<title>{label}</title>",
        f'<g class="axes"><line x1="{frame.left}" y1="{frame.top}" x2="{frame.left}" y2="{bottom}"/>'
        f'<line x1="{frame.left}" y1="{bottom}" x2="{right}" y2="{bottom}"/></g>',
        '<g class="labels" aria-hidden="true">',
        f'<text class="max" x="{frame.left - 6}" y="{y(high):.1f}" text-anchor="end" dominant-baseline="middle">'
        f"{high:,}</text>",
    ]
    if low != high:
        parts.append(
            f'<text class="min" x="{frame.left - 6}" y="{y(low):.1f}" text-anchor="end" dominant-baseline="middle">'
            f"{low:,}</text>"
        )
    first_when, last_when = points[0][0], points[-1][0]
    parts.append(
        f'<text class="first-date" x="{frame.left}" y="{frame.height - 8}" text-anchor="start">'
        f"{first_when:%Y-%m-%d}</text>"
    )
    if last_index:
        parts.append(
            f'<text class="last-date" x="{right}" y="{frame.height - 8}" text-anchor="end">{last_when:%Y-%m-%d}</text>'
        )
    parts.append("</g>")
    if len(kept) == 1:
        x0, y0 = coordinates.split(",")
        parts.append(f'<circle class="line" cx="{x0}" cy="{y0}" r="3"/>')
    else:
        parts.append(f'<polyline class="line" fill="none" points="{coordinates}"/>')
    parts.append("</svg>")
    return "".join(parts)
