"""The queries of a round's other plays, pinned: the stand that settles it and the window that opens the next.

(A bet's and a hit's are pinned in test_play.py.) On SQLite; PostgreSQL reads
the locked table's round with a query of its own (services._lock).
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables.models import Table
from tables.play import services
from tests.tables.conftest import seat_and_bet

pytestmark = pytest.mark.django_db

ROUND_READ = 1 if connection.features.has_select_for_update else 0


def version(table) -> int:
    table.refresh_from_db()
    return table.version


@pytest.fixture
def two_lose(multi_table, alice, bob, rig):
    """alice (seat 1) and bob (seat 2) bet; both stand on 16 against the dealer's 20; a fresh shoe comes next."""
    rig(["TS", "9H", "TC", "6D", "7S", "KD"], ["TS", "9H", "TC", "6D", "7S", "KD"])
    seat_and_bet(multi_table, alice, bob)
    services.do_act(multi_table.pk, alice, "stand", seat=1, version=version(multi_table))
    return multi_table


def show(queries) -> str:
    return "\n".join(query["sql"][:120] for query in queries)


def test_the_stand_that_settles_a_round_takes_a_pinned_number_of_queries(two_lose, bob):
    current = version(two_lose)
    # The savepoint (BEGIN outside tests); lock the table (with its round on
    # SQLite); the seated players; write the round; the history rows (one
    # statement); the seats' results (one statement for the table); write the
    # table; release. No payout: both lost; no credit to cap: nobody holds any.
    # (It was 11 before issue 12: the seats read again, a credit cap, a result per seat.)
    with CaptureQueriesContext(connection) as queries:
        services.do_act(two_lose.pk, bob, "stand", seat=2, version=current)
    assert len(queries) == 8 + ROUND_READ, show(queries)


def test_opening_the_next_window_takes_a_pinned_number_of_queries(two_lose, bob, carol):
    services.do_act(two_lose.pk, bob, "stand", seat=2, version=version(two_lose))
    services.do_sit(two_lose.pk, carol, 3)
    Table.objects.filter(pk=two_lose.pk).update(deadline=services.timezone.now())
    current = version(two_lose)
    # Is it due (a plain read); the savepoint; lock the table (with its round
    # on SQLite); the seated players, with their stacks; the round's row with
    # its state; write the table; release. The shoe goes on (the rigged one
    # has cards left, so no new one); three seats, none of them empty: no
    # top-up, and no stack read again. (It was 16 before issue 12: each stack
    # read twice more, the rounds' last number, the shoe's row; 8 until the
    # round's row was written with its state.)
    with CaptureQueriesContext(connection) as queries:
        assert services.do_expire(two_lose.pk, current) is not None
    assert len(queries) == 7 + ROUND_READ, show(queries)

