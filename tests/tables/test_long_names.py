"""Names and labels made from a 150-character username fit their columns (issue 15); run on PostgreSQL too.

SQLite stores an over-long value and PostgreSQL refuses the row, so these
tests are what CI's PostgreSQL pass checks:
DATABASE_URL=postgres://postgres@127.0.0.1:5432/test CONN_MAX_AGE=0 pytest tests/tables/test_long_names.py
"""

from __future__ import annotations

import pytest

from accounts import ledger
from accounts.models import AccountKind, LedgerAccount, User, fit_to_field
from accounts.services import create_player
from tables.play import services
from tests.conftest import PASSWORD
from tests.tables.conftest import make_table

pytestmark = pytest.mark.django_db

LONGEST = User._meta.get_field("username").max_length
LABEL = LedgerAccount._meta.get_field("label").max_length


@pytest.fixture
def longest_name() -> User:
    return create_player("a" * (LONGEST - 5) + "alice", PASSWORD)


def test_it_cuts_a_text_to_its_field_with_an_ellipsis():
    assert fit_to_field(LedgerAccount, "label", "short") == "short"
    cut = fit_to_field(LedgerAccount, "label", "x" * 300)
    assert len(cut) == LABEL and cut.endswith("…")
    assert fit_to_field(LedgerAccount, "label", "y" * LABEL) == "y" * LABEL


def test_a_long_usernames_bankroll_label_fits(longest_name):
    bankroll = ledger.bankroll_of(longest_name)
    bankroll.refresh_from_db()
    assert len(bankroll.label) == LABEL and bankroll.label.startswith("aaaa")
    assert bankroll.balance > 0


def test_a_long_usernames_seat_account_at_a_long_named_table_fits(longest_name):
    table = make_table("atlantic-city-multi", name="T" * 80)
    services.do_sit(table.pk, longest_name, 2)
    account = LedgerAccount.objects.get(kind=AccountKind.SEAT, user=longest_name)
    assert len(account.label) == LABEL
    assert account.label.startswith("T" * 80 + " seat 2 (aaa") and account.label.endswith("…")
    assert account.balance > 0  # the buy-in went in


def test_a_long_usernames_tables_are_named_within_the_column(longest_name):
    from tables.models import Table
    from tables.play import lobby

    limit = Table._meta.get_field("name").max_length
    solo = lobby.solo_table_for(longest_name)
    rockets = [lobby.create_rocket_table(longest_name, seats=n) for n in (1, 2)]
    for table in (solo, *rockets):
        table.refresh_from_db()
        assert len(table.name) <= limit and table.name.startswith("aaaa")
    assert len({table.name for table in rockets}) == 2
    services.do_sit(rockets[1].pk, longest_name, 1)  # its seat account's label fits too
    assert all(len(account.label) <= LABEL for account in LedgerAccount.objects.filter(user=longest_name))
