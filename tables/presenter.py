"""What one viewer sees of a table: built from the database and the engine state.

This is the only road from the engine's state to HTML. The dealer's hole card
is replaced by a face-down card until the engine says it was revealed, and
neither the shoe nor its seed is ever put into a view.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from django.conf import settings
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from accounts.models import AccountKind, LedgerAccount, User
from tables import rounds
from tables.engine import InsuranceRule
from tables.engine import Event, EventKind, Phase, Round as EngineRound, SeatStatus
from tables.engine.hand import hand_value
from tables.engine.state import InsuranceStatus
from tables.models import Round, Seat, Table

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_NAMES = {"A": "ace", "T": "ten", "J": "jack", "Q": "queen", "K": "king"}
ACTION_LABELS = {
    "bet": "Deal",
    "pass": "Pass",
    "insurance": "Insurance",
    "decline_insurance": "No insurance",
    "hit": "Hit",
    "stand": "Stand",
    "double": "Double",
    "split": "Split",
    "surrender": "Surrender",
}
# The engine's action names, as the buttons send them (tables.services.ACTIONS).
ACTION_NAMES = {"decline_insurance": "no_insurance"}
SHORTCUTS = {"bet": "d", "pass": "p", "insurance": "i", "decline_insurance": "n", "hit": "h",
             "stand": "s", "double": "x", "split": "t", "surrender": "r"}
PHASE_LABELS = {
    Phase.BETTING: "Place your bets",
    Phase.INSURANCE: "Insurance?",
    Phase.PLAYERS: "Players' turn",
    Phase.SETTLED: "Round over",
}


@dataclass(frozen=True)
class CardView:
    code: str  # "AH"; "??" for a face-down card
    face_up: bool = True

    @property
    def rank(self) -> str:
        return "10" if self.code[0] == "T" else self.code[0]

    @property
    def suit(self) -> str:
        return SUIT_SYMBOLS.get(self.code[1], "")

    @property
    def red(self) -> bool:
        return self.code[1] in "HD"

    @property
    def label(self) -> str:
        if not self.face_up:
            return "face-down card"
        rank = RANK_NAMES.get(self.code[0], self.code[0])
        return f"{rank} of {SUIT_NAMES[self.code[1]]}"

    @property
    def html(self) -> SafeString:
        """The card as the pages draw it. Made here, not by a template include: a table frame draws dozens."""
        if not self.face_up:
            return mark_safe('<span class="card back" role="img" aria-label="face-down card" data-card="hidden"></span>')
        return format_html(
            '<span class="card{}" role="img" aria-label="{}" data-card="{}">{}{}</span>',
            " red" if self.red else "",
            self.label,
            self.code,
            self.rank,
            self.suit,
        )


@dataclass(frozen=True)
class HandView:
    index: int
    cards: list[CardView]
    total: int
    soft: bool
    bet: int
    outcome: str | None
    is_turn: bool


@dataclass
class SeatView:
    number: int
    player: str | None
    is_mine: bool
    stack: int = 0
    net: int = 0
    bet: int = 0
    insurance: int = 0
    hands: list[HandView] = field(default_factory=list)
    status: str = ""
    is_turn: bool = False
    leaving: bool = False
    in_round: bool = False


@dataclass(frozen=True)
class Control:
    """One seat's decision for the viewer: its buttons and, for bets, the amounts allowed."""

    seat: int
    hand: int
    actions: list[tuple[str, str, str]]  # (name sent, label, keyboard shortcut)
    bet_min: int = 0
    bet_max: int = 0
    bet_default: int = 0
    amount_max: int = 0
    # Where the player picks the amount (internet: insurance 1..bet/2, double for less).
    amount_label: str | None = None
    # The field's id names the decision (e.g. "double-r12-s3-h0"), so a
    # stake typed for one decision is never carried into another.
    amount_id: str = ""
    note: str = ""


@dataclass
class TableView:
    table: Table
    version: int
    phase: str
    phase_label: str
    round_number: int | None
    dealer: list[CardView]
    dealer_total: int | None
    seats: list[SeatView]
    controls: list[Control]
    free_seats: list[int]
    my_seats: list[int]
    can_sit: bool
    can_change_seat: bool
    deadline: str | None
    log: list[str]
    commitment: str | None
    rules: list[str]
    default_buy_in: int
    bankroll: int | None


@dataclass(frozen=True)
class TableState:
    """Everything about one version of a table that is the same for every viewer.

    Built once per version and shared by the viewers' frames (tables.frames):
    nothing in it may be changed after it is built.
    """

    table: Table
    version: int
    engine: EngineRound | None
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
    table = Table.objects.select_related("current_round__shoe").get(pk=table_id)
    seats = list(table.seats.select_related("player", "account").order_by("number"))
    round_row = table.current_round
    seated = [seat for seat in seats if seat.player_id]
    return snapshot_of(
        table,
        seated,
        [seat.number for seat in seats],
        round_row,
        rounds.load(round_row) if round_row is not None else None,
        bankrolls=_bankrolls({seat.player_id for seat in seated}),
        commitment=round_row.shoe.commitment if round_row is not None else None,
    )


