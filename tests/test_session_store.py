"""The session engine (casino/session_store.py): it reads what Django's database sessions store, with SQL built once."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from casino.session_store import SessionStore

pytestmark = pytest.mark.django_db


def stored(data: dict) -> str:
    """A session saved by Django's own database backend: its key."""
    session = DjangoStore()
    session.update(data)
    session.create()
    return session.session_key


def test_it_reads_a_session_that_djangos_backend_saved():
    key = stored({"_auth_user_id": "7", "seen": [1, 2]})

    session = SessionStore(key)

    assert session.load() == {"_auth_user_id": "7", "seen": [1, 2]}
    assert session.session_key == key


def test_it_finds_nothing_in_an_expired_session_and_drops_its_key():
    key = stored({"_auth_user_id": "7"})
    Session.objects.filter(session_key=key).update(expire_date=timezone.now() - dt.timedelta(seconds=1))

    session = SessionStore(key)

    assert session.load() == {}
    assert session.session_key is None


def test_it_finds_nothing_for_an_unknown_key_or_none():
    assert SessionStore("x" * 32).load() == {}
    assert SessionStore(None).load() == {}


def test_a_session_it_saves_reads_back_in_djangos_backend():
    session = SessionStore()
    session["seen"] = True
    session.save()

    assert DjangoStore(session.session_key).load() == {"seen": True}


def test_it_reads_a_session_in_one_query(django_assert_num_queries):
    key = stored({"seen": True})
    with django_assert_num_queries(1):
        assert SessionStore(key).load() == {"seen": True}
