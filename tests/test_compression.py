"""Compressed frames: daphne's websockets accept permessage-deflate, with a bounded window and memory (casino/compression.py).

The end-to-end check, a live daphne compressing a table's frames for real bots,
is in tests/tables/test_loadtest_command.py; every browser test's socket
negotiates it too.
"""

from __future__ import annotations

import zlib

import daphne.server
import daphne.ws_protocol
from autobahn.websocket.compress import PerMessageDeflate, PerMessageDeflateOffer

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


def test_it_compresses_the_servers_frames_at_its_own_level():
    frame = b'<div id="seat-1-play"><p class="bet">Bet 1</p></div><i id="version" data-version="71"></i>' * 20
    deflate = compression.Deflate.create_from_offer_accept(True, compression.accept([PerMessageDeflateOffer()]))

    deflate.start_compress_message()
    sent = deflate.compress_message_data(frame) + deflate.end_compress_message()

    stream = zlib.compressobj(compression.LEVEL, zlib.DEFLATED, -compression.WINDOW_BITS, compression.MEM_LEVEL)
    assert compression.LEVEL == 3
    assert sent == (stream.compress(frame) + stream.flush(zlib.Z_SYNC_FLUSH))[:-4]
    assert zlib.decompressobj(-15).decompress(sent + b"\x00\x00\xff\xff") == frame  # as a browser reads it


def test_it_starts_each_frame_afresh_at_its_level_when_the_browser_asks_for_no_context_takeover():
    frame = b'<p class="stack" id="seat-1-stack">Stack <strong data-stack>999</strong></p>' * 10
    offer = PerMessageDeflateOffer(request_no_context_takeover=True)
    deflate = compression.Deflate.create_from_offer_accept(True, compression.accept([offer]))
    assert deflate.server_no_context_takeover

    sent = []
    for _ in range(2):
        deflate.start_compress_message()
        sent.append(deflate.compress_message_data(frame) + deflate.end_compress_message())

    stream = zlib.compressobj(compression.LEVEL, zlib.DEFLATED, -compression.WINDOW_BITS, compression.MEM_LEVEL)
    alone = (stream.compress(frame) + stream.flush(zlib.Z_SYNC_FLUSH))[:-4]
    assert sent == [alone, alone]  # the second frame not compressed against the first


def test_its_protocol_compresses_at_that_level_once_the_handshake_accepts_deflate(monkeypatch):
    monkeypatch.setattr(daphne.server, "WebSocketFactory", daphne.server.WebSocketFactory)
    compression.enable()
    protocol_class = daphne.server.WebSocketFactory.protocol
    negotiated = PerMessageDeflate.create_from_offer_accept(True, compression.accept([PerMessageDeflateOffer()]))

    def autobahns_handshake(protocol, response):  # what autobahn does for an accepted offer
        protocol._perMessageCompress = negotiated
        return "handshake done"

    monkeypatch.setattr(daphne.ws_protocol.WebSocketProtocol, "succeedHandshake", autobahns_handshake)
    protocol = protocol_class.__new__(protocol_class)

    assert protocol.succeedHandshake(None) == "handshake done"
    assert type(protocol._perMessageCompress) is compression.Deflate
    assert protocol._perMessageCompress.server_max_window_bits == compression.WINDOW_BITS
