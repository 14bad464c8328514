"""Stopping play (issue 14): Stop playing at a reality check, and a break or self-exclusion."""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from tables.models import Seat
from tables.play.errors import TableError
from tables.play.services import do_leave, do_play_out


def do_stop_playing(user: User) -> int:
    """Leave every seat of the player's, cashing out after the round; returns how many seats they held."""
    seats = list(Seat.objects.filter(player=user).values_list("table_id", "number"))
    for table_id, number in seats:
        try:
            do_leave(table_id, user, number)
        except TableError:
            pass  # already leaving when its round ends
        do_play_out(table_id)
    return len(seats)


def on_pause_taken(sender: object, user: User, **kwargs: object) -> None:
    """A receiver of accounts.pauses.pause_taken: the player's seats leave once the pause is committed."""
    transaction.on_commit(lambda: do_stop_playing(user))
