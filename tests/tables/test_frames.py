"""Frames: one version of a table is read once and its pieces shared, yet each viewer sees only their own."""

from __future__ import annotations

import re

import pytest

from tables.live import frames
from tables.play import services
from tests.tables.conftest import open_next_window
from tests.tables.test_verify_shoe import version

pytestmark = pytest.mark.django_db


def seat_html(frame: str, number: int) -> str:
    match = re.search(rf'<article id="seat-{number}".*?</article>', frame, re.S)
    assert match, f"no seat {number} in the frame"
    return match.group(0)


def controls_html(frame: str) -> str:
    return re.search(r'<section id="controls".*?</section>', frame, re.S).group(0)


@pytest.fixture
def betting(multi_table, alice, bob):
    """alice in seat 1 and bob in seat 2, in a betting window."""
    services.do_sit(multi_table.pk, alice, 1)
    services.do_sit(multi_table.pk, bob, 2)
    open_next_window(multi_table)
    return multi_table


def test_it_shows_each_viewer_their_own_seat_and_buttons_from_one_shared_version(betting, alice, bob, carol):
    for_alice, _ = frames.render_frame(betting.pk, alice)
    for_bob, _ = frames.render_frame(betting.pk, bob)
    for_carol, _ = frames.render_frame(betting.pk, carol)

    assert "mine" in seat_html(for_alice, 1) and "Leave table" in seat_html(for_alice, 1)
    assert "mine" not in seat_html(for_alice, 2) and "Leave table" not in seat_html(for_alice, 2)
    assert "mine" in seat_html(for_bob, 2) and "mine" not in seat_html(for_bob, 1)
    assert 'name="seat" value="1"' in controls_html(for_alice) and ">Deal<" in controls_html(for_alice)
    assert 'name="seat" value="2"' in controls_html(for_bob) and 'value="1"' not in controls_html(for_bob)
    # carol watches: nobody's seat is hers, no buttons, and she may sit in a free seat.
    assert "mine" not in seat_html(for_carol, 1) and ">Deal<" not in for_carol
    assert "Sit here" in seat_html(for_carol, 3) and "Sit here" not in seat_html(for_alice, 3)
    # The shared pieces are the same for all three.
    for piece in ("status", "dealer", "log"):
        pattern = rf'<(?:div|section) id="{piece}".*?</(?:div|section)>'
        assert re.search(pattern, for_alice, re.S).group(0) == re.search(pattern, for_carol, re.S).group(0)


def test_it_reads_a_version_once_for_all_its_viewers(betting, alice, bob, carol, django_assert_num_queries):
    current = version(betting)
    frames.render_frame(betting.pk, alice, version=current)
    # bob's bankroll was read with the table, as he sits at it.
    with django_assert_num_queries(0):
        frames.render_frame(betting.pk, bob, version=current)
    # carol watches: her bankroll is read for her frame.
    with django_assert_num_queries(1):
        for_carol, _ = frames.render_frame(betting.pk, carol, version=current)
    assert '<strong id="bankroll" hx-swap-oob="true">1000</strong>' in for_carol


def test_it_shows_the_new_version_after_a_change(betting, alice, bob):
    before, seen = frames.render_frame(betting.pk, bob)
    assert ">Deal<" in controls_html(before)

    change = services.do_act(betting.pk, alice, "bet", seat=1, amount=10, version=seen)

    # Asked with the version of the event that told of the change, the bet is there.
    after, shown = frames.render_frame(betting.pk, bob, version=change.version)
    assert shown == change.version
    assert "Bet 10" in seat_html(after, 1)
    # bob's own seat did not change and keeps its HTML, but not the version its Leave form sends.
    assert f'name="version" value="{change.version}"' in seat_html(after, 2)
    assert f'name="version" value="{seen}"' in seat_html(before, 2)


def test_it_never_mistakes_a_players_text_for_the_version(multi_table, django_user_model, bob):
    from tests.conftest import make_player

    mallory = make_player(django_user_model, "<!--version-->")
    services.do_sit(multi_table.pk, mallory, 1)

    frame, shown = frames.render_frame(multi_table.pk, bob)

    assert '<span class="player">&lt;!--version--&gt;</span>' in seat_html(frame, 1)
    assert f'name="version" value="{shown}"' in seat_html(frame, 2)


def test_it_asks_the_database_for_the_version_when_the_caller_does_not_know_it(betting, alice, bob):
    frames.render_frame(betting.pk, bob)
    services.do_act(betting.pk, alice, "bet", seat=1, amount=10, version=version(betting))

    # No event seen yet (say, a refusal notice): not the cached older version.
    after, _ = frames.render_frame(betting.pk, bob, notice="Not now.")
    assert "Bet 10" in seat_html(after, 1)


