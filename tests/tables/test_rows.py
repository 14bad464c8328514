"""casino.rows: the statements a play repeats, built once, give and take what the ORM would."""

from __future__ import annotations

import datetime as dt
import json
from contextlib import contextmanager

import pytest
from django.db.models.signals import post_init
from django.utils import timezone

from accounts.models import LedgerAccount, Transfer, TransferKind
from casino import rows, sql
from tables.models import Round, RoundSeat, Seat, Shoe, Table
from tables.play import services
from tests.tables.conftest import make_table, open_next_window

pytestmark = pytest.mark.django_db


def fields_of(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields}


def test_it_reads_rows_and_their_joins_as_the_orm_does(multi_table, alice, bob):
    services.do_sit(multi_table.pk, alice, 1)
    services.do_sit(multi_table.pk, bob, 3)
    open_next_window(multi_table)

    seats = rows.select(Seat, "t0.table_id = %s", [multi_table.pk], join=("account", "player"), order_by="t0.number")
    expected = list(Seat.objects.filter(table=multi_table).select_related("account", "player").order_by("number"))

    assert [fields_of(seat) for seat in seats] == [fields_of(seat) for seat in expected]
    assert [fields_of(seat.account) for seat in seats[:1]] == [fields_of(expected[0].account)]
    assert seats[2].player.username == "bob" and seats[2].account.balance == expected[2].account.balance
    # A free seat's foreign keys load as None, without a query.
    assert seats[1].account is None and seats[1].player is None
    (table,) = rows.select(Table, "t0.id = %s", [multi_table.pk], join=("current_round",))
    assert fields_of(table) == fields_of(Table.objects.get(pk=multi_table.pk))
    assert table.current_round.state == multi_table.rounds.get().state  # JSON, decoded
    assert isinstance(table.deadline, dt.datetime) and table.deadline.tzinfo is not None


def test_it_finds_nothing_for_a_row_that_is_not_there(db):
    assert rows.select(Table, "t0.id = %s", [12345]) == []


def test_it_writes_the_fields_it_is_given_and_no_others(multi_table):
    table = Table.objects.get(pk=multi_table.pk)
    table.version = 41
    table.deadline = timezone.now() + dt.timedelta(seconds=5)
    table.decisions = {"1": ["3:bet", 40]}
    table.name = "not written"

    assert rows.update(table, ["version", "deadline", "decisions"]) == 1

    stored = Table.objects.get(pk=multi_table.pk)
    assert (stored.version, stored.deadline, stored.decisions) == (41, table.deadline, {"1": ["3:bet", 40]})
    assert stored.name == multi_table.name


def test_it_writes_several_rows_each_its_own_values_in_one_statement(multi_table, django_assert_num_queries):
    seats = list(Seat.objects.filter(table=multi_table).order_by("number"))[:3]
    for n, seat in enumerate(seats):
        seat.net, seat.missed_windows, seat.last_bet, seat.leaving = -5 * n, n, 10 + n, True

    with django_assert_num_queries(1):
        assert rows.update_each(seats, ["net", "missed_windows", "last_bet"]) == 3

    stored = list(Seat.objects.filter(table=multi_table).order_by("number"))
    assert [(s.net, s.missed_windows, s.last_bet) for s in stored[:3]] == [(0, 0, 10), (-5, 1, 11), (-10, 2, 12)]
    assert not any(s.leaving for s in stored)  # not among the fields written
    assert (stored[3].net, stored[3].last_bet) == (0, 0)  # not among the rows written


def test_a_typed_value_of_a_plain_field_goes_the_orm_s_way(multi_table):
    table = Table.objects.get(pk=multi_table.pk)
    table.version = "12"  # not an int: converted by the field, as the ORM's save would
    rows.update(table, ["version"])
    assert Table.objects.get(pk=multi_table.pk).version == 12


