"""A viewer last sent an earlier version is brought the shared pieces that changed since, worked out once for all.

tables.live.pieces: the pieces every viewer sees alike (the status, the turn,
the dealer, the others' seats) are compared once per pair of versions, not
for each viewer. Whatever the path, a viewer must get exactly the frame that
comparing every piece would give, through a whole round, seats changing
hands, and skipped versions.
"""

from __future__ import annotations

import itertools

import pytest

from tables.live import frames, pieces
from tables.live.pieces import Sent, frame_for
from tables.models import Table
from tables.play import services
from tests.tables.conftest import open_next_window

pytestmark = pytest.mark.django_db

# alice (seat 1) and bob (seat 2) hold 16 and 16 against the dealer's 20; bob's hit draws a 3.
CARDS = ["TS", "9H", "TD", "6D", "7S", "KD", "3C"]


def version(table) -> int:
    return Table.objects.values_list("version", flat=True).get(pk=table.pk)


def plays(table, alice, bob, carol):
    """Each step of a round and what follows it, as the version it made."""
    yield services.do_act(table.pk, alice, "bet", seat=1, amount=10, version=version(table)).version
    yield services.do_act(table.pk, bob, "bet", seat=2, amount=10, version=version(table)).version
    yield services.do_act(table.pk, alice, "stand", seat=1, version=version(table)).version
    yield services.do_act(table.pk, bob, "hit", seat=2, version=version(table)).version
    yield services.do_act(table.pk, bob, "stand", seat=2, version=version(table)).version  # settles the round
    yield services.do_sit(table.pk, carol, 3, version=version(table)).version  # a free seat taken
    open_next_window(table)
    yield version(table)
    yield services.do_leave(table.pk, bob, 2, version=version(table)).version  # bob sits this round out, then goes
    yield services.do_act(table.pk, carol, "bet", seat=3, amount=10, version=version(table)).version


@pytest.fixture
def dealt(multi_table, alice, bob, rig):
    """alice in seat 1 and bob in seat 2, in a dealt window whose shoe deals CARDS."""
    rig(CARDS)
    services.do_sit(multi_table.pk, alice, 1)
    services.do_sit(multi_table.pk, bob, 2)
    open_next_window(multi_table)
    return multi_table


@pytest.fixture
def counted(monkeypatch):
    """How often a frame took the shared pieces' changes as worked out for every viewer, and made a viewer's own pieces."""
    calls: dict[str, int] = {"shared changes": 0, "own pieces": 0}

    def counting(name: str, original):
        def count(*args):
            calls[name] += 1
            return original(*args)

        return count

    monkeypatch.setattr(pieces, "_shared_changes", counting("shared changes", pieces._shared_changes))
    monkeypatch.setattr(pieces, "own_pieces", counting("own pieces", pieces.own_pieces))
    return calls


def test_every_frame_is_what_comparing_every_piece_gives(dealt, alice, bob, carol, counted):
    viewers = {"alice": alice, "bob": bob, "carol": carol, "a guest": None}
    brought = {name: Sent() for name in viewers}  # frames from the changes worked out once
    compared = {name: Sent() for name in viewers}  # every piece compared, as a connection's first frames are

    def frames_of(table_version: int) -> None:
        table = frames.rendered(dealt.pk, table_version)
        for name, viewer in viewers.items():
            # A bankroll that changes now and then, as a watcher's does when they play at another table.
            bankroll = None if viewer is None else 1000 - table_version // 3
            compared[name].shared = compared[name].own_key = None  # forgets what its last frame's pieces were
            expected = frame_for(table, viewer, bankroll, None, compared[name])
            assert frame_for(table, viewer, bankroll, None, brought[name]) == expected, (name, table_version)
            assert brought[name].pieces == compared[name].pieces, (name, table_version)

    frames_of(version(dealt))
    steps = 1
    for made in plays(dealt, alice, bob, carol):
        frames_of(made)
        steps += 1

    # Taken for most frames: all but each viewer's first, and the frames after a seat changed hands.
    brought_frames = steps * len(viewers)
    assert counted["shared changes"] >= 20
    # A viewer's own pieces are made only when something of theirs changed (and for every compared frame):
    # here a quarter of the time they had not (a seat's phase, cards, decision or bankroll change most versions).
    skipped = 2 * brought_frames - counted["own pieces"]
    assert skipped >= brought_frames / 4


def test_a_viewer_who_skipped_versions_gets_every_change_since_the_one_it_has(dealt, alice, bob, carol):
    skipping, every, compared = Sent(), Sent(), Sent()
    frame_for(frames.rendered(dealt.pk), carol, 1000, None, skipping)
    frame_for(frames.rendered(dealt.pk), carol, 1000, None, compared)
    made = list(itertools.islice(plays(dealt, alice, bob, carol), 4))  # the bets (and the deal), alice's stand, bob's hit

    for step in made:  # another connection of carol's is shown every version
        frame_for(frames.rendered(dealt.pk, step), carol, 1000, None, every)
    newest = frames.rendered(dealt.pk, made[-1])
    compared.shared = compared.own_key = None
    later = frame_for(newest, carol, 1000, None, skipping)

    assert later == frame_for(newest, carol, 1000, None, compared)
    assert "alice bets 10." in later and "bob hits" in later and 'data-card="3C"' in later
