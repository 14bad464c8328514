"""The life of a round at a table, below the public services.

These helpers run inside the transaction a service opened, with the Table
row locked. They load the engine's round, write what it did to the ledger,
store it, and work out the table's next deadline and decisions.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import partial

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from accounts import ledger
from accounts.models import LedgerAccount, TransferKind, User
from casino import rows
from tables.engine import (
    ACTIONS,
    CardShoe,
    Event,
    GameRound,
    InsuranceStatus,
    Phase,
    RuleSet,
    SeatStatus,
)
from tables.fairness import shoes
from tables.models import (
    Round,
    RoundPhase,
    RoundSeat,
    Seat,
    SeatAccount,
    SeatResult,
    Shoe,
    Table,
)
from tables.play import held, reviews

# Chips a seat stakes, by the engine event that staked them (the action registry says which).
STAKE_KINDS = {spec.event: TransferKind(spec.stake) for spec in ACTIONS if spec.stake is not None}
# Missed betting windows in a row before a seat is stood up (RULES.md).
MAX_MISSED_WINDOWS = 3


def load(round_row: Round) -> GameRound:
    """The round's engine: as the last play of this process left it (a held row's), else decoded from its state."""
    engine = held.take_engine(round_row)
    return engine if engine is not None else GameRound.from_json(round_row.state)


def in_progress(table: Table) -> Round | None:
    """The table's round, unless there is none or it is settled."""
    round_row = table.current_round
    if round_row is None or round_row.phase == RoundPhase.SETTLED:
        return None
    return round_row


def seated(table: Table, *, players: bool = True, limits_of: int | None = None) -> list[Seat]:
    """The occupied seats in order, with their accounts and (unless players=False) their players.

    limits_of=<a user's id>: with that player and their own limits (accounts.limits),
    read in the same query, and no other seat's player (the play of one player needs no more).
    """
    where = "t0.table_id = %s AND t0.player_id IS NOT NULL"
    # Read on every play: SQL built once (casino.rows), not by the ORM each time.
    if limits_of is not None:
        related = ("account", "player", "player__play_limits")
        return rows.select(
            Seat, where, [limits_of, table.pk], join=related, join_on={"player": "t2.id = %s"}, order_by="t0.number"
        )
    related = ("account", "player") if players else ("account",)
    return rows.select(Seat, where, [table.pk], join=related, order_by="t0.number")


# --- Opening a betting window ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Opened:
    """A betting window just opened: its round's engine, and every seat taken as read under the table's lock."""

    engine: GameRound
    seated: list[Seat]


def open_window(table: Table, now: dt.datetime) -> Opened | None:
    """Start the next round in its betting window for everyone seated (`table.current_round` is its row).

    DESIGN.md: a seat holding less than 1 chip is topped up as the window opens.
    """
    taken = seated(table)
    seats = [seat for seat in taken if not seat.leaving]
    if not seats:
        table.deadline = None
        return None
    rules = table.rules
    shoe_id, engine_shoe = _shoe_for_next_round(table, rules, now)
    previous = table.current_round
    if previous is not None:
        number = previous.number + 1  # the table's latest round: only this function makes rounds
    else:
        number = (table.rounds.aggregate(last=Max("number"))["last"] or 0) + 1
    # The stacks were read just now, under the table's lock: the top-ups due are worked out from them, the
    # round is written with its state (one statement), then the top-ups, whose transfers name the round.
    due = {seat.number: ledger.top_up_due(seat.account) for seat in seats} if table.top_up else {}
    stacks = {seat.number: seat.account.balance + due.get(seat.number, 0) for seat in seats}
    engine = GameRound.new(rules=rules, shoe=engine_shoe, seats=stacks, min_bet=table.min_bet, max_bet=table.max_bet)
    round_row = Round(
        table=table, number=number, profile=table.profile, shoe_id=shoe_id, phase=RoundPhase.BETTING,
        state=engine.to_json(), names={str(seat.number): seat.player.username for seat in seats},
    )
    rows.insert([round_row], key=True)
    for seat in seats:
        if due.get(seat.number):
            ledger.top_up(seat_account=seat.account, round=round_row, read=True)
    table.current_round = round_row
    table.deadline = now + dt.timedelta(seconds=table.betting_seconds) if table.timed else None
    return Opened(engine=engine, seated=taken)


