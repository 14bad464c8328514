"""Versions this process wrote (a play, a settled round, a new window), taken as written: the same frames, no read."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import DatabaseError

from tables.live import frames, state
from tables.live.pieces import whole_table
from tables.play import services
from tests.tables.conftest import open_next_window
from tests.tables.test_frames import seat_html
from tests.tables.test_verify_shoe import version

pytestmark = pytest.mark.django_db


def fresh_read(table_id: int, viewer) -> str:
    frames.forget()
    return whole_table(table_id, viewer)[0]


def taken_as_read(table_id: int, version: int, viewers, when: str) -> dict:
    """Each viewer's frame of `version`, as this process holds it: each the very frame a fresh read makes."""
    assert frames.holds(table_id, version), f"{when}: read, not taken"
    taken = {viewer: whole_table(table_id, viewer, version=version)[0] for viewer in viewers}
    for viewer, frame in taken.items():
        assert frame == fresh_read(table_id, viewer), f"{viewer} {when}"
    return taken


def two_players_in_a_window(table, alice, bob, rig, cards, *, bob_buys_in: int | None = None) -> None:
    """alice in seat 1 and bob in seat 2 in a betting window, the shoe dealing `cards`."""
    rig(cards)
    services.do_sit(table.pk, alice, 1)
    services.do_sit(table.pk, bob, 2, bob_buys_in)
    open_next_window(table)


def test_it_takes_a_play_committed_here_without_reading_it_back(
    betting, alice, bob, django_assert_num_queries, django_capture_on_commit_callbacks
):
    whole_table(betting.pk, bob)  # this process holds the version before the bet

    with django_capture_on_commit_callbacks(execute=True):
        change = services.do_act(betting.pk, alice, "bet", seat=1, amount=10, version=version(betting))

    with django_assert_num_queries(0):
        frame, shown = whole_table(betting.pk, bob, version=change.version)
    assert shown == change.version and "Bet 10" in seat_html(frame, 1)


def test_a_play_taken_without_a_read_shows_exactly_what_a_read_shows(
    multi_table, alice, bob, carol, rig, django_capture_on_commit_callbacks
):
    # alice 10 v bob 16, dealer 6 then 9: a round of bets, hits, a double and stands.
    two_players_in_a_window(multi_table, alice, bob, rig, ["5S", "TH", "6C", "5D", "6H", "9S", "2C", "3D", "TC", "KC"])
    plays = [
        (alice, "bet", 1, {"amount": 10}),
        (bob, "bet", 2, {"amount": 20}),  # deals
        (alice, "double", 1, {}),
        (bob, "hit", 2, {}),
    ]
    for player, action, seat, fields in plays:
        whole_table(multi_table.pk, carol)  # this process holds the version before the play
        with django_capture_on_commit_callbacks(execute=True):
            change = services.do_act(multi_table.pk, player, action, seat=seat, version=version(multi_table), **fields)
        taken_as_read(multi_table.pk, change.version, (alice, bob, carol), f"after {action}")

    # The play that ends the round pays the seats, notes their results and times the next window: taken too.
    whole_table(multi_table.pk, carol)
    with django_capture_on_commit_callbacks(execute=True):
        change = services.do_act(multi_table.pk, bob, "stand", seat=2, version=version(multi_table))
    taken = taken_as_read(multi_table.pk, change.version, (alice, bob, carol), "after the round settled")
    assert "Round over" in taken[carol]


def test_a_first_betting_window_on_a_new_shoe_is_taken_without_a_read(
    multi_table, alice, bob, carol, django_capture_on_commit_callbacks
):
    services.do_sit(multi_table.pk, alice, 1)
    services.do_sit(multi_table.pk, bob, 2)
    whole_table(multi_table.pk, carol)  # this process holds the table before any round

    with django_capture_on_commit_callbacks(execute=True):
        open_next_window(multi_table)  # the timer's window: a new round on a new shoe

    multi_table.refresh_from_db()
    taken = taken_as_read(multi_table.pk, multi_table.version, (alice, bob, carol), "in the new window")
    assert multi_table.current_round.shoe.commitment in taken[carol]  # the new shoe's, in the Fairness section


def test_the_next_betting_window_with_a_top_up_is_taken_without_a_read(
    multi_table, alice, bob, carol, rig, django_capture_on_commit_callbacks
):
    # alice 10 and bob 16 stand against the dealer's 19: bob loses the 10 chips he sat down with.
    two_players_in_a_window(multi_table, alice, bob, rig, ["5S", "TH", "TC", "5D", "6H", "9S"], bob_buys_in=10)
    services.do_act(multi_table.pk, alice, "bet", seat=1, amount=10, version=version(multi_table))
    services.do_act(multi_table.pk, bob, "bet", seat=2, amount=10, version=version(multi_table))
    services.do_act(multi_table.pk, alice, "stand", seat=1, version=version(multi_table))
    services.do_act(multi_table.pk, bob, "stand", seat=2, version=version(multi_table))
    assert "Round over" in whole_table(multi_table.pk, carol)[0]

    with django_capture_on_commit_callbacks(execute=True):
        open_next_window(multi_table)  # the next round, on the same shoe; bob's empty seat topped up

    multi_table.refresh_from_db()
    taken = taken_as_read(multi_table.pk, multi_table.version, (alice, bob, carol), "in the next window")
    assert "100" in seat_html(taken[carol], 2) and "Round over" not in taken[carol]


