import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import ledger
from accounts.audit import audit_ledger
from accounts.models import Transfer, TransferKind
from tables.models import RuleProfile, Seat, Table
from tables.play import rounds, services
from tests.tables.conftest import make_table, open_next_window

pytestmark = pytest.mark.django_db


def version(table) -> int:
    table.refresh_from_db()
    return table.version


def stack(table, number: int) -> int:
    return Seat.objects.select_related("account").get(table=table, number=number).account.balance


def test_a_bet_moves_chips_from_the_seat_to_the_house_in_the_same_transaction(solo_table, alice, rig):
    rig(["TS", "9H", "9C", "8D"])
    services.do_sit(solo_table.pk, alice, 1)
    services.do_act(solo_table.pk, alice, "bet", seat=1, amount=10, version=version(solo_table))
    bet = Transfer.objects.get(kind=TransferKind.BET)
    assert (bet.amount, bet.source.kind, bet.destination.kind) == (10, "seat", "house")
    assert bet.round == solo_table.current_round
    assert stack(solo_table, 1) == 90


def test_a_refused_action_changes_nothing(solo_table, alice, rig):
    rig(["TS", "9H", "9C", "8D"])
    services.do_sit(solo_table.pk, alice, 1)
    before = version(solo_table)
    with pytest.raises(services.TableError) as refused:
        services.do_act(solo_table.pk, alice, "bet", seat=1, amount=101, version=before)
    assert refused.value.code == "bad_amount"
    with pytest.raises(services.TableError, match="not been dealt"):
        services.do_act(solo_table.pk, alice, "split", seat=1, version=before)
    assert version(solo_table) == before
    assert stack(solo_table, 1) == 100
    assert not Transfer.objects.filter(kind=TransferKind.BET).exists()


def test_a_bet_over_the_stack_is_refused(solo_table, alice, rig):
    rig([])
    services.do_sit(solo_table.pk, alice, 1, buy_in=20)
    with pytest.raises(services.TableError) as refused:
        services.do_act(solo_table.pk, alice, "bet", seat=1, amount=30, version=version(solo_table))
    assert refused.value.code == "bad_amount"


def test_an_insured_dealer_blackjack_pays_2_to_1(solo_table, alice, rig):
    # alice 9 7; dealer A up, K in the hole.
    rig(["9S", "AH", "7C", "KD"])
    services.do_sit(solo_table.pk, alice, 1)
    services.do_act(solo_table.pk, alice, "bet", seat=1, amount=10, version=version(solo_table))
    services.do_act(solo_table.pk, alice, "insurance", seat=1, version=version(solo_table))
    # bet 10 lost, insurance 5 wins 10 (+ its 5 back): 100 - 10 - 5 + 15 = 100
    assert stack(solo_table, 1) == 100
    assert solo_table.current_round.phase == "settled"
    assert audit_ledger().ok


def test_a_split_and_a_double_move_their_stakes(alice, rig):
    table = make_table(RuleProfile.ATLANTIC_CITY)
    # alice 8 8 splits; hand 1 gets 3 (11) and doubles onto T (21); hand 2 gets T (18) stands; dealer 6 T 9 busts.
    rig(["8S", "6H", "8C", "TD", "3H", "TC", "TS", "9D"])
    services.do_sit(table.pk, alice, 1)
    services.do_act(table.pk, alice, "bet", seat=1, amount=10, version=version(table))
    services.do_act(table.pk, alice, "split", seat=1, version=version(table))
    services.do_act(table.pk, alice, "double", seat=1, hand=0, version=version(table))
    services.do_act(table.pk, alice, "stand", seat=1, hand=1, version=version(table))
    kinds = sorted(Transfer.objects.filter(round=table.current_round).values_list("kind", "amount"))
    assert kinds == [("bet", 10), ("double", 10), ("payout", 20), ("payout", 40), ("split", 10)]
    assert stack(table, 1) == 130
    assert audit_ledger().ok


def test_surrender_returns_half_the_bet_rounded_down(alice, rig):
    table = make_table(RuleProfile.ROCKET_ACADEMY)
    rig(["TS", "9H", "6C", "8D"])
    services.do_sit(table.pk, alice, 1)
    open_next_window(table)
    services.do_act(table.pk, alice, "bet", seat=1, amount=11, version=version(table))
    services.do_act(table.pk, alice, "surrender", seat=1, version=version(table))
    assert stack(table, 1) == 94