@pytest.mark.ledger_broken  # transfers written as rows, without the balances the ledger keeps with them
def test_it_inserts_several_rows_in_one_statement(alice, bob, django_assert_num_queries):
    one = LedgerAccount.objects.get(user=alice)
    two = LedgerAccount.objects.get(user=bob)
    made = [
        Transfer(source_id=one.pk, destination_id=two.pk, amount=5, kind=TransferKind.PAYOUT, reason="a"),
        Transfer(source_id=two.pk, destination_id=one.pk, amount=7, kind=TransferKind.PAYOUT, reason="b"),
    ]
    with django_assert_num_queries(1):
        rows.insert(made)

    stored = list(Transfer.objects.filter(reason__in=["a", "b"]).order_by("reason"))
    assert [(t.source_id, t.destination_id, t.amount) for t in stored] == [(one.pk, two.pk, 5), (two.pk, one.pk, 7)]
    assert all(t.created_at is not None for t in stored)  # auto_now_add filled in, as the ORM does


def test_a_second_table_reads_with_the_same_statement(db, django_assert_num_queries):
    first, second = make_table(name="one"), make_table(name="two")
    rows.select(Table, "t0.id = %s", [first.pk])
    with django_assert_num_queries(1):
        (found,) = rows.select(Table, "t0.id = %s", [second.pk])
    assert found.name == "two"


def test_it_follows_a_reverse_one_to_one_as_select_related_does(multi_table, alice, bob):
    from accounts import limits
    from accounts.models import PlayLimits

    PlayLimits.objects.create(user=alice, loss_day=50)
    services.do_sit(multi_table.pk, alice, 1)
    services.do_sit(multi_table.pk, bob, 2)

    seats = rows.select(
        Seat, "t0.table_id = %s AND t0.player_id IS NOT NULL", [multi_table.pk],
        join=("account", "player", "player__play_limits"), order_by="t0.number",
    )

    assert limits.limits_of_player(seats[0].player).loss_day == 50
    assert limits.limits_of_player(seats[1].player) is None  # bob set none: DoesNotExist, as the ORM says


def test_driver_errors_come_out_as_django_s_whether_or_not_queries_are_logged(multi_table):
    from django.db import IntegrityError, connection, transaction
    from django.test.utils import CaptureQueriesContext

    taken = Seat.objects.filter(table=multi_table).first()
    twin = Seat(table_id=multi_table.pk, number=taken.number)  # the same seat again: the constraint refuses it
    for logged in (False, True):
        logging = CaptureQueriesContext(connection) if logged else transaction.atomic()
        with logging, pytest.raises(IntegrityError), transaction.atomic():
            rows.insert([twin])
    # The driver's own cursor when nothing logs, Django's when something does: the same rows.
    assert not connection.queries_logged
    assert sql.fetch("SELECT 1 WHERE %s = %s", [1, 1]) == [(1,)]


def test_a_narrowed_join_reads_the_rows_it_allows_and_leaves_the_others_unread(
    multi_table, alice, bob, django_assert_num_queries
):
    from accounts.models import PlayLimits

    PlayLimits.objects.create(user=alice, loss_day=50)
    services.do_sit(multi_table.pk, alice, 1)
    services.do_sit(multi_table.pk, bob, 2)

    with django_assert_num_queries(1):
        seats = rows.select(
            Seat, "t0.table_id = %s AND t0.player_id IS NOT NULL", [alice.pk, multi_table.pk],
            join=("account", "player", "player__play_limits"), join_on={"player": "t2.id = %s"}, order_by="t0.number",
        )
        assert seats[0].player.username == "alice" and seats[0].player.play_limits.loss_day == 50
        assert seats[1].account.balance > 0  # the joins it does not narrow read as ever
    # Bob's player was left out: not None, but read when asked for, as without a join.
    with django_assert_num_queries(1):
        assert seats[1].player.username == "bob"


def test_the_values_it_writes_are_the_orm_s_for_choices_and_json(multi_table, alice):
    from django.db import connection

    from tables.models import Round, RoundPhase

    services.do_sit(multi_table.pk, alice, 1)
    open_next_window(multi_table)
    round_row = Round.objects.get(table=multi_table)
    round_row.phase = RoundPhase.PLAYERS  # a TextChoices member, not a plain str
    round_row.event_times = ["2026-01-01T00:00:00+00:00"]  # a list
    round_row.names = {"1": "alice"}  # a dict
    fields = [Round._meta.get_field(name) for name in ("state", "event_times", "names", "phase")]

    written = rows._values(round_row, fields, [rows._plain(field) for field in fields], connection, False)

    expected = [field.get_db_prep_save(field.pre_save(round_row, False), connection) for field in fields]
    # SQLite takes JSON as text (orjson's has no spaces: the same JSON read back); PostgreSQL as
    # psycopg's Jsonb, which compares by identity: compare what it wraps.
    def value_of(value):
        value = getattr(value, "obj", value)
        return json.loads(value) if isinstance(value, str) and value[:1] in "[{" else value

    assert [value_of(value) for value in written] == [value_of(value) for value in expected]
    assert [type(value) for value in written] == [type(value) for value in expected]
    assert type(written[-1]) is RoundPhase
    if connection.vendor == "postgresql":
        # Written by orjson all the same: what psycopg sends is the same JSON as json.dumps's.
        assert [json.loads(value.dumps(value.obj)) for value in written[:3]] == [value.obj for value in expected[:3]]


