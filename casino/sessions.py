"""Channels' auth stack for the websockets, without its session check on every frame sent.

Channels' session wrapper saves the session, and sets its cookie, only when
an HTTP response starts (`InstanceSessionWrapper.save_message_types`). Yet
it reads the lazy session's `modified` and `is_empty()` before passing on
any message: on a table's socket, every frame each viewer is sent, about 2%
of a loaded server's time (docs/performance.md, "Eighth check"). Here those
messages go straight through; an HTTP response's start takes Channels' own
path, saves and all.
"""

from __future__ import annotations

from channels import sessions
from channels.auth import AuthMiddleware


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


def AuthMiddlewareStack(inner):  # noqa: N802 (Channels' name)
    """channels.auth.AuthMiddlewareStack, with the session wrapper above."""
    return sessions.CookieMiddleware(SessionMiddleware(AuthMiddleware(inner)))
