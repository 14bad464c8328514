"""The websockets' session middleware (casino/sessions.py): frames pass straight on, HTTP responses still save."""

from __future__ import annotations

import pytest
from django.contrib.sessions.backends.cache import SessionStore

from casino.sessions import InstanceSessionWrapper


class Unreadable:
    """A session no frame may touch: reading anything of it fails the test."""

    def __getattr__(self, name: str):
        raise AssertionError(f"the session's {name} was read to send a frame")


def wrapper_around(sent: list) -> InstanceSessionWrapper:
    async def send(message: dict) -> None:
        sent.append(message)

    return InstanceSessionWrapper({"type": "websocket", "cookies": {}}, send)


@pytest.mark.asyncio
async def test_it_sends_a_frame_without_reading_the_session():
    sent: list = []
    wrapper = wrapper_around(sent)
    wrapper.scope["session"] = Unreadable()

    await wrapper.send({"type": "websocket.send", "text": "<i id=version></i>"})
    await wrapper.send({"type": "websocket.close", "code": 4403})

    assert sent == [{"type": "websocket.send", "text": "<i id=version></i>"}, {"type": "websocket.close", "code": 4403}]


@pytest.mark.asyncio
async def test_it_still_saves_a_changed_session_and_sets_its_cookie_when_an_http_response_starts(settings):
    # Sessions in the cache: no database opened in the executor's threads, which other tests share.
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cache"
    sent: list = []
    wrapper = wrapper_around(sent)
    await wrapper.resolve_session()
    wrapper.scope["session"]["seen"] = True

    await wrapper.send({"type": "http.response.start", "status": 200, "headers": []})

    key = wrapper.scope["session"].session_key
    assert key and (await SessionStore(key).aload()) == {"seen": True}
    cookies = [value for name, value in sent[0]["headers"] if name == b"Set-Cookie"]
    assert len(cookies) == 1 and cookies[0].startswith(f"sessionid={key};".encode())
