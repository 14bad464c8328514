"""Django's database sessions, each read with SQL built once.

Every page and every table socket opened by a signed-in player reads their
session first. The ORM builds and compiles that query anew each time: about
half a millisecond of CPU, an eighth of a socket's opening (docs/performance.md,
"Twenty-first check"). Here the read is a statement built once (casino.sql),
finding what Django's database backend finds: the session's data if its key
is known and it has not expired, else nothing (and the key is dropped, so a
new one is made if the session is saved). Saving, creating and deleting are
Django's own; the table and the stored data are the same, so sessions made
before this engine, or by Django's, read the same.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.db import connection
from django.utils import timezone

from casino import sql

_DATA = sql.statement(Session, "SELECT {session_data} FROM {table} WHERE {session_key} = %s AND {expire_date} > %s")


class SessionStore(db.SessionStore):
    def load(self) -> dict[str, Any]:
        key = self.session_key
        if key is None:
            return {}
        found = sql.fetch(_DATA(), [key, connection.ops.adapt_datetimefield_value(timezone.now())])
        if not found:
            self._session_key = None  # unknown or expired: as Django's, a save makes a new one
            return {}
        return self.decode(found[0][0])