def test_json_is_written_as_the_field_reads_it_back(multi_table, alice):
    from tables.models import Round

    services.do_sit(multi_table.pk, alice, 1)
    open_next_window(multi_table)
    round_row = Round.objects.get(table=multi_table)
    # Keys that are not strings become strings, as json.dumps makes them; text outside ASCII stays itself.
    round_row.names = {1: "zoë \u2603", "2": None}
    round_row.event_times = [[1, 2.5, True], {"deep": [{"er": "\"quoted\""}]}]
    rows.update(round_row, ["names", "event_times"])
    round_row.refresh_from_db()
    assert round_row.names == {"1": "zoë \u2603", "2": None}
    assert round_row.event_times == [[1, 2.5, True], {"deep": [{"er": "\"quoted\""}]}]


@contextmanager
def init_heard(model, what):
    """What a post_init listener of `model` hears (`what` of each instance) while the block runs."""
    heard = []

    def listener(sender, instance, **kwargs):
        heard.append(what(instance))

    post_init.connect(listener, sender=model)
    try:
        yield heard
    finally:
        post_init.disconnect(listener, sender=model)


def test_a_model_whose_init_is_listened_to_is_made_as_the_orm_makes_it(multi_table):
    with init_heard(Table, lambda table: table.pk) as heard:
        (table,) = rows.select(Table, "t0.id = %s", [multi_table.pk], join=("current_round",))
        assert table.name == multi_table.name
    assert heard == [multi_table.pk]  # Model.from_db, with its signals
    assert rows.select(Table, "t0.id = %s", [multi_table.pk]) and heard == [multi_table.pk]  # not after


def test_a_new_row_is_the_row_the_model_makes_without_its_init(multi_table, alice):
    values = dict(
        round_id=None, table_id=multi_table.pk, profile=multi_table.profile, player_id=alice.pk, account_id=1, seat=2,
        settled_at=timezone.now(), stack_before=100, stack_after=110, net=10, bet=10, staked=10, hands=[], result="win",
    )
    made, orm = rows.new(RoundSeat, **values), RoundSeat(**values)
    assert fields_of(made) == fields_of(orm) and made._state.adding and made._state.db is None
    # A callable default (Round.event_times: list) is made for each row, not shared.
    first, second = rows.new(Round, table_id=multi_table.pk, number=1), rows.new(Round, table_id=multi_table.pk, number=2)
    assert first.event_times == [] and first.event_times is not second.event_times
    assert fields_of(first) == fields_of(Round(table_id=multi_table.pk, number=1))

    house = rows.new(LedgerAccount, stored=True, id=7, kind="house", label="House")
    assert fields_of(house) == fields_of(LedgerAccount(id=7, kind="house", label="House"))
    assert not house._state.adding and house._state.db == "default"


def test_a_new_row_of_a_model_whose_init_is_listened_to_is_made_by_its_init(db):
    with init_heard(Transfer, lambda transfer: transfer.amount) as heard:
        rows.new(Transfer, source_id=1, destination_id=2, amount=5, kind=TransferKind.PAYOUT, reason="a")
    assert heard == [5]


def test_it_inserts_one_row_and_reads_its_key_back_in_one_statement(multi_table, django_assert_num_queries):
    made = rows.new(Shoe, table_id=multi_table.pk, decks=6, commitment="c0ffee")

    with django_assert_num_queries(1):
        rows.insert([made], key=True)

    assert made.pk == Shoe.objects.get(commitment="c0ffee").pk and not made._state.adding
    assert Shoe.objects.get(pk=made.pk).created_at is not None  # auto_now_add filled in, as the ORM does
