"""One version of a table as every viewer sees it, read from the database and the engine state.

`snapshot` reads it (three queries); `snapshot_of` builds it from rows a play
has just written, so that a process's viewers need no read of their own
(tables.live.frames). The dealer's hole card is replaced by a face-down card
until the engine says it was revealed, and neither the shoe nor its seed is
ever put into a view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from casino import rows
from tables.engine import EventKind, GameRound, Phase, SeatStatus
from tables.engine.hand import hand_value, is_natural
from tables.engine.state import InsuranceStatus
from tables.live.cards import CardView
from tables.live.chips import chips_elsewhere
from tables.live.narration import Narration, narrate_round
from tables.live.outcomes import hand_words
from tables.models import Round, Seat, Table

PHASE_LABELS = {
    Phase.BETTING: "Place your bets",
    Phase.INSURANCE: "Insurance?",
    Phase.PLAYERS: "Players' turn",
    Phase.SETTLED: "Round over",
}



def deadline_ms(moment: datetime | None) -> str | None:
    """A deadline as pages carry it (`data-deadline`): milliseconds since the epoch, 13 digits, not a 32-byte ISO date."""
    return str(round(moment.timestamp() * 1000)) if moment is not None else None

@dataclass(frozen=True)
class HandView:
    index: int
    cards: list[CardView]
    total: int
    soft: bool
    bet: int
    outcome: str | None
    # The settled hand in words with its chips ("Blackjack +15", "Bust -10"); "" until settled.
    result: str = ""


@dataclass
class SeatView:
    number: int
    player: str | None
    is_mine: bool
    # The table version at which the seat last changed hands: its forms (Sit here,
    # Leave table) carry it, so a click made before the seat changed is stale.
    changed_version: int = 0
    # "Move here" from the viewer's seat: valid against both seats' last changes.
    move_version: int = 0
    stack: int = 0
    # The seat's outstanding top-up (issue 14): repaid first when it cashes out.
    credit: int = 0
    net: int = 0
    bet: int = 0
    insurance: int = 0
    hands: list[HandView] = field(default_factory=list)
    status: str = ""
    leaving: bool = False
    in_round: bool = False
    # When the table stops waiting for this seat (its bet, its insurance answer,
    # its decision): the seat shows the countdown. None when nobody waits on it.
    deadline: str | None = None

    @property
    def staked(self) -> int:
        """The chips on the seat's hands: the bet, with doubles and splits added."""
        return sum(hand.bet for hand in self.hands) if self.hands else self.bet


@dataclass(frozen=True)
class TableState:
    """Everything about one version of a table that is the same for every viewer.

    Built once per version and shared by the viewers' frames (tables.live.frames):
    nothing in it may be changed after it is built.
    """

    table: Table
    version: int
    engine: GameRound | None
    round_id: int | None
    round_number: int | None
    seats: tuple[SeatView, ...]  # as a watcher sees them: nobody's seat is "mine"
    players: dict[int, int]  # seat number -> player id
    # The seated players' bankrolls as this version was read: their frames
    # need no query of their own. (A watcher's is read for each frame.)
    bankrolls: dict[int, int]
    dealer: list[CardView]
    dealer_total: int | None
    log: list[str]
    commitment: str | None
    rules: list[str]
    # The dealer's turned cards are a blackjack (shown as one, not as 21).
    dealer_natural: bool = False
    # The shoe in use (its commitment, in the table's Fairness section, links its verification page).
    shoe_id: int | None = None
    # (seat, hand) to act in the players' turn, and that player's name.
    turn: tuple[int, int] | None = None
    turn_name: str | None = None
    # Each seat's last round's bet (the next bet starts from it: the chip tray's Rebet).
    last_bets: dict[int, int] = field(default_factory=dict)
    # A settled round's result for each seat that bet: (net, any blackjack).
    results: dict[int, tuple[int, bool]] = field(default_factory=dict)
    # For each of `seats`, all its view was made from (`_seat_key`), or None:
    # the next version keeps the views of seats whose key is the same (`snapshot_of`).
    seat_keys: tuple = ()
    # The round's `log` as told so far: the next version goes on from it (`snapshot_of`).
    narration: Narration | None = None
    # The seated players' chips at other tables, as read with `bankrolls` (a version this process
    # wrote keeps them: its change moved chips at this table only) ...
    elsewhere: dict[int, int] = field(default_factory=dict)
    # ... and at every table, theirs here at this version included: the top bar's "at tables".
    at_tables: dict[int, int] = field(default_factory=dict)

    @property
    def phase(self) -> str:
        return str(self.engine.phase) if self.engine is not None else "idle"

    @property
    def phase_label(self) -> str:
        return PHASE_LABELS.get(self.engine.phase, "") if self.engine is not None else "Waiting for players"

    @property
    def playing(self) -> bool:
        return self.engine is not None and self.engine.phase is not Phase.SETTLED

    @property
    def free_seats(self) -> list[int]:
        return [seat.number for seat in self.seats if seat.player is None]