def test_a_double_click_applies_once(solo_table, alice, rig):
    rig(["TS", "9H", "2C", "8D", "5S", "4H"])
    services.do_sit(solo_table.pk, alice, 1)
    services.do_act(solo_table.pk, alice, "bet", seat=1, amount=10, version=version(solo_table))
    clicked_at = version(solo_table)
    services.do_act(solo_table.pk, alice, "hit", seat=1, version=clicked_at)
    with pytest.raises(services.TableError) as refused:
        services.do_act(solo_table.pk, alice, "hit", seat=1, version=clicked_at)
    assert refused.value.code == "stale"
    assert len(rounds.load(solo_table.current_round).seats[1].hands[0].cards) == 3


def test_another_players_move_does_not_make_my_click_stale(multi_table, alice, bob, rig):
    rig(["TS", "5C", "9H", "9C", "6D", "8D"])
    services.do_sit(multi_table.pk, alice, 1)
    services.do_sit(multi_table.pk, bob, 2)
    open_next_window(multi_table)
    window = version(multi_table)
    services.do_act(multi_table.pk, alice, "bet", seat=1, amount=10, version=window)
    # bob's click was made against the window's version, before alice's bet landed.
    services.do_act(multi_table.pk, bob, "bet", seat=2, amount=10, version=window)
    assert rounds.load(multi_table.current_round).phase == "players"


def test_a_version_from_the_future_is_refused(solo_table, alice, rig):
    rig([])
    services.do_sit(solo_table.pk, alice, 1)
    with pytest.raises(services.TableError) as refused:
        services.do_act(solo_table.pk, alice, "bet", seat=1, amount=10, version=version(solo_table) + 5)
    assert refused.value.code == "stale"


def test_one_action_takes_a_pinned_number_of_queries(solo_table, alice, rig, django_assert_num_queries):
    rig(["5S", "9H", "2C", "8D", "3S", "9C"])
    services.do_sit(solo_table.pk, alice, 1)
    ledger.house_account()  # exists from the first bet ever placed on
    current = version(solo_table)
    # A bet (which deals): the savepoint (BEGIN outside tests); lock the table
    # (on SQLite with its round, services._lock); the seated players (the
    # player's seat among them); the round (PostgreSQL); the house account;
    # one transfer (two balance updates, the row); write the round; write the
    # table; release.
    round_read = 1 if connection.features.has_select_for_update else 0
    with django_assert_num_queries(7 + round_read + 3):
        services.do_act(solo_table.pk, alice, "bet", seat=1, amount=10, version=current)
    current = version(solo_table)
    with django_assert_num_queries(6 + round_read):  # a hit moves no chips: no house account, no transfer
        services.do_act(solo_table.pk, alice, "hit", seat=1, version=current)


def test_a_bet_reads_no_house_account_once_this_process_knows_it(
    solo_table, alice, rig, django_assert_num_queries, django_capture_on_commit_callbacks
):
    rig(["5S", "9H", "2C", "8D", "3S", "9C"])
    services.do_sit(solo_table.pk, alice, 1)
    with django_capture_on_commit_callbacks(execute=True):
        ledger.house_account()  # read, and remembered once committed
    house = ledger.house_account()
    round_read = 1 if connection.features.has_select_for_update else 0
    current = version(solo_table)
    # As above, less the house account: the savepoint, the lock, the seats, one
    # transfer (two updates, one row), the round, the table, the release.
    with django_assert_num_queries(6 + round_read + 3):
        services.do_act(solo_table.pk, alice, "bet", seat=1, amount=10, version=current)
    house.refresh_from_db()
    assert house.balance == 10 and Transfer.objects.get(kind=TransferKind.BET).destination_id == house.pk


def test_a_bets_last_statement_is_the_houses_so_other_tables_wait_least_for_its_row(solo_table, alice, rig):
    rig(["5S", "9H", "2C", "8D", "3S", "9C"])
    services.do_sit(solo_table.pk, alice, 1)
    house = ledger.house_account()
    current = version(solo_table)

    with CaptureQueriesContext(connection) as queries:
        services.do_act(solo_table.pk, alice, "bet", seat=1, amount=10, version=current)

    ran = [query["sql"] for query in queries if "SAVEPOINT" not in query["sql"].upper()]
    assert ran[-1].upper().startswith("UPDATE") and ran[-1].endswith(f'"id" = {house.pk}')
    assert sum(1 for sql in ran if sql.endswith(f'"id" = {house.pk}')) == 1
    house.refresh_from_db()
    assert house.balance == 10


