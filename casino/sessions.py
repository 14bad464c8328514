"""Channels' auth stack for the websockets: no session check on every frame sent, the user read with SQL built once.

Channels' session wrapper saves the session, and sets its cookie, only when
an HTTP response starts (`InstanceSessionWrapper.save_message_types`). Yet
it reads the lazy session's `modified` and `is_empty()` before passing on
any message: on a table's socket, every frame each viewer is sent, about 2%
of a loaded server's time (docs/performance.md, "Eighth check"). Here those
messages go straight through; an HTTP response's start takes Channels' own
path, saves and all.

Opening a socket reads the session's user as Channels' `get_user` does, step
for step: the session's user id and backend, that backend (if it is still
one of AUTHENTICATION_BACKENDS) finding the user, and the session's hash
checked against the user's, the session flushed if they differ. Only the read
of the user by Django's ModelBackend is a statement built once (casino.rows)
instead of the ORM's query, with the same check that the account may sign in
(`user_can_authenticate`: not deactivated). It runs on this project's database
thread (casino.database_thread), not through Channels' hop, which checks the
connections before and after every call. With the session's own read
(casino.session_store), that is about a quarter of a socket's opening
(docs/performance.md, "Twenty-first check").
"""

from __future__ import annotations

from typing import Any

from channels import auth, sessions
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model, load_backend
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import AnonymousUser
from django.utils.crypto import constant_time_compare

from casino import rows
from casino.database_thread import database_sync_to_async


class InstanceSessionWrapper(sessions.InstanceSessionWrapper):
    async def send(self, message):
        if message["type"] not in self.save_message_types:
            return await self.real_send(message)  # never saved nor given a cookie: as Channels passes it on
        return await super().send(message)


class SessionMiddleware(sessions.SessionMiddleware):
    async def __call__(self, scope, receive, send):
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, wrapper.send)


class AuthMiddleware(auth.AuthMiddleware):
    async def resolve_scope(self, scope):
        scope["user"]._wrapped = await database_sync_to_async(signed_in_user)(scope["session"])


def signed_in_user(session) -> Any:
    """The session's user, as `channels.auth.get_user` finds them; AnonymousUser if none stands."""
    user = None
    try:
        user_id = get_user_model()._meta.pk.to_python(session[SESSION_KEY])
        backend_path = session[BACKEND_SESSION_KEY]
    except KeyError:
        pass
    else:
        if backend_path in settings.AUTHENTICATION_BACKENDS:
            user = _user(load_backend(backend_path), user_id)
            # The session stands only while the user's password (its hash) is the one it was made with.
            if hasattr(user, "get_session_auth_hash"):
                session_hash = session.get(HASH_SESSION_KEY)
                if not (session_hash and constant_time_compare(session_hash, user.get_session_auth_hash())):
                    session.flush()
                    user = None
    return user or AnonymousUser()


def _user(backend: Any, user_id: Any) -> Any:
    """`backend.get_user(user_id)`: for Django's ModelBackend itself, the same read with SQL built once."""
    if type(backend) is not ModelBackend:
        return backend.get_user(user_id)
    found = rows.select(get_user_model(), "t0.id = %s", [user_id])
    return found[0] if found and backend.user_can_authenticate(found[0]) else None


def AuthMiddlewareStack(inner):  # noqa: N802 (Channels' name)
    """channels.auth.AuthMiddlewareStack, with the session wrapper and the user's read above."""
    return sessions.CookieMiddleware(SessionMiddleware(AuthMiddleware(inner)))
