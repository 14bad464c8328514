"""The player's own limits at the table (issue 14): the check every play passes, inside its transaction."""

from __future__ import annotations

import datetime as dt

from accounts import limits, pauses
from accounts.models import User
from tables.play.errors import RealityCheck, TableError


def check_limits(player: User, action: str, staked: int, now: dt.datetime) -> None:
    """Issue 14: a break, a loss limit, the session time or a due reality check may refuse the play.

    Called after the engine made it, before anything is written: the refusal
    (a TableError) undoes it with the rest of the transaction.
    """
    if pauses.is_paused(player, now):
        raise TableError(f"You are taking a break until {pauses.until_words(player)}.", "paused")
    try:
        limits.check_stake(
            limits.limits_of_player(player), player.pk, new_bet=action == "bet", stake=staked, now=now
        )
    except limits.RealityCheckDue as due:
        raise RealityCheck(due.message, due.minutes, due.net) from None
    except limits.LimitRefused as refusal:
        raise TableError(refusal.message, refusal.code) from None
