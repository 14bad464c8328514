"""A play takes the round this process's last play stored, unless anything changed the table since (tables.play.held)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables.engine import GameRound
from tables.engine import round as engine_round
from tables.live import frames
from tables.models import Round, Table
from tables.play import held, services
from tables.play.errors import TableError
from tests.tables.conftest import seat_and_bet

# Real commits: a round is held only once its play's transaction commits.
pytestmark = pytest.mark.django_db(transaction=True)

# alice (seat 1) and bob (seat 2) and carol (seat 3) each hold 16 against the dealer's 20.
SIXTEENS = ["TS", "9H", "TD", "TC", "6D", "7S", "6H", "KD"]


def version(table) -> int:
    return Table.objects.values_list("version", flat=True).get(pk=table.pk)


def stands(table) -> list[int]:
    state = Round.objects.get(pk=Table.objects.get(pk=table.pk).current_round_id).state
    return [event["seat"] for event in state["events"] if event["kind"] == "stand"]


@pytest.fixture
def dealt(multi_table, alice, bob, carol, rig):
    rig(SIXTEENS)
    seat_and_bet(multi_table, alice, bob, carol)
    return multi_table


def test_it_holds_the_round_its_own_play_stored_and_the_next_play_takes_it(dealt, alice, bob):
    current = version(dealt)
    assert held._held[dealt.pk][0] == current  # the last bet's commit

    services.do_act(dealt.pk, alice, "stand", seat=1, version=current)

    kept_version, kept_round = held._held[dealt.pk]
    assert kept_version == current + 1 == version(dealt)
    assert [event["seat"] for event in kept_round.state["events"] if event["kind"] == "stand"] == [1]
    assert stands(dealt) == [1]


def test_a_play_on_the_held_round_reads_no_round_back(dealt, alice):
    """On PostgreSQL the round's own query goes; on SQLite the lock's join brings no round row."""
    with CaptureQueriesContext(connection) as queries:
        services.do_act(dealt.pk, alice, "stand", seat=1, version=version(dealt))
    round_reads = [query["sql"] for query in queries if query["sql"].lstrip().startswith("SELECT") and '"tables_round"' in query["sql"]]
    if connection.features.has_select_for_update:
        assert round_reads == []
    else:
        assert len(round_reads) == 1 and "<>" in round_reads[0]  # joined only if the version moved on


def test_a_table_another_process_changed_is_read_back(dealt, alice, bob):
    current = version(dealt)
    mine = held._held[dealt.pk]
    # Another process: alice stands there. Its commit is held over there, not here.
    held.forget()
    services.do_act(dealt.pk, alice, "stand", seat=1, version=current)
    held._held[dealt.pk] = mine  # this process still holds the version before

    services.do_act(dealt.pk, bob, "stand", seat=2, version=version(dealt))

    assert stands(dealt) == [1, 2]  # bob played on after alice's stand, not on the round before it


def test_a_refused_play_leaves_the_round_as_stored_and_the_next_play_reads_it(dealt, alice, bob):
    current = version(dealt)
    with pytest.raises(TableError):
        services.do_act(dealt.pk, bob, "stand", seat=2, version=current)  # not bob's turn yet
    assert dealt.pk not in held._held  # taken by the refused play and not given back

    services.do_act(dealt.pk, alice, "stand", seat=1, version=current)
    services.do_act(dealt.pk, bob, "stand", seat=2, version=version(dealt))

    assert stands(dealt) == [1, 2]


def test_a_settled_round_is_not_held(dealt, alice, bob, carol):
    for seat, player in ((1, alice), (2, bob), (3, carol)):
        services.do_act(dealt.pk, player, "stand", seat=seat, version=version(dealt))

    assert Round.objects.get(pk=Table.objects.get(pk=dealt.pk).current_round_id).phase == "settled"
    assert dealt.pk not in held._held


def test_the_held_row_is_a_row_of_its_own(dealt, alice):
    """What the play's own row goes through after its commit (the frames' cache, the next play) leaves the held one alone."""
    services.do_act(dealt.pk, alice, "stand", seat=1, version=version(dealt))
    table = Table.objects.select_related("current_round__table").get(pk=dealt.pk)
    played = table.current_round
    kept = held._copy(played)

    played.state = {"replaced": True}
    played.phase = "settled"

    assert kept.pk == played.pk and kept.state != played.state and kept.phase != "settled"
    assert kept._state is not played._state and not kept._state.adding and kept._state.db == "default"
    assert kept._state.fields_cache == {}  # no related rows: a round read by its own query
    assert kept.table == played.table  # read when asked, as for any row


def test_a_play_on_the_held_round_plays_on_its_engine_and_decodes_no_state(dealt, alice, bob, monkeypatch):
    decoded = []
    original = engine_round.round_from_json
    monkeypatch.setattr(engine_round, "round_from_json", lambda cls, data: decoded.append(data) or original(cls, data))

    services.do_act(dealt.pk, alice, "stand", seat=1, version=version(dealt))
    services.do_act(dealt.pk, bob, "stand", seat=2, version=version(dealt))

    assert decoded == []
    stored = Round.objects.get(pk=Table.objects.get(pk=dealt.pk).current_round_id).state
    assert GameRound.from_json(stored).to_json() == stored  # what the held engine wrote reads back the same
    assert stands(dealt) == [1, 2]


def test_the_next_play_leaves_the_round_its_viewers_were_shown_alone(dealt, alice, bob):
    """The engine a play hands to its viewers' frames (tables.live.frames.offer) is not the one the next play changes."""
    frames.rendered(dealt.pk)  # shown here: the next play is offered to the frames as written
    services.do_act(dealt.pk, alice, "stand", seat=1, version=version(dealt))
    shown = frames.cached(dealt.pk, version(dealt)).state.engine
    events = list(shown.events)

    services.do_act(dealt.pk, bob, "stand", seat=2, version=version(dealt))

    assert shown.events == events and shown.to_act() == (2, 0)
