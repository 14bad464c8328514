"""The websockets' session middleware (casino/sessions.py): frames pass straight on, HTTP responses still save, the user is found as Channels finds them."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, SESSION_KEY
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.backends.cache import SessionStore

from casino.sessions import InstanceSessionWrapper, signed_in_user


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


# --- The signed-in user, as a socket opens (`signed_in_user`) ------------------------------


def session_of(user) -> SessionBase:
    """The session a browser signed in as `user` carries (the project's session engine)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    return import_module(settings.SESSION_ENGINE).SessionStore(client.cookies["sessionid"].value)


@pytest.mark.django_db
def test_it_finds_the_signed_in_player(alice, django_assert_num_queries):
    session = session_of(alice)
    with django_assert_num_queries(2):  # the session, the user
        user = signed_in_user(session)
    assert user == alice and user.is_authenticated


@pytest.mark.django_db
def test_it_flushes_the_session_of_a_player_whose_password_changed(alice):
    session = session_of(alice)
    alice.set_password("a new Passw0rd!")
    alice.save()

    assert isinstance(signed_in_user(session), AnonymousUser)
    assert session.is_empty()


@pytest.mark.django_db
def test_it_signs_in_nobody_for_a_deactivated_or_unknown_account(alice, bob):
    alices, unknown = session_of(alice), session_of(bob)
    type(alice).objects.filter(pk=alice.pk).update(is_active=False)
    unknown[SESSION_KEY] = str(bob.pk + 1000)  # accounts are never deleted (their ledger): an id nobody has

    assert isinstance(signed_in_user(alices), AnonymousUser)
    assert isinstance(signed_in_user(unknown), AnonymousUser)


@pytest.mark.django_db
def test_it_signs_in_nobody_through_a_backend_no_longer_in_the_settings(alice, settings):
    session = session_of(alice)
    settings.AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend"]

    assert isinstance(signed_in_user(session), AnonymousUser)


@pytest.mark.django_db
def test_it_signs_in_nobody_from_a_session_without_a_user():
    session = import_module(settings.SESSION_ENGINE).SessionStore()
    session["seen"] = True
    session.save()

    assert isinstance(signed_in_user(session), AnonymousUser)


class RecordingBackend(ModelBackend):
    """Django's ModelBackend under another name, noting each user it is asked for."""

    asked: list = []

    def get_user(self, user_id):
        RecordingBackend.asked.append(user_id)
        return super().get_user(user_id)


@pytest.mark.django_db
def test_it_finds_the_player_through_another_listed_backend_with_that_backends_own_read(alice, settings):
    path = f"{__name__}.RecordingBackend"
    settings.AUTHENTICATION_BACKENDS = [*settings.AUTHENTICATION_BACKENDS, path]
    session = session_of(alice)
    session[BACKEND_SESSION_KEY] = path
    RecordingBackend.asked = []

    assert signed_in_user(session) == alice
    assert RecordingBackend.asked == [alice.pk]
