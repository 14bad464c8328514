"""Shared fixtures: the personas alice, bob and carol, and process set-up for live servers."""

from __future__ import annotations

import multiprocessing
import os

import pytest

# A forked live server inherits locks held by the parent and can hang; spawn
# starts it clean.
multiprocessing.set_start_method("spawn", force=True)
# Playwright's sync API runs an event loop in the test's thread; Django's
# async-safety guard would otherwise refuse the ORM calls the tests make.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

PASSWORD = "correct horse battery staple"


def make_player(django_user_model, username: str):
    return django_user_model.objects.create_user(username=username, password=PASSWORD, email=f"{username}@example.com")


@pytest.fixture
def alice(django_user_model):
    return make_player(django_user_model, "alice")


@pytest.fixture
def bob(django_user_model):
    return make_player(django_user_model, "bob")


@pytest.fixture
def carol(django_user_model):
    return make_player(django_user_model, "carol")
