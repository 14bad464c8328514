"""The bare echo consumer that gives `loadtest --echo` Channels' own latency floor."""

from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator
from django.urls import URLPattern

from casino import asgi
from casino.echo import CLOSE_NOT_TEXT, CLOSE_TOO_BIG, MAX_FRAME_BYTES, EchoConsumer
from tests.tables.ws import same_origin_headers


async def connect() -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(EchoConsumer.as_asgi(), "/ws/echo/")
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    return communicator


@pytest.mark.asyncio
async def test_it_sends_back_each_text_frame_as_it_came():
    communicator = await connect()
    for text in ('{"action": "hit", "seat": "3", "hand": "0", "version": "17"}', "é ♠ 🂡", "x" * MAX_FRAME_BYTES):
        await communicator.send_to(text_data=text)
        assert await communicator.receive_from(timeout=5) == text
    await communicator.disconnect()


@pytest.mark.asyncio
async def test_it_refuses_a_frame_over_4_kb_by_closing():
    communicator = await connect()
    # Counted in bytes, as the table counts them: 2,049 two-byte characters are 4,098 bytes.
    await communicator.send_to(text_data="é" * (MAX_FRAME_BYTES // 2 + 1))
    closed = await communicator.receive_output(timeout=5)
    assert closed["type"] == "websocket.close"
    assert closed["code"] == CLOSE_TOO_BIG
    await communicator.disconnect()  # ends the consumer, rather than leave it to the loop's teardown


@pytest.mark.asyncio
async def test_it_refuses_a_binary_frame_by_closing():
    communicator = await connect()
    await communicator.send_to(bytes_data=b"\x00\x01")
    closed = await communicator.receive_output(timeout=5)
    assert closed["type"] == "websocket.close"
    assert closed["code"] == CLOSE_NOT_TEXT
    await communicator.disconnect()


def echo_routes() -> list[URLPattern]:
    return [route for route in asgi.websocket_routes() if str(route.pattern) == "ws/echo/"]


@pytest.mark.parametrize("value", [None, "", "false"])
def test_the_route_is_absent_without_echo_endpoint(monkeypatch, value):
    if value is None:
        monkeypatch.delenv("ECHO_ENDPOINT", raising=False)
    else:
        monkeypatch.setenv("ECHO_ENDPOINT", value)
    assert echo_routes() == []
    assert [str(route.pattern) for route in asgi.websocket_routes()] == ["ws/tables/<id:table_id>/"]


def test_the_route_is_mounted_with_echo_endpoint_true(monkeypatch):
    monkeypatch.setenv("ECHO_ENDPOINT", "true")
    assert len(echo_routes()) == 1


@pytest.mark.asyncio
async def test_the_served_application_has_no_echo_by_default():
    # The test process runs without ECHO_ENDPOINT, like production.
    communicator = WebsocketCommunicator(asgi.application, "/ws/echo/", headers=same_origin_headers())
    with pytest.raises(ValueError, match="No route found"):
        await communicator.connect(timeout=1)