def snapshot(table_id: int) -> TableState:
    """The table as it stands, for every viewer: three queries and the engine state."""
    # SQL built once (casino.rows): a process reads every version it did not write itself.
    found = rows.select(Table, "t0.id = %s", [table_id], join=("current_round", "current_round__shoe"))
    if not found:
        raise Table.DoesNotExist(f"No table {table_id}.")
    table = found[0]
    seats = rows.select(Seat, "t0.table_id = %s", [table_id], join=("player", "account"), order_by="t0.number")
    round_row = table.current_round
    seated = [seat for seat in seats if seat.player_id]
    bankrolls, elsewhere = chips_elsewhere(table_id, {seat.player_id for seat in seated})
    return snapshot_of(
        table,
        seated,
        {seat.number: seat.changed_version for seat in seats if not seat.player_id},
        round_row,
        GameRound.from_json(round_row.state) if round_row is not None else None,
        bankrolls=bankrolls,
        elsewhere=elsewhere,
        commitment=round_row.shoe.commitment if round_row is not None else None,
    )


def snapshot_of(
    table: Table,
    seated: list[Seat],
    free: dict[int, int],
    round_row: Round | None,
    engine: GameRound | None,
    *,
    bankrolls: dict[int, int],
    commitment: str | None,
    elsewhere: dict[int, int] | None = None,
    names: dict[int, str] | None = None,
    previous: TableState | None = None,
) -> TableState:
    """A TableState from rows already read: the seated players' seats (with accounts).

    `free` maps each free seat's number to the version at which it last changed hands.

    `names` (seat number -> username) is read from the seats' players when not given.

    `elsewhere` (user id -> chips at other tables, tables.live.chips) with the
    seats' stacks here makes each seated player's chips at every table.

    `previous` (a version before, tables.live.frames.offer): the views of its
    seats made from all the same (`_seat_key`) are kept, not made again, its
    rules in words when the profile is the same, and its round's log goes on.
    """
    if names is None:
        names = {seat.number: seat.player.username for seat in seated}
    # The log names the round's players as the round started: a player who left keeps their name.
    played = {int(number): name for number, name in round_row.names.items()} if round_row is not None else {}
    turn = engine.to_act() if engine is not None else None
    deadline = deadline_ms(table.deadline)
    by_number = {seat.number: seat for seat in seated}
    kept = dict(zip(previous.seat_keys, previous.seats)) if previous is not None else {}
    kept.pop(None, None)
    views, keys = [], []
    for n in sorted([*by_number, *free]):
        if n in by_number:
            key = _seat_key(by_number[n], names[n], engine, deadline)
            view = kept.get(key) if key is not None else None
            if view is None:
                view = _seat_view(by_number[n], names[n], engine, deadline)
        else:
            key = (n, free[n])
            view = kept.get(key) or SeatView(number=n, player=None, is_mine=False, changed_version=free[n])
        views.append(view)
        keys.append(key)
    elsewhere = elsewhere or {}
    at_tables = dict(elsewhere)
    for seat in seated:
        if seat.account_id is not None:
            at_tables[seat.player_id] = at_tables.get(seat.player_id, 0) + seat.account.balance
    dealer, dealer_total = _dealer(engine)
    narration = None
    if engine is not None:
        same_round = previous is not None and round_row is not None and previous.round_id == round_row.pk
        narration = narrate_round(engine, names | played, previous.narration if same_round else None)
    return TableState(
        table=table,
        version=table.version,
        engine=engine,
        round_id=round_row.pk if round_row is not None else None,
        round_number=round_row.number if round_row is not None else None,
        seats=tuple(views),
        seat_keys=tuple(keys),
        players={seat.number: seat.player_id for seat in seated},
        bankrolls=bankrolls,
        elsewhere=elsewhere,
        at_tables=at_tables,
        dealer=dealer,
        dealer_total=dealer_total,
        dealer_natural=engine is not None and engine.hole_revealed and is_natural(engine.dealer.cards),
        log=list(narration.lines) if narration is not None else [],
        narration=narration,
        commitment=commitment,
        shoe_id=round_row.shoe_id if round_row is not None else None,
        # The profile's rules in words: the same for every version of a table of one profile.
        rules=(
            previous.rules
            if previous is not None and previous.table.profile == table.profile
            else table.rules.rule_lines()
        ),
        turn=tuple(turn) if turn is not None and engine.phase is Phase.PLAYERS else None,
        turn_name=names.get(turn[0]) if turn is not None else None,
        last_bets={seat.number: seat.last_bet for seat in seated},
        results=_results(engine),
    )


