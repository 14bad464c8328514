"""Issue 14: the top-up is a loan to the seat, repaid first when it cashes out; winnings are the player's."""

import pytest

from accounts import balances
from accounts.audit import audit_ledger
from accounts.models import LedgerAccount, Transfer, TransferKind
from tables.models import RuleProfile, Seat, Table
from tables.play import services
from tests.tables.conftest import make_table, open_next_window

pytestmark = pytest.mark.django_db


def version(table) -> int:
    table.refresh_from_db()
    return table.version


def account(table, number: int) -> LedgerAccount:
    return Seat.objects.select_related("account").get(table=table, number=number).account


# A rigged shoe is never reshuffled: each test stacks every card its rounds deal.
LOSE = ["TS", "KH", "6C", "TD"]  # 16 against the dealer's 20


def lose_the_stack_and_get_a_top_up(table, user, rig, stake: int = 1) -> None:
    """Sit with `stake`, bet it all and lose (the next LOSE cards), then the next window tops the seat up."""
    services.do_sit(table.pk, user, 1, buy_in=stake)
    open_next_window(table)
    services.do_act(table.pk, user, "bet", seat=1, amount=stake, version=version(table))
    services.do_act(table.pk, user, "stand", seat=1, version=version(table))
    open_next_window(table)


def test_it_lends_the_top_up_to_the_seat(alice, rig):
    table = make_table(RuleProfile.ATLANTIC_CITY)
    rig(LOSE)
    lose_the_stack_and_get_a_top_up(table, alice, rig)
    seat_account = account(table, 1)
    assert (seat_account.balance, seat_account.credit) == (100, 100)
    assert audit_ledger().ok


def test_it_takes_the_mint_cycle_of_the_issue_no_further_than_the_chips_lost(alice, rig):
    # A one-seat Rocket Academy table: buy in 1, bet 1 and lose, get topped up, pass and leave.
    table = make_table(RuleProfile.ROCKET_ACADEMY, seat_count=1)
    bankrolls = []
    rig(LOSE * 4)
    for _ in range(4):
        lose_the_stack_and_get_a_top_up(table, alice, rig)
        services.do_act(table.pk, alice, "pass", seat=1, version=version(table))
        services.do_leave(table.pk, alice, 1)
        bankrolls.append(balances.chips_of(alice.pk)[0])
        assert audit_ledger().ok
    assert bankrolls == [999, 998, 997, 996]
    repaid = Transfer.objects.filter(kind=TransferKind.TOP_UP_REPAID)
    assert [t.amount for t in repaid] == [100] * 4
    assert {t.destination.kind for t in repaid} == {"grants"}
    assert not Transfer.objects.filter(kind=TransferKind.CASH_OUT).exists()
    assert not LedgerAccount.objects.filter(credit__gt=0).exists()


def test_it_keeps_the_winnings_made_with_top_up_chips(alice, rig):
    table = make_table(RuleProfile.ATLANTIC_CITY)
    # The whole loan on one hand, then 20 against the dealer's 18, paid even money.
    rig(LOSE + ["TS", "9H", "KC", "9D"])
    lose_the_stack_and_get_a_top_up(table, alice, rig)
    services.do_act(table.pk, alice, "bet", seat=1, amount=100, version=version(table))
    services.do_act(table.pk, alice, "stand", seat=1, version=version(table))
    assert (account(table, 1).balance, account(table, 1).credit) == (200, 100)
    services.do_leave(table.pk, alice, 1)
    assert Transfer.objects.get(kind=TransferKind.TOP_UP_REPAID).amount == 100
    cash_out = Transfer.objects.get(kind=TransferKind.CASH_OUT)
    assert cash_out.amount == 100
    assert "after repaying its 100-chip top-up" in cash_out.reason
    assert balances.chips_of(alice.pk)[0] == 1000 - 1 + 100
    assert audit_ledger().ok


def test_top_up_chips_lost_at_the_table_are_owed_no_more(alice, rig):
    table = make_table(RuleProfile.ATLANTIC_CITY)
    # Then 30 of the loan lost (16 against 20): the seat owes what it holds, 70.
    rig(LOSE + LOSE)
    lose_the_stack_and_get_a_top_up(table, alice, rig)
    services.do_act(table.pk, alice, "bet", seat=1, amount=30, version=version(table))
    services.do_act(table.pk, alice, "stand", seat=1, version=version(table))
    assert (account(table, 1).balance, account(table, 1).credit) == (70, 70)
    services.do_leave(table.pk, alice, 1)
    assert Transfer.objects.get(kind=TransferKind.TOP_UP_REPAID).amount == 70
    assert balances.chips_of(alice.pk)[0] == 999
    assert audit_ledger().ok


def test_the_loan_stays_owed_while_its_chips_are_on_the_table(alice, rig):
    table = make_table(RuleProfile.ATLANTIC_CITY)
    rig(LOSE + LOSE)
    lose_the_stack_and_get_a_top_up(table, alice, rig)
    services.do_act(table.pk, alice, "bet", seat=1, amount=100, version=version(table))
    # Mid-round the stack is 0, the credit 100: the stake is still at the table.
    assert (account(table, 1).balance, account(table, 1).credit) == (0, 100)
    assert audit_ledger().ok


@pytest.mark.ledger_broken
def test_the_audit_finds_credit_that_left_the_table(alice, rig):
    table = make_table(RuleProfile.ATLANTIC_CITY)
    rig(LOSE)
    lose_the_stack_and_get_a_top_up(table, alice, rig)
    seat_account = account(table, 1)
    LedgerAccount.objects.filter(pk=seat_account.pk).update(credit=150)
    assert any("owes a top-up of 150 but holds only 100" in problem for problem in audit_ledger().problems)
    Seat.objects.filter(pk=Seat.objects.get(account=seat_account).pk).update(player=None, account=None)
    assert any("has cashed out but still owes" in problem for problem in audit_ledger().problems)


def test_the_seat_and_the_statement_show_the_loan(client, alice, rig):
    from tables.live.pieces import whole_table

    table = make_table(RuleProfile.ATLANTIC_CITY)
    rig(LOSE)
    lose_the_stack_and_get_a_top_up(table, alice, rig)
    html, _ = whole_table(table.pk, alice)
    assert "Top-up loan 100" in html
    client.force_login(alice)
    page = client.get("/accounts/profile/").content.decode()
    assert "100 of them a top-up loan" in page
    assert "(100 lent to the seat)" in page
    services.do_leave(table.pk, alice, 1)
    page = client.get("/accounts/profile/").content.decode()
    assert "(100 repaid)" in page
    assert Table.objects.filter(pk=table.pk).exists()
