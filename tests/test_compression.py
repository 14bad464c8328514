"""Compressed frames: daphne's websockets accept permessage-deflate, with a bounded window and memory (casino/compression.py).

The end-to-end check, a live daphne compressing a table's frames for real bots,
is in tests/tables/test_loadtest_command.py; every browser test's socket
negotiates it too.
"""

from __future__ import annotations

import daphne.server
from autobahn.websocket.compress import PerMessageDeflateOffer

from casino import compression


def test_it_accepts_a_browsers_deflate_offer_with_a_small_window_and_memory():
    accepted = compression.accept([PerMessageDeflateOffer(accept_max_window_bits=True)])

    assert accepted.window_bits == compression.WINDOW_BITS == 14
    assert accepted.mem_level == compression.MEM_LEVEL == 5


def test_it_keeps_to_a_smaller_window_the_client_asks_for():
    accepted = compression.accept([PerMessageDeflateOffer(request_max_window_bits=10)])

    assert accepted.window_bits == 10


def test_it_declines_when_the_client_offers_no_deflate():
    assert compression.accept([]) is None


def test_it_makes_daphnes_websocket_factory_accept_deflate(monkeypatch):
    monkeypatch.setattr(daphne.server, "WebSocketFactory", daphne.server.WebSocketFactory)

    assert compression.enable() is True
    factory = daphne.server.WebSocketFactory(object(), server="Daphne")

    assert factory.perMessageCompressionAccept is compression.accept
    assert compression.enable() is True  # a second call changes nothing
    assert daphne.server.WebSocketFactory is type(factory)

