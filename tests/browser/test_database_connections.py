"""The database connections a test opens beside Playwright's event loop are closed with its browser."""

from __future__ import annotations

import pytest
from django.db import connections

from tables.models import Table
from tests.browser.conftest import launched_chromium

pytestmark = pytest.mark.browser


def test_a_connection_opened_while_chromium_runs_is_closed_with_it(transactional_db):
    with launched_chromium():
        # Playwright's loop runs: the connection is this context's, not the one pytest-django closes.
        beside = connections["default"]
        assert not Table.objects.exists()
        assert beside.connection is not None
    assert beside.connection is None