def test_a_round_that_settles_with_a_player_leaving_is_read_back_as_it_commits(
    multi_table, alice, bob, carol, rig, django_capture_on_commit_callbacks
):
    # alice 10 v bob 16, dealer 6 then 9; alice leaves during the round and is cashed out as it ends.
    two_players_in_a_window(multi_table, alice, bob, rig, ["5S", "TH", "6C", "5D", "6H", "9S", "2C", "3D", "TC", "KC"])
    services.do_act(multi_table.pk, alice, "bet", seat=1, amount=10, version=version(multi_table))
    services.do_act(multi_table.pk, bob, "bet", seat=2, amount=20, version=version(multi_table))
    services.do_leave(multi_table.pk, alice, 1)
    services.do_act(multi_table.pk, alice, "stand", seat=1, version=version(multi_table))

    whole_table(multi_table.pk, carol)
    with django_capture_on_commit_callbacks(execute=True):
        change = services.do_act(multi_table.pk, bob, "stand", seat=2, version=version(multi_table))

    # Her seat came free and her chips went back to her bankroll: not the version before plus the play,
    # so not taken as written, but read at once, before anyone was told of it.
    taken = taken_as_read(multi_table.pk, change.version, (alice, bob, carol), "after the round settled")
    assert "Round over" in taken[bob] and "alice" not in seat_html(taken[bob], 1)


def test_a_sit_made_here_is_read_as_it_commits_so_its_viewers_frames_need_no_read(
    multi_table, alice, bob, carol, django_assert_num_queries, django_capture_on_commit_callbacks
):
    services.do_sit(multi_table.pk, alice, 1)
    whole_table(multi_table.pk, carol)  # this process shows the table: it holds the version before the sit

    with django_capture_on_commit_callbacks(execute=True):
        change = services.do_sit(multi_table.pk, bob, 2)

    with django_assert_num_queries(0):
        frame, shown = whole_table(multi_table.pk, bob, version=change.version)
    assert shown == change.version and "bob" in seat_html(frame, 2)
    taken_as_read(multi_table.pk, change.version, (alice, bob, carol), "after bob sat down")


def test_a_leave_made_here_is_read_as_it_commits(multi_table, alice, bob, carol, django_capture_on_commit_callbacks):
    services.do_sit(multi_table.pk, alice, 1)
    services.do_sit(multi_table.pk, bob, 2)
    whole_table(multi_table.pk, carol)

    with django_capture_on_commit_callbacks(execute=True):
        change = services.do_leave(multi_table.pk, bob, 2)

    taken = taken_as_read(multi_table.pk, change.version, (alice, bob, carol), "after bob left")
    assert "bob" not in seat_html(taken[carol], 2)


def test_a_change_at_a_table_this_process_does_not_show_is_not_read(
    multi_table, alice, bob, django_assert_num_queries, django_capture_on_commit_callbacks
):
    services.do_sit(multi_table.pk, alice, 1)
    frames.forget()  # nobody here has been shown the table (a process serving other tables, table_clock)

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        change = services.do_sit(multi_table.pk, bob, 2)
    with django_assert_num_queries(0):
        for callback in callbacks:
            callback()  # telling the viewers again reads nothing either

    assert not frames.holds(multi_table.pk, change.version)


def test_a_failed_read_after_a_commit_is_left_to_the_viewers(
    multi_table, alice, bob, carol, caplog, django_capture_on_commit_callbacks
):
    services.do_sit(multi_table.pk, alice, 1)
    whole_table(multi_table.pk, carol)

    # The read fails as the commit's listeners run (they run as the capture ends, inside the patch).
    failing = mock.patch.object(state, "snapshot", side_effect=DatabaseError("connection lost"))
    with failing, django_capture_on_commit_callbacks(execute=True):
        change = services.do_sit(multi_table.pk, bob, 2)

    # The sit stands and its viewers are still told; they read the version themselves.
    assert "reading version" in caplog.text and not frames.holds(multi_table.pk, change.version)
    assert "bob" in seat_html(whole_table(multi_table.pk, carol, version=change.version)[0], 2)


def test_a_play_taken_without_a_read_keeps_the_views_of_the_seats_it_left_alone(
    betting, alice, bob, carol, django_capture_on_commit_callbacks
):
    whole_table(betting.pk, carol)  # this process holds the version before the bet
    before = frames.cached(betting.pk, version(betting))

    with django_capture_on_commit_callbacks(execute=True):
        change = services.do_act(betting.pk, alice, "bet", seat=1, amount=10, version=version(betting))

    after = frames.cached(betting.pk, change.version)
    assert after.version == change.version and after.state.seats[0] is not before.state.seats[0]  # alice bet
    assert after.state.seats[1] is before.state.seats[1]  # bob, still betting: kept, its words too
    assert after.seat_shows[1] is before.seat_shows[1]
    for viewer in (alice, bob, carol):
        assert whole_table(betting.pk, viewer, version=change.version)[0] == fresh_read(betting.pk, viewer)