def snapshot_of(
    table: Table,
    seated: list[Seat],
    numbers: list[int],
    round_row: Round | None,
    engine: EngineRound | None,
    *,
    bankrolls: dict[int, int],
    commitment: str | None,
    names: dict[int, str] | None = None,
) -> TableState:
    """A TableState from rows already read: the seated players' seats (with accounts).

    `names` (seat number -> username) is read from the seats' players when not given.
    """
    if names is None:
        names = {seat.number: seat.player.username for seat in seated}
    turn = engine.to_act() if engine is not None else None
    by_number = {seat.number: seat for seat in seated}
    dealer, dealer_total = _dealer(engine)
    return TableState(
        table=table,
        version=table.version,
        engine=engine,
        round_id=round_row.pk if round_row is not None else None,
        round_number=round_row.number if round_row is not None else None,
        seats=tuple(
            _seat_view(by_number[n], names[n], engine, turn)
            if n in by_number
            else SeatView(number=n, player=None, is_mine=False)
            for n in numbers
        ),
        players={seat.number: seat.player_id for seat in seated},
        bankrolls=bankrolls,
        dealer=dealer,
        dealer_total=dealer_total,
        log=_log(engine, names) if engine is not None else [],
        commitment=commitment,
        rules=rounds.rules_of(table).describe(),
    )


def build(table_id: int, viewer: User | None) -> TableView:
    state = snapshot(table_id)
    who = viewer_id(viewer)
    return view_for(state, who, bankroll_in(state, who))


def view_for(state: TableState, user_id: int | None, bankroll_chips: int | None) -> TableView:
    """One viewer's table: their seats, their buttons, their bankroll. No queries."""
    table = state.table
    my_seats = [number for number, player in state.players.items() if user_id is not None and player == user_id]
    free = state.free_seats
    can_sit = user_id is not None and bool(free) and (table.owner_id in (None, user_id))
    if can_sit and my_seats and table.profile != "rocket-academy":
        can_sit = False
    seats = [replace(seat, is_mine=True) if seat.number in my_seats else seat for seat in state.seats]
    engine = state.engine
    return TableView(
        table=table,
        version=state.version,
        phase=state.phase,
        phase_label=state.phase_label,
        round_number=state.round_number,
        dealer=state.dealer,
        dealer_total=state.dealer_total,
        seats=seats,
        controls=_controls(table, engine, sorted(my_seats), state.round_number) if engine is not None else [],
        free_seats=free,
        my_seats=sorted(my_seats),
        can_sit=can_sit,
        can_change_seat=bool(my_seats) and bool(free) and not state.playing and table.seat_count > 1,
        deadline=table.deadline.isoformat() if table.deadline else None,
        log=state.log,
        commitment=state.commitment,
        rules=state.rules,
        default_buy_in=settings.DEFAULT_BUY_IN_CHIPS,
        bankroll=bankroll_chips,
    )


def bankroll_in(state: TableState, user_id: int | None) -> int | None:
    """The viewer's bankroll: as read with the table if they sit at it, else read now."""
    if user_id in state.bankrolls:
        return state.bankrolls[user_id]
    return bankroll(user_id)


def viewer_id(viewer: User | None) -> int | None:
    return viewer.pk if viewer is not None and viewer.is_authenticated else None


def _bankrolls(user_ids: set[int]) -> dict[int, int]:
    if not user_ids:
        return {}
    rows = LedgerAccount.objects.filter(kind=AccountKind.BANKROLL, user_id__in=user_ids)
    return dict(rows.values_list("user_id", "balance"))


def bankroll(user_id: int | None) -> int | None:
    if user_id is None:
        return None
    return (
        LedgerAccount.objects.filter(kind=AccountKind.BANKROLL, user_id=user_id)
        .values_list("balance", flat=True)
        .first()
    )


