"""Every change of a table's state: sit, leave, change seat, bet, pass, act, expire.

As in Zulip, `check_*` validates and raises a TableError a player can read,
and `do_*` makes the change: one transaction that locks the Table row,
applies the engine, writes the ledger transfers and the round's new events,
bumps the table's version, and announces the change (tables.play.changes:
after commit, the live view tells the viewers and the timers arm the next
deadline). Views and consumers only call these; who may see or sit at a
table is asked of tables.play.access.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import connection
from django.utils import timezone

from accounts import ledger, pauses
from accounts.models import User
from casino import rows, sql
from tables.engine import BY_NAME, GameRound, IllegalAction, Phase
from tables.models import Seat, Table
from tables.play import access, held, rounds
from tables.play import limits as play_limits
from tables.play.changes import Play, TableChanged, announce
from tables.play.errors import TableError

# Deadlines one call may settle in a row (a window, then a decision, ...).
MAX_CATCH_UP = 50


@dataclass(frozen=True)
class Change:
    table_id: int
    version: int


def _lock(table_id: int) -> Table:
    table = held.locked_table(table_id)  # with its round, read back only when this process does not hold it
    if table is None:
        raise TableError("This table does not exist.", "no_table")
    table._stored = _live(table)  # as its row holds it: _commit writes only what changed
    return table


def _live(table: Table) -> tuple:
    return (table.deadline, table.current_round_id, table.decisions)


def _commit(table: Table, engine=None, seated: list[Seat] | None = None) -> Change:
    table.version += 1
    round_row = table.current_round
    if engine is None and round_row is not None:
        engine = rounds.load(round_row)
    rounds.refresh_decisions(table, round_row, engine, table.version)
    # The version always; the rest when it changed (most plays leave the round and often the deadline).
    stored, live = getattr(table, "_stored", (object(),) * 3), _live(table)
    changed = [name for name, old, new in zip(("deadline", "current_round", "decisions"), stored, live) if old != new]
    rows.update(table, ["version", *changed])
    table._stored = live
    if round_row is not None:
        # Not read back by the next change here: the table, its round and, while it is played, its engine and seats.
        playing = rounds.in_progress(table) is not None
        held.keep(table, round_row, engine if playing else None, seated if playing else None)
    play = None
    if seated is not None and engine is not None:
        # A play (the one that settles its round included) or a new betting window: its listeners
        # may take the state just written without reading it back (tables.live.frames.offer says when).
        play = Play(table=table, seated=seated, round_row=round_row, engine=engine)
    announce(TableChanged(table.pk, table.version, table.deadline, play))
    return Change(table.pk, table.version)


def _start_if_idle(table: Table, now: dt.datetime) -> rounds.Opened | None:
    """A table with nobody playing and nothing scheduled gets a betting window: the window, if it opened now.

    At a one-seat table it opens at once; at a shared table after the usual
    pause, so that friends sitting down together play the first round together.
    """
    if rounds.in_progress(table) is not None or table.deadline is not None:
        return None
    if table.timed:
        table.deadline = now + dt.timedelta(seconds=table.pause_seconds)
        return None
    return rounds.open_window(table, now)


# --- The table's settings (the admin) -----------------------------------------------


def do_edit_table(table_id: int, changes: dict[str, object]) -> Change:
    """Save an admin's edit of a table's settings (name, limits, timers ...).

    Under the table's lock and with only the changed fields, so an edit never
    writes back the live state (version, round, deadline) it read before a
    player's action; the version bump makes every viewer see the new settings.
    """
    with ledger.atomic():
        table = _lock(table_id)
        for name, value in changes.items():
            setattr(table, name, value)
        table.version += 1
        table.save(update_fields=[*changes, "version"])
        announce(TableChanged(table.pk, table.version, table.deadline))
        return Change(table.pk, table.version)


def do_resize_empty_table(table_id: int, seats: int) -> Change:
    """Give a table nobody sits at `seats` seats (a player's Rocket Academy table, reused at their limit)."""
    with ledger.atomic():
        table = _lock(table_id)
        if table.seats.filter(player__isnull=False).exists():
            raise TableError("Someone sat down at that table a moment ago.", "seat_taken")
        table.seats.filter(number__gt=seats).delete()
        table.seat_count = seats
        table.version += 1
        table.save(update_fields=["seat_count", "version"])  # tables.signals adds the missing seats
        announce(TableChanged(table.pk, table.version, table.deadline))
        return Change(table.pk, table.version)


# --- Seats --------------------------------------------------------------------------


def check_seat_not_stale(seat: Seat, version: int | None) -> None:
    """A seat click made before the seat last changed hands is stale (e.g. queued while offline)."""
    if version is not None and version < seat.changed_version:
        raise TableError("That seat changed before your click arrived; here is the table as it stands.", "stale")


def check_sit(table: Table, user: User, number: int, buy_in: int, version: int | None = None) -> Seat:
    if not user.is_authenticated:
        raise TableError("Sign in to take a seat.", "anonymous")
    if not access.may_watch(user.pk, table.owner_id):
        raise TableError("This is a private table.", "private")
    if access.is_paused(user):
        raise TableError(f"You are taking a break until {pauses.until_words(user)}.", "paused")
    # The table's seats in one read (SQL built once, casino.rows): the one asked for, and those the player holds.
    seats = rows.select(Seat, "t0.table_id = %s", [table.pk])
    seat = next((seat for seat in seats if seat.number == number), None)
    if seat is None:
        raise TableError(f"This table has no seat {number}.", "no_seat")
    if seat.player_id is not None:
        raise TableError("Someone else took that seat.", "seat_taken")
    check_seat_not_stale(seat, version)
    if not access.may_take_another_seat(table, sum(other.player_id == user.pk for other in seats)):
        raise TableError("You already have a seat at this table.", "already_seated")
    if type(buy_in) is not int or buy_in < table.min_bet:
        raise TableError(f"Buy in with at least the minimum bet, {table.min_bet} chips.", "bad_amount")
    return seat


def do_sit(
    table_id: int, user: User, number: int, buy_in: int | None = None, *, version: int | None = None
) -> Change:
    buy_in = settings.DEFAULT_BUY_IN_CHIPS if buy_in is None else buy_in
    with ledger.atomic():
        table = _lock(table_id)
        seat = check_sit(table, user, number, buy_in, version)
        account = rounds.seat_account_for(seat, user, f"{table.name} seat {number} ({user.username})")
        try:
            ledger.buy_in(user=user, seat_account=account, amount=buy_in)
        except ledger.InsufficientChips as error:
            raise TableError(str(error), "bad_amount") from None
        seat.occupy(user, account, version=table.version + 1, sat_at=timezone.now())
        opened = _start_if_idle(table, rounds.now())
        # A new player: the frames read this version back; the round just made is not decoded again here.
        return _commit(table, opened.engine if opened is not None else None)


def _own_seat(table: Table, user: User, number: int, seated: list[Seat] | None = None) -> Seat:
    """The user's seat `number`, looked up among `seated` (rounds.seated) when the caller has them."""
    if not user.is_authenticated:
        raise TableError("Sign in to play.", "anonymous")
    if seated is not None:
        seat = next((seat for seat in seated if seat.number == number), None)
    else:
        seat = table.seats.select_related("account").filter(number=number).first()
    if seat is None or seat.player_id != user.pk:
        raise TableError("That is not your seat.", "not_your_seat")
    return seat


def do_leave(table_id: int, user: User, number: int, *, version: int | None = None) -> Change:
    """Leave at once between rounds; during a round the stack is cashed out when it ends."""
    with ledger.atomic():
        table = _lock(table_id)
        seat = _own_seat(table, user, number)
        check_seat_not_stale(seat, version)
        round_row = rounds.in_progress(table)
        engine = rounds.load(round_row) if round_row else None
        if engine is None or number not in engine.seats:
            rounds.stand_up(seat, table.version + 1)
        elif seat.leaving:
            raise TableError("You are already leaving when this round ends.", "stale")
        else:
            seat.leaving = True
            seat.save(update_fields=["leaving"])
            if engine.can_pass_bet(number):
                # Still betting: a leaver sits this round out rather than hold it up.
                _apply(table, round_row, engine, lambda: engine.act("pass", seat=number, actor="player"))
        if not table.seats.filter(player__isnull=False).exists() and rounds.in_progress(table) is None:
            table.deadline = None
        return _commit(table)


def do_change_seat(
    table_id: int, user: User, number: int, to_number: int, *, version: int | None = None
) -> Change:
    """RULES.md atlantic-city-multi: move to a free seat between rounds only."""
    with ledger.atomic():
        table = _lock(table_id)
        seat = _own_seat(table, user, number)
        check_seat_not_stale(seat, version)
        if rounds.in_progress(table) is not None:
            raise TableError("You can change seats between rounds only.", "illegal_action")
        target = table.seats.filter(number=to_number).first()
        if target is None:
            raise TableError(f"This table has no seat {to_number}.", "no_seat")
        if target.player_id is not None:
            raise TableError("That seat is taken.", "seat_taken")
        check_seat_not_stale(target, version)
        # The player, their stack and their record move together; a seat's account is its own, so free it first.
        player, account, sat_at, net, missed = seat.player, seat.account, seat.sat_at, seat.net, seat.missed_windows
        last_bet = seat.last_bet
        seat.vacate(version=table.version + 1)
        target.occupy(
            player, account, version=table.version + 1, sat_at=sat_at, net=net, missed_windows=missed, last_bet=last_bet
        )
        return _commit(table)


# --- Playing ------------------------------------------------------------------------


def check_not_stale(table: Table, seat: int, version: int) -> None:
    """An action made against a version older than the decision it answers is stale.

    Other players' moves do not make it stale; a second click on the same
    button, or a click queued while the connection was down, does.
    """
    if type(version) is not int:
        raise TableError("This action has no version; reload the table.", "stale")
    decision = table.decisions.get(str(seat))
    if version > table.version or (decision is not None and version < decision[1]):
        raise TableError("The table moved on before your click arrived; here it is as it stands.", "stale")


def do_act(
    table_id: int,
    user: User,
    action: str,
    *,
    seat: int,
    version: int,
    hand: int = 0,
    amount: int | None = None,
) -> Change:
    """A player's play (an action of the registry, tables.engine.ACTIONS) at one of their seats."""
    if action not in BY_NAME:
        raise TableError("That is not something you can do at a blackjack table.", "unknown_action")
    with ledger.atomic():
        table = _lock(table_id)
        # The seats read once, for the seat check and the chips' accounts (not the other players), as this
        # process's last play left them if it holds them (tables.play.held); the player, limits and all, anew.
        seated = held.take_seats(table, user.pk)
        if seated is None:
            seated = rounds.seated(table, players=False, limits_of=user.pk)
        player = _own_seat(table, user, seat, seated).player
        now = rounds.now()
        late = _overdue(table, now)
        if late:
            # The deadline passed before this click arrived and no timer has
            # applied it yet (a restart, a lost process): the timer's default
            # wins, under this same lock, and the click is refused below.
            for _ in range(MAX_CATCH_UP):
                if not _overdue(table, now):
                    break
                _expire_locked(table, now)
        else:
            check_not_stale(table, seat, version)
            round_row = rounds.in_progress(table)
            if round_row is None:
                raise TableError("No round is being played right now.", "extra_action")
            engine = rounds.load(round_row)

            def play() -> None:
                first = len(engine.events)
                engine.act(action, seat=seat, hand=hand, amount=amount, actor="player")
                staked = -sum(event.chips for event in engine.events[first:] if event.seat == seat and event.chips < 0)
                play_limits.check_limits(player, action, staked, now)

            _apply(table, round_row, engine, play, seated)
            change = _commit(table, engine, seated)
    if late:
        raise TableError("Time ran out before your click arrived; here is the table as it stands.", "late")
    return change


def _apply(
    table: Table, round_row, engine: GameRound, change: Callable[[], object], seated: list[Seat] | None = None
) -> None:
    """Make `change` to the engine's round, then record what it did (chips, events, deadline)."""
    now = rounds.now()
    before = rounds.timer_key(engine)
    first = len(engine.events)
    try:
        change()
    except IllegalAction as error:
        raise TableError(error.message, str(error.code)) from None
    rounds.record(table, round_row, engine, first, now, seated)
    if engine.phase is not Phase.SETTLED:
        table.deadline = rounds.decision_deadline(table, engine, before, now)


# --- Time -----------------------------------------------------------------------------


def _expire_locked(table: Table, now: dt.datetime) -> Change:
    """Apply the default for the table's passed deadline; the table is locked."""
    round_row = rounds.in_progress(table)
    if round_row is None:
        table.deadline = None
        # The new round as just made: neither it nor the seats are read back, here or by the viewers' frames.
        opened = rounds.open_window(table, now)
        return _commit(table) if opened is None else _commit(table, opened.engine, opened.seated)
    engine = rounds.load(round_row)
    _apply(table, round_row, engine, lambda: engine.expire(actor="timer"))
    return _commit(table, engine)


def _overdue(table: Table, now: dt.datetime) -> bool:
    return table.deadline is not None and table.deadline <= now


# Asked by every timer, before every seat change and as every socket opens: SQL built once (casino.sql).
_OVERDUE = sql.statement(Table, "SELECT {version} FROM {table} WHERE {id} = %s AND {deadline} <= %s")
# And, as a socket opens, the table's version and next deadline (None: no such table), likewise.
version_and_deadline = held.version_and_deadline


def _overdue_version(table_id: int) -> int | None:
    """The table's version if its deadline has passed (a plain read, no lock), else None."""
    found = sql.fetch(_OVERDUE(), [table_id, connection.ops.adapt_datetimefield_value(timezone.now())])
    return found[0][0] if found else None


def do_expire(table_id: int, version: int) -> Change | None:
    """A deadline passed: apply its default. Idempotent: a stale or early call does nothing (most, by a plain read first)."""
    if _overdue_version(table_id) != version:
        return None
    with ledger.atomic():
        table = _lock(table_id)
        now = rounds.now()
        if table.version != version or not _overdue(table, now):
            return None
        return _expire_locked(table, now)


def settle_overdue(table_id: int) -> Change | None:
    """Settle a deadline that passed while no timer was armed (a restart, a lost process)."""
    change, overdue = None, _overdue_version(table_id)
    if overdue is None:
        return None
    # Several deadlines may have passed (a window, then a decision ...).
    for _ in range(MAX_CATCH_UP):
        step = do_expire(table_id, overdue)
        if step is None:
            break
        change = step
        overdue = step.version
    return change


# --- Stopping play (issue 14: Stop playing, a break) -------------------------------------


def do_play_out(table_id: int) -> Change | None:
    """Finish the round at a table without timers (a solo table) whose player is leaving: its defaults play it out.

    A shared table's timers finish a leaver's round by themselves; a solo
    table waits for its player, who is leaving for good (a break, Stop playing).
    """
    with ledger.atomic():
        table = _lock(table_id)
        if table.timed:
            return None
        change = None
        for _ in range(MAX_CATCH_UP):
            round_row = rounds.in_progress(table)
            if round_row is None or not table.seats.filter(player__isnull=False, leaving=True).exists():
                break
            engine = rounds.load(round_row)
            _apply(table, round_row, engine, lambda engine=engine: engine.expire(actor="timer"))
            change = _commit(table, engine)
        return change