def _shoe_for_next_round(table: Table, rules: RuleSet, now: dt.datetime) -> tuple[int, CardShoe]:
    """The next round's shoe: its row's id (the row itself is not read) and the engine's shoe."""
    previous = table.current_round
    if previous is not None and previous.state:
        engine_shoe = CardShoe.from_json(previous.state["shoe"])
        if not engine_shoe.needs_reshuffle(rules):
            return previous.shoe_id, engine_shoe
        # Retired: its seed may now be revealed (hand history, shoe verification).
        Shoe.objects.filter(pk=previous.shoe_id, retired_at__isnull=True).update(retired_at=now)
    engine_shoe = shoes.new_shoe(rules)
    shoe_row = Shoe.objects.create(
        table=table,
        decks=engine_shoe.decks,
        commitment=engine_shoe.commitment,
        seed=engine_shoe.seed.hex() if engine_shoe.seed is not None else "",
    )
    return shoe_row.pk, engine_shoe


# --- Storing what the engine did ------------------------------------------------------


def record(
    table: Table,
    round_row: Round,
    engine: GameRound,
    first_event: int,
    now: dt.datetime,
    seats: list[Seat] | None = None,
) -> None:
    """Write the engine's new events since `first_event`: chips to the ledger, state to the row.

    `seats` are the table's `seated()` seats, read in this transaction, if the caller has them.
    """
    moves = [event for event in engine.events[first_event:] if event.chips and event.seat is not None]
    if seats is None and (moves or engine.phase is Phase.SETTLED):
        # Most hits and stands move no chips: the accounts are read only when some do.
        seats = seated(table)
    if moves:
        accounts = {seat.number: seat.account for seat in seats}
        house = ledger.house_account()
        label = f"{table.name} round {round_row.number}"
        # No savepoint: a failure ends the whole play (services.do_act).
        ledger.transfer_all([_move(event, accounts[event.seat], house, label) for event in moves], round=round_row)
    round_row.state = engine.to_json()
    round_row.event_times = list(round_row.event_times) + [now.isoformat()] * (len(engine.events) - first_event)
    round_row.phase = _phase_of(engine)
    fields = ["state", "event_times", "phase"]
    if engine.phase is Phase.SETTLED:
        round_row.settled_at = now
        fields.append("settled_at")
    rows.update(round_row, fields)
    if engine.phase is Phase.SETTLED:
        _finish(table, round_row, engine, seats, now)


def _move(event: Event, seat_account, house, label: str) -> ledger.Move:
    where = f"{label}, seat {event.seat}"
    if event.hand is not None:
        where += f", hand {event.hand + 1}"
    if event.chips < 0:
        return ledger.Move(seat_account, house, -event.chips, STAKE_KINDS[event.kind], where)
    outcome = f" ({event.outcome})" if event.outcome else ""
    return ledger.Move(house, seat_account, event.chips, TransferKind.PAYOUT, where + outcome)


def _phase_of(engine: GameRound) -> str:
    return {
        Phase.BETTING: RoundPhase.BETTING,
        Phase.INSURANCE: RoundPhase.INSURANCE,
        Phase.PLAYERS: RoundPhase.PLAYERS,
        Phase.SETTLED: RoundPhase.SETTLED,
    }[engine.phase]


def _finish(table: Table, round_row: Round, engine: GameRound, seats: list[Seat], now: dt.datetime) -> None:
    """A settled round: its history rows, results onto the seats, leavers cashed out, the next window timed.

    `seats` are the table's `seated()` seats read in this transaction, their
    accounts' balances kept right by the round's transfers (ledger.transfer_all).
    """
    record_history(table, round_row, engine, seats, now)
    if engine.shoe.needs_reshuffle(engine.rules):
        # Done with: its seed may be revealed now (hand history, shoe verification).
        Shoe.objects.filter(pk=round_row.shoe_id, retired_at__isnull=True).update(retired_at=now)
    # Top-up chips lost in the round are gone: no seat owes more than it holds (issue 14).
    ledger.cap_credit([seat.account for seat in seats if seat.number in engine.seats])
    played = [seat for seat in seats if seat.number in engine.seats]  # not who sat down during the round
    for seat in played:
        part = engine.seats[seat.number]
        seat.net += part.net
        if part.status is SeatStatus.LEFT_OUT:
            seat.missed_windows += 1
        else:
            seat.missed_windows = 0
        if part.bet:
            seat.last_bet = part.bet  # the chip tray's Rebet, and the next round's bet
    rows.update_each(played, ["net", "missed_windows", "last_bet"])  # one statement for the table
    for seat in played:
        if seat.leaving or seat.missed_windows >= MAX_MISSED_WINDOWS:
            stand_up(seat, table.version + 1)
    # `seats` are all the seats taken, read under the table's lock: who is left is known.
    anyone = any(seat.player_id is not None for seat in seats)
    table.deadline = now + dt.timedelta(seconds=table.pause_seconds) if anyone else None