def _seat_view(seat: Seat, player: str, engine: EngineRound | None, turn) -> SeatView:
    """An occupied seat, as a watcher sees it."""
    view = SeatView(
        number=seat.number,
        player=player,
        is_mine=False,
        stack=seat.account.balance if seat.account_id else 0,
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
    view.is_turn = turn is not None and turn[0] == seat.number
    view.hands = [
        HandView(
            index=i,
            cards=[CardView(card) for card in hand.cards],
            total=hand.total,
            soft=hand.soft,
            bet=hand.bet,
            outcome=hand.outcome,
            is_turn=view.is_turn and turn[1] == i,
        )
        for i, hand in enumerate(part.hands)
    ]
    return view


def _dealer(engine: EngineRound | None) -> tuple[list[CardView], int | None]:
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


def _controls(table: Table, engine: EngineRound, my_seats: list[int], round_number: int) -> list[Control]:
    controls = []
    for number in my_seats:
        part = engine.seats.get(number)
        if part is None:
            continue
        hand = 0
        turn = engine.to_act()
        if engine.phase is Phase.PLAYERS:
            if turn is None or turn[0] != number:
                continue
            hand = turn[1]
        legal = engine.legal_actions(number, hand)
        if not legal:
            continue
        actions = [(ACTION_NAMES.get(a, a), ACTION_LABELS[a], SHORTCUTS[a]) for a in _ordered(legal)]
        if engine.phase is Phase.BETTING:
            top = min(part.stack, table.max_bet)
            if top < table.min_bet:
                # Not empty, so no top-up (DESIGN.md: below 1 chip), yet too short to bet.
                note = (
                    f"Your stack of {part.stack} is below the minimum bet of {table.min_bet}: "
                    "pass, or leave the table and buy in again."
                )
                passing = [action for action in actions if action[0] == "pass"]
                controls.append(Control(number, 0, passing, note=note))
            else:
                default = min(max(table.min_bet, 10), top)
                controls.append(Control(number, 0, actions, bet_min=table.min_bet, bet_max=top, bet_default=default))
        else:
            rules = engine.rules
            amount_max, label, kind = 0, None, ""
            if "insurance" in legal and rules.insurance is InsuranceRule.UP_TO_HALF:
                amount_max, label, kind = min(part.bet // 2, part.stack), "Insurance stake", "insurance"
            elif "double" in legal and rules.double_for_less:
                amount_max, label, kind = min(part.hands[hand].bet, part.stack), "Double for", "double"
            amount_id = f"{kind}-r{round_number}-s{number}-h{hand}" if kind else ""
            controls.append(
                Control(number, hand, actions, amount_max=amount_max, amount_label=label, amount_id=amount_id)
            )
    return controls


def _ordered(legal: tuple[str, ...]) -> list[str]:
    order = list(ACTION_LABELS)
    return sorted(legal, key=order.index)


def _log(engine: EngineRound, names: dict[int, str]) -> list[str]:
    lines: list[str] = []
    dealer_cards = 0
    awaits_card = False  # the last line was a hit, double or split: its card joins it
    for event in engine.events:
        if event.kind is EventKind.DEAL_CARD:
            if event.seat is None:
                dealer_cards += 1
                if dealer_cards == 1:
                    lines.append(f"Dealer shows {CardView(event.card).label}.")
                    continue
            elif awaits_card:
                lines[-1] = f"{lines[-1][:-1]}: {CardView(event.card).label}."
                awaits_card = False
                continue
        line = describe(event, names)
        if line:
            lines.append(line)
            awaits_card = event.kind in (EventKind.HIT, EventKind.DOUBLE, EventKind.SPLIT)
    return lines[-14:]


def _who(seat: int | None, names: dict[int, str]) -> str:
    return names.get(seat, f"Seat {seat}") if seat is not None else "Dealer"


def describe(event: Event, names: dict[int, str]) -> str | None:
    """One event in words, or None for events the log leaves out. Never names a hidden card."""
    who = _who(event.seat, names)
    by_timer = " (time ran out)" if event.actor == "timer" else ""
    kind = event.kind
    if kind is EventKind.BET:
        return f"{who} bets {-event.chips}."
    if kind is EventKind.PASS:
        return f"{who} passes."
    if kind is EventKind.LEFT_OUT:
        return f"{who} missed the betting window."
    if kind is EventKind.DEAL_CARD:
        if event.seat is None:
            return f"Dealer {'draws' if event.face_up else 'takes the hole card'}{'' if not event.face_up else ' ' + CardView(event.card).label}."
        return None
    if kind is EventKind.INSURANCE_TAKEN:
        return f"{who} takes insurance for {-event.chips}."
    if kind is EventKind.INSURANCE_DECLINED:
        return f"{who} declines insurance{by_timer}."
    if kind is EventKind.PEEK:
        return "Dealer checks for blackjack: " + ("blackjack!" if event.outcome == "blackjack" else "no blackjack.")
    if kind in (EventKind.HIT, EventKind.STAND, EventKind.SPLIT, EventKind.SURRENDER):
        verb = {EventKind.HIT: "hits", EventKind.STAND: "stands", EventKind.SPLIT: "splits", EventKind.SURRENDER: "surrenders"}[kind]
        return f"{who} {verb}{by_timer}."
    if kind is EventKind.DOUBLE:
        return f"{who} doubles for {-event.chips}."
    if kind is EventKind.HOLE_CARD_REVEALED:
        return f"Dealer turns the hole card: {CardView(event.card).label}."
    if kind is EventKind.SHOE_RESHUFFLED:
        return "The deck ran out: the cards not on the table are reshuffled."
    if kind is EventKind.INSURANCE_SETTLED:
        return f"{who}'s insurance {'pays ' + str(event.chips) if event.chips else 'loses'}."
    if kind is EventKind.SETTLE:
        outcome = event.outcome or ""
        paid = f", {event.chips} back" if event.chips else ""
        return f"{who}, hand {event.hand + 1}: {outcome}{paid}."
    if kind is EventKind.ROUND_SETTLED:
        return "Round over."
    return None
