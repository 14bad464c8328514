"""Every open websocket of a player, reachable at once: one channel-layer group per user.

A player's sockets join `user_group(user_id)` when they open, through their
process's audience (tables.live.audience), whose channel stands for all of
them. When the account's standing changes (they log out, change or reset
their password, their account is deactivated, they take a break),
`close_sockets_of` tells every process to close them, after the change
commits, and each socket refuses whatever it receives from then on.
"""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from tables.play import timers

# The close code a socket gets when its player's session no longer stands;
# the htmx extension does not retry it, and the page says why.
CLOSE_SIGNED_OUT = 4401
EVENT = "user.signed_out"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def close_sockets_of(user_id: int | None, reason: str = "signed out") -> None:
    """Close every open socket of `user_id`, in every process, once the current transaction commits."""
    if user_id is None:
        return
    transaction.on_commit(lambda: _send_close(user_id, reason))


def _send_close(user_id: int, reason: str) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    # The player's id: the process's audience hears every player's group on one channel.
    event = {"type": EVENT, "reason": reason, "user": user_id}
    # In a server, sent from its event loop while this thread goes on; elsewhere, here and now.
    if not timers.run_soon(layer.group_send, user_group(user_id), event):
        async_to_sync(layer.group_send)(user_group(user_id), event)


def on_logged_out(sender: object, request: object, user: object, **kwargs: object) -> None:
    """A receiver of `user_logged_out`: that player's sockets close with their session."""
    close_sockets_of(getattr(user, "pk", None), "signed out")


def on_pause_taken(sender: object, user: object, **kwargs: object) -> None:
    """A receiver of accounts.pauses.pause_taken: a break closes the player's sockets."""
    close_sockets_of(getattr(user, "pk", None), "taking a break")


def on_user_saving(sender: object, instance: object, **kwargs: object) -> None:
    """A receiver of the user's `pre_save`: a new password or a deactivated account closes their sockets.

    `AbstractBaseUser.set_password` keeps the new raw password in `_password`
    until the save, whoever calls it: the password-change and reset views,
    the admin, `changepassword`.
    """
    if instance.pk is None or kwargs.get("raw"):
        return
    if getattr(instance, "_password", None) is not None:
        close_sockets_of(instance.pk, "password changed")
    elif not getattr(instance, "is_active", True):
        close_sockets_of(instance.pk, "account deactivated")