def record_history(table: Table, round_row: Round, engine: GameRound, seats: list[Seat], now: dt.datetime) -> None:
    """One RoundSeat per seat that played (placed a bet) in the settled round."""
    accounts = {seat.number: seat for seat in seats}
    staked: dict[int, int] = {}
    for event in engine.events:
        if event.chips < 0 and event.seat is not None:
            staked[event.seat] = staked.get(event.seat, 0) - event.chips
    records = []
    for result in engine.result().seats:
        if result.bet == 0:
            continue  # passed or left out: no hand played
        seat = accounts[result.seat]
        records.append(
            rows.new(
                RoundSeat,
                round_id=round_row.pk,
                table_id=table.pk,
                profile=round_row.profile,
                player_id=seat.player_id,
                account_id=seat.account_id,
                seat=result.seat,
                settled_at=now,
                stack_before=result.stack_before,
                stack_after=result.stack,
                net=result.net,
                bet=result.bet,
                staked=staked.get(result.seat, 0),
                insurance=result.insurance,
                hands=[hand.to_json() for hand in result.hands],
                result=SeatResult.WIN if result.net > 0 else SeatResult.LOSS if result.net < 0 else SeatResult.PUSH,
                blackjacks=sum(1 for hand in result.hands if hand.outcome == "blackjack"),
            )
        )
    rows.insert(records)
    if records:
        # Every decision priced, once the settlement is committed, off the table's path (reviews.py).
        transaction.on_commit(partial(reviews.schedule_review, round_row.pk))


def seat_account_for(seat: Seat, user: User, label: str) -> LedgerAccount:
    """The player's stack at this seat: the account they had here before when it is free and empty, else a new one.

    The table is locked, so nothing else moves chips into these accounts meanwhile.
    """
    found = rows.select(SeatAccount, "t0.seat_id = %s AND t0.player_id = %s", [seat.pk, user.pk], join=("account",))
    kept = found[0] if found else None
    if kept is not None and kept.account.balance == 0 and not Seat.objects.filter(account_id=kept.account_id).exists():
        return kept.account
    account = ledger.open_seat_account(user, label)
    if kept is None:
        SeatAccount.objects.create(seat=seat, player=user, account=account)
    else:
        kept.account = account
        kept.save(update_fields=["account"])
    return account


def stand_up(seat: Seat, version: int) -> None:
    """The player leaves: the stack goes back to the bankroll and the seat is free.

    `version` is the table version the change will commit as.
    """
    ledger.cash_out(seat_account=seat.account)
    seat.vacate(version=version)


# --- Deadlines and decisions ----------------------------------------------------------


def decision_key(engine: GameRound, seat: int, round_number: int) -> str | None:
    """What the seat is being asked now, or None; a new key is a new decision."""
    phase = engine.phase
    if phase is Phase.BETTING:
        return f"{round_number}:bet" if engine.can_pass_bet(seat) else None
    if phase is Phase.INSURANCE:
        part = engine.seats.get(seat)
        if part is not None and part.insurance_status is InsuranceStatus.PENDING:
            return f"{round_number}:insurance"
        return None
    turn = engine.to_act()
    if phase is Phase.PLAYERS and turn is not None and turn[0] == seat:
        # Every card, split and double of this seat is an event of its own, so
        # their count moves on with each of its decisions (a split included,
        # after which hand 0 has two cards again).
        return f"{round_number}:play:{turn[1]}:{_events_of(engine, seat)}"
    return None


def _events_of(engine: GameRound, seat: int) -> int:
    return sum(1 for event in engine.events if event.seat == seat)


def refresh_decisions(table: Table, round_row: Round | None, engine: GameRound | None, version: int) -> None:
    """Note the version at which each pending decision was first offered."""
    decisions: dict[str, list] = {}
    if round_row is not None and engine is not None:
        for seat in engine.seats:
            key = decision_key(engine, seat, round_row.number)
            if key is None:
                continue
            old = table.decisions.get(str(seat))
            decisions[str(seat)] = old if old and old[0] == key else [key, version]
    table.decisions = decisions


def decision_deadline(table: Table, engine: GameRound, before: tuple, now: dt.datetime) -> dt.datetime | None:
    """The deadline after an engine change; `before` is `timer_key(engine)` before it."""
    if not table.timed or engine.phase is Phase.SETTLED:
        return table.deadline
    if timer_key(engine) == before:
        return table.deadline  # the same window or decision: its clock runs on
    seconds = {
        Phase.BETTING: table.betting_seconds,
        Phase.INSURANCE: table.insurance_seconds,
        Phase.PLAYERS: table.decision_seconds,
    }[engine.phase]
    return now + dt.timedelta(seconds=seconds)


def timer_key(engine: GameRound) -> tuple:
    """What the table's clock is timing: the window, the insurance question, or one decision."""
    if engine.phase is Phase.PLAYERS:
        turn = engine.to_act()
        return (engine.phase, turn, _events_of(engine, turn[0]))
    return (engine.phase,)


def now() -> dt.datetime:
    return timezone.now()