def test_it_shows_a_notice_to_its_viewer_only(betting, alice, bob):
    current = version(betting)
    refused, _ = frames.render_frame(betting.pk, alice, "That is not your seat.", version=current)
    other, _ = frames.render_frame(betting.pk, bob, version=current)
    again, _ = frames.render_frame(betting.pk, alice, version=current)

    assert 'role="alert"' in refused and "That is not your seat." in refused
    assert "That is not your seat." not in other
    assert "That is not your seat." not in again


def fresh_read(table_id: int, viewer) -> str:
    frames.forget()
    return frames.render_frame(table_id, viewer)[0]


def test_it_takes_a_play_committed_here_without_reading_it_back(
    betting, alice, bob, django_assert_num_queries, django_capture_on_commit_callbacks
):
    frames.render_frame(betting.pk, bob)  # this process holds the version before the bet

    with django_capture_on_commit_callbacks(execute=True):
        change = services.do_act(betting.pk, alice, "bet", seat=1, amount=10, version=version(betting))

    with django_assert_num_queries(0):
        frame, shown = frames.render_frame(betting.pk, bob, version=change.version)
    assert shown == change.version and "Bet 10" in seat_html(frame, 1)


def test_a_play_taken_without_a_read_shows_exactly_what_a_read_shows(
    multi_table, alice, bob, carol, rig, django_capture_on_commit_callbacks
):
    # alice 10 v bob 16, dealer 6 then 9: a round of bets, hits, a double and stands.
    rig(["5S", "TH", "6C", "5D", "6H", "9S", "2C", "3D", "TC", "KC"])
    services.do_sit(multi_table.pk, alice, 1)
    services.do_sit(multi_table.pk, bob, 2)
    open_next_window(multi_table)
    plays = [
        (alice, "bet", 1, {"amount": 10}),
        (bob, "bet", 2, {"amount": 20}),  # deals
        (alice, "double", 1, {}),
        (bob, "hit", 2, {}),
    ]
    for player, action, seat, fields in plays:
        frames.render_frame(multi_table.pk, carol)  # this process holds the version before the play
        with django_capture_on_commit_callbacks(execute=True):
            change = services.do_act(multi_table.pk, player, action, seat=seat, version=version(multi_table), **fields)
        assert frames.holds(multi_table.pk, change.version), f"{action} was read, not taken"
        taken = {viewer: frames.render_frame(multi_table.pk, viewer, version=change.version)[0] for viewer in (alice, bob, carol)}
        for viewer, frame in taken.items():
            assert frame == fresh_read(multi_table.pk, viewer), f"{viewer} after {action}"

    # The play that ends the round changes seats and ledger: it is read back, not taken.
    frames.render_frame(multi_table.pk, carol)
    with django_capture_on_commit_callbacks(execute=True):
        change = services.do_act(multi_table.pk, bob, "stand", seat=2, version=version(multi_table))
    assert not frames.holds(multi_table.pk, change.version)
    assert "Round over" in fresh_read(multi_table.pk, carol)


def test_it_reads_the_table_after_a_version_it_did_not_see(betting, alice, bob, carol, django_assert_num_queries):
    frames.render_frame(betting.pk, bob)
    services.do_sit(betting.pk, carol, 3)  # a version this process never rendered
    change = services.do_act(betting.pk, alice, "bet", seat=1, amount=10, version=version(betting))

    frame, _ = frames.render_frame(betting.pk, bob, version=change.version)

    assert "carol" in seat_html(frame, 3) and "Bet 10" in seat_html(frame, 1)


def test_it_leaves_a_watchers_frame_to_the_database_thread(betting, bob, carol):
    current = version(betting)
    frames.render_frame(betting.pk, bob, version=current)

    # bob sits here: his frame needs nothing the version did not read. carol's bankroll is not in it.
    assert frames.cached_frame(betting.pk, bob, current) is not None
    assert frames.cached_frame(betting.pk, carol, current) is None
    # Nor is a version this process has not read.
    assert frames.cached_frame(betting.pk, bob, current + 1) is None


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_viewers_told_of_one_change_wait_for_one_read(monkeypatch):
    import asyncio

    from channels.db import database_sync_to_async

    from tests.tables.conftest import make_table

    table = await database_sync_to_async(make_table)()
    reads = []
    real = frames.rendered

    def counting(table_id, version=None):
        reads.append(version)
        return real(table_id, version)

    monkeypatch.setattr(frames, "rendered", counting)

    await asyncio.gather(*(frames.read(table.pk, table.version) for _ in range(5)))

    assert reads == [table.version]
    assert frames.holds(table.pk, table.version)