def test_the_top_up_refills_an_empty_seat_as_the_window_opens(solo_table, alice, rig):
    # alice bets her whole stack of 10 and loses: 16 v dealer 20.
    rig(["TS", "KH", "6C", "TD"], [])
    services.do_sit(solo_table.pk, alice, 1, buy_in=10)
    services.do_act(solo_table.pk, alice, "bet", seat=1, amount=10, version=version(solo_table))
    services.do_act(solo_table.pk, alice, "stand", seat=1, version=version(solo_table))
    assert stack(solo_table, 1) == 0
    open_next_window(solo_table)
    solo_table.refresh_from_db()
    top_up = Transfer.objects.get(kind=TransferKind.TOP_UP)
    assert (top_up.amount, top_up.round) == (100, solo_table.current_round)
    assert stack(solo_table, 1) == 100
    assert rounds.load(solo_table.current_round).seats[1].stack == 100


def test_no_top_up_when_the_table_turns_it_off(alice, rig):
    table = make_table(RuleProfile.ATLANTIC_CITY, top_up=False)
    rig(["TS", "KH", "6C", "TD"], [])
    services.do_sit(table.pk, alice, 1, buy_in=10)
    services.do_act(table.pk, alice, "bet", seat=1, amount=10, version=version(table))
    services.do_act(table.pk, alice, "stand", seat=1, version=version(table))
    open_next_window(table)
    assert not Transfer.objects.filter(kind=TransferKind.TOP_UP).exists()


def test_a_repeated_split_is_stale_though_the_hand_has_two_cards_again(alice, rig):
    table = make_table(RuleProfile.INTERNET_7)
    # 8 8 splits; hand 1 draws another 8: a second split would be legal here (re-split to 3 hands).
    rig(["8S", "9H", "8C", "7D", "8D", "TC", "TS", "9D"])
    services.do_sit(table.pk, alice, 1)
    open_next_window(table)
    services.do_act(table.pk, alice, "bet", seat=1, amount=10, version=version(table))
    clicked_at = version(table)
    services.do_act(table.pk, alice, "split", seat=1, version=clicked_at)
    with pytest.raises(services.TableError) as refused:
        services.do_act(table.pk, alice, "split", seat=1, version=clicked_at)
    assert refused.value.code == "stale"
    assert len(rounds.load(Table.objects.get(pk=table.pk).current_round).seats[1].hands) == 2
    assert stack(table, 1) == 80


def test_a_click_after_its_deadline_is_refused_and_the_timer_default_applies(multi_table, alice, rig):
    import datetime as dt

    from django.utils import timezone

    rig(["TS", "9H", "2C", "8D", "5S"])
    services.do_sit(multi_table.pk, alice, 1)
    open_next_window(multi_table)
    services.do_act(multi_table.pk, alice, "bet", seat=1, amount=10, version=version(multi_table))
    current = version(multi_table)
    Table.objects.filter(pk=multi_table.pk).update(deadline=timezone.now() - dt.timedelta(seconds=1))
    with pytest.raises(services.TableError) as refused:
        services.do_act(multi_table.pk, alice, "hit", seat=1, version=current)
    assert refused.value.code == "late"
    engine = rounds.load(Table.objects.get(pk=multi_table.pk).current_round)
    assert [(e.kind, e.actor) for e in engine.events if e.kind in ("hit", "stand")] == [("stand", "timer")]
    assert audit_ledger().ok


def test_a_stack_below_the_minimum_bet_is_offered_only_pass(alice, rig):
    from tables.live import viewer

    table = make_table(RuleProfile.ATLANTIC_CITY, min_bet=5)
    rig(["TS", "KH", "6C", "TD"], [])  # 16 against the dealer's 20
    services.do_sit(table.pk, alice, 1, buy_in=7)
    assert [a.name for a in viewer.build(table.pk, alice).controls[0].actions] == ["bet", "pass"]
    services.do_act(table.pk, alice, "bet", seat=1, amount=5, version=version(table))
    services.do_act(table.pk, alice, "stand", seat=1, version=version(table))
    open_next_window(table)
    assert stack(table, 1) == 2  # not empty: no top-up
    control = viewer.build(table.pk, alice).controls[0]
    assert [a.name for a in control.actions] == ["pass"]
    assert "Your stack of 2 is below the minimum bet of 5" in control.note
