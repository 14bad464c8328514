"""A table's frames on the wire: deflated with the server's window, a round takes few bytes (casino/compression.py)."""

from __future__ import annotations

import zlib

import pytest

from casino import compression
from tables.live.frames import rendered
from tables.live.pieces import Sent, frame_for
from tables.play import services
from tests.tables.conftest import open_next_window
from tests.tables.test_verify_shoe import version


def wire_bytes(frames: list[str], window_bits: int) -> int:
    """What a connection's frames take on the wire as the server sends them: one stream at its level, flushed per frame."""
    stream = zlib.compressobj(compression.LEVEL, zlib.DEFLATED, -window_bits, compression.MEM_LEVEL)
    return sum(len(stream.compress(frame.encode()) + stream.flush(zlib.Z_SYNC_FLUSH)) - 4 for frame in frames)


@pytest.mark.django_db
def test_its_window_keeps_a_rounds_frames_small_on_the_wire(multi_table, alice, bob, carol, rig):
    # Three rounds at one table (alice 10 v bob 16, the dealer 6 then 9), as alice, bob and carol watch them.
    rig(["5S", "TH", "6C", "5D", "6H", "9S", "2C", "3D", "TC"] * 3)
    services.do_sit(multi_table.pk, alice, 1)
    services.do_sit(multi_table.pk, bob, 2)
    sent = {viewer: Sent() for viewer in (alice, bob, carol)}
    frames: dict = {viewer: [] for viewer in sent}

    def show_everyone() -> None:
        table = rendered(multi_table.pk)
        for viewer, theirs in sent.items():
            frame = frame_for(table, viewer, None, None, theirs)
            if frame:
                frames[viewer].append(frame)

    for _ in range(3):
        open_next_window(multi_table)
        show_everyone()
        for player, action, seat, fields in [
            (alice, "bet", 1, {"amount": 10}), (bob, "bet", 2, {"amount": 20}),
            (alice, "double", 1, {}), (bob, "hit", 2, {}), (bob, "stand", 2, {}),
        ]:
            services.do_act(multi_table.pk, player, action, seat=seat, version=version(multi_table), **fields)
            show_everyone()

    later = [frame for theirs in frames.values() for frame in theirs[1:]]  # after each one's whole table
    assert len(later) >= 3 * 5 * 3
    ours = sum(wire_bytes(theirs, compression.WINDOW_BITS) for theirs in frames.values())
    small = sum(wire_bytes(theirs, 12) for theirs in frames.values())
    # The frames repeat what a few frames before them sent: a window that still holds it sends far less.
    assert ours < small * 0.6, (ours, small)
    assert ours / sum(len(theirs) for theirs in frames.values()) < 200, ours  # bytes a frame; the 4 KiB window it replaced: ~300