def _results(engine: GameRound | None) -> dict[int, tuple[int, bool]]:
    if engine is None or engine.phase is not Phase.SETTLED:
        return {}
    return {
        number: (part.net, any(hand.outcome == "blackjack" for hand in part.hands))
        for number, part in engine.seats.items()
        if part.bet
    }


def _seat_key(seat: Seat, player: str, engine: GameRound | None, deadline: str | None) -> tuple | None:
    """All `_seat_view` makes the seat's view from, as one value; None for a seat with a settled hand.

    Two versions whose key for a seat is equal show it alike: the next one keeps
    the view. (A settled hand's words depend on the round's events and the
    dealer's cards too: such a seat's view is made anew.)
    """
    account = seat.account if seat.account_id else None
    row = (
        seat.number, player, seat.player_id, seat.changed_version, seat.net, seat.leaving,
        account.balance if account is not None else 0, account.credit if account is not None else 0,
    )
    part = engine.seats.get(seat.number) if engine is not None and seat.player_id else None
    if part is None:
        return (row, engine is not None)
    hands = []
    for hand in part.hands:
        if hand.outcome:
            return None
        hands.append((tuple(hand.cards), hand.bet))
    return (
        row, engine.phase, deadline if _waited_on(engine, part) else None,
        part.stack, part.bet, part.insurance, part.status, part.insurance_status, tuple(hands),
    )


def _waited_on(engine: GameRound, part) -> bool:
    """Whether the table waits for this seat of the round (its bet, its insurance answer): its countdown shows."""
    return (engine.phase is Phase.BETTING and part.status is SeatStatus.WAITING) or (
        engine.phase is Phase.INSURANCE and part.insurance_status is InsuranceStatus.PENDING
    )


def _seat_view(seat: Seat, player: str, engine: GameRound | None, deadline: str | None) -> SeatView:
    """An occupied seat, as a watcher sees it; `deadline` is the table's next one."""
    view = SeatView(
        number=seat.number,
        player=player,
        is_mine=False,
        changed_version=seat.changed_version,
        stack=seat.account.balance if seat.account_id else 0,
        credit=seat.account.credit if seat.account_id else 0,
        net=seat.net,
        leaving=seat.leaving,
    )
    part = engine.seats.get(seat.number) if engine is not None and seat.player_id else None
    if part is None:
        view.status = "waiting for the next round" if seat.player_id and engine is not None else ""
        return view
    view.in_round = True
    view.stack = part.stack
    # view.net stays seat.net: the settled rounds' result; a stake still on the
    # table is shown as the bet, not yet as a loss.
    view.bet = part.bet
    view.insurance = part.insurance
    view.status = {
        SeatStatus.WAITING: "betting…",
        SeatStatus.PASSED: "sits this round out",
        SeatStatus.LEFT_OUT: "missed the betting window",
        SeatStatus.BETTING: "",
    }[part.status]
    if engine.phase is Phase.INSURANCE and part.insurance_status is InsuranceStatus.PENDING:
        view.status = "deciding on insurance…"
    # Whose turn it is lives in its own piece (TableState.turn), so a seat's
    # HTML changes only with its own cards, stakes and status.
    view.deadline = deadline if _waited_on(engine, part) else None
    paid = _paid(engine, seat.number) if any(hand.outcome for hand in part.hands) else {}
    dealer_blackjack = engine.hole_revealed and is_natural(engine.dealer.cards)
    view.hands = [
        HandView(
            index=i,
            cards=[CardView(card) for card in hand.cards],
            total=hand.total,
            soft=hand.soft,
            bet=hand.bet,
            outcome=hand.outcome,
            result=hand_words(hand.outcome, paid.get(i, 0) - hand.bet, dealer_blackjack=dealer_blackjack)
            if hand.outcome
            else "",
        )
        for i, hand in enumerate(part.hands)
    ]
    return view


def _paid(engine: GameRound, seat: int) -> dict[int, int]:
    """The chips each of the seat's settled hands paid back."""
    return {
        event.hand: event.chips
        for event in engine.events
        if event.kind is EventKind.SETTLE and event.seat == seat
    }


def _dealer(engine: GameRound | None) -> tuple[list[CardView], int | None]:
    if engine is None or not engine.dealer.cards:
        return [], None
    cards = engine.dealer.cards
    if engine.hole_revealed:
        return [CardView(card) for card in cards], engine.dealer.total
    # DESIGN.md: nothing hidden leaves the server; the hole card is a back.
    shown = [CardView(cards[0])]
    if len(cards) > 1:
        shown.append(CardView("??", face_up=False))
    return shown, hand_value(cards[:1])[0]


