"""Channels' database thread, with the database connections checked once per call instead of twice.

`channels.db.database_sync_to_async` closes unusable and obsolete connections
(`django.db.close_old_connections`) both before and after every call it
hands to the thread. At a busy table that is every play, and the check is
about 2% of a play's CPU (docs/performance.md, issue 12). The check after a
call is the one that matters: it drops a connection the call left broken or
past CONN_MAX_AGE (with PostgreSQL's pool, hands it back), and marks its
health check due, so the next use of a kept connection checks it first
(`conn_health_checks`, casino/settings.py). Between two calls in quick
succession nothing has used the connection, so the check before the second
finds what the first's check after left. It is made only when the thread
has been idle for a while, when a kept connection may have aged past its
CONN_MAX_AGE meanwhile.
"""

from __future__ import annotations

import threading
import time

from asgiref.sync import SyncToAsync
from django.db import close_old_connections

# A call this long after the thread's last one checks the connections before it too.
IDLE_SECONDS = 1.0

_thread = threading.local()


class DatabaseSyncToAsync(SyncToAsync):
    """`channels.db.DatabaseSyncToAsync`, the check before a call made only after an idle spell."""

    def thread_handler(self, loop, *args, **kwargs):
        last = getattr(_thread, "last_call", None)
        if last is None or time.monotonic() - last > IDLE_SECONDS:
            close_old_connections()
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            close_old_connections()
            _thread.last_call = time.monotonic()


# Used as Channels' is: a callable, or a decorator.
database_sync_to_async = DatabaseSyncToAsync
