"""The buttons one viewer gets: for each of their seats with a decision open, the legal actions and amounts."""

from __future__ import annotations

from dataclasses import dataclass

from tables.engine import BY_NAME, ActionSpec, GameRound, Phase
from tables.live.state import deadline_ms
from tables.models import Table

# Where a player picks a stake, by action (the engine's range says whether there is a choice).
AMOUNT_LABELS = {"insurance": "Insurance stake", "double": "Double for"}


@dataclass(frozen=True)
class Control:
    """One seat's decision for the viewer: its buttons and, for bets, the amounts allowed.

    Hashable: a viewer's decisions are the key of their buttons' HTML (tables.live.pieces).
    """

    seat: int
    hand: int
    actions: tuple[ActionSpec, ...]  # the buttons, from the registry: name sent, label, keyboard shortcut
    bet_min: int = 0
    bet_max: int = 0
    bet_default: int = 0
    amount_min: int = 0
    amount_max: int = 0
    # Where the player picks the amount (internet: insurance 1..bet/2, double for less).
    amount_label: str | None = None
    # The field's id names the decision (e.g. "double-r12-s3-h0"), so a
    # stake typed for one decision is never carried into another.
    amount_id: str = ""
    note: str = ""
    # The version at which this decision was first offered: the form sends it,
    # and it stays valid while others play (tables.play.services.check_not_stale).
    version: int = 0
    # When the table answers for the player (RULES.md timers): the action bar's countdown.
    deadline: str | None = None
    # The chip tray (static/js/table.js builds its buttons): the chips the table's limits allow,
    # and the seat's last bet for Rebet (0: none yet).
    chips: str = ""
    rebet: int = 0

# The chip tray's denominations.
CHIPS = (1, 5, 25, 100, 500)


def controls_for(
    table: Table, engine: GameRound, my_seats: list[int], round_number: int, last_bets: dict[int, int] | None = None
) -> list[Control]:
    """`last_bets`: each seat's last round's bet, where the next bet starts (Seat.last_bet)."""
    last_bets = last_bets or {}
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
        actions = tuple(BY_NAME[name] for name in legal)
        decision = table.decisions.get(str(number))
        version = decision[1] if decision else table.version
        deadline = deadline_ms(table.deadline)
        if engine.phase is Phase.BETTING:
            stakes = engine.bet_range(number)
            if stakes is None:
                # Not empty, so no top-up (DESIGN.md: below 1 chip), yet too short to bet: pass only.
                note = (
                    f"Your stack of {part.stack} is below the minimum bet of {table.min_bet}: "
                    "pass, or leave the table and buy in again."
                )
                controls.append(Control(number, 0, actions, note=note, version=version, deadline=deadline))
            else:
                last = last_bets.get(number, 0)
                default = engine.default_bet(number, last or table.default_bet)
                controls.append(
                    Control(
                        number, 0, actions, bet_min=stakes.start, bet_max=stakes[-1], bet_default=default,
                        version=version, deadline=deadline,
                        chips=" ".join(str(chip) for chip in CHIPS if chip <= stakes[-1]),
                        rebet=engine.default_bet(number, last) if last else 0,
                    )
                )
            continue
        # A stake the player may choose (internet: insurance up to half the bet, double for less).
        for name, label in AMOUNT_LABELS.items():
            stakes = engine.amount_range(name, seat=number, hand=hand) if name in legal else None
            if stakes is not None and len(stakes) > 1:
                controls.append(
                    Control(
                        number, hand, actions, amount_min=stakes.start, amount_max=stakes[-1], amount_label=label,
                        amount_id=f"{name}-r{round_number}-s{number}-h{hand}", version=version, deadline=deadline,
                    )
                )
                break
        else:
            controls.append(Control(number, hand, actions, version=version, deadline=deadline))
    return controls

