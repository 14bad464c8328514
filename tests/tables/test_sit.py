import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import ledger
from accounts.audit import audit_ledger
from accounts.models import AccountKind, LedgerAccount, TransferKind
from tables.models import RuleProfile, Seat, Table
from tables.play import lobby, services
from tests.tables.conftest import make_table

pytestmark = pytest.mark.django_db


def seat(table: Table, number: int) -> Seat:
    return Seat.objects.select_related("account", "player").get(table=table, number=number)


def test_it_buys_in_100_chips_by_default(multi_table, alice):
    services.do_sit(multi_table.pk, alice, 2)
    taken = seat(multi_table, 2)
    assert taken.player == alice
    assert taken.account.balance == 100
    assert ledger.bankroll_of(alice).balance == 900
    assert taken.account.incoming.get().kind == TransferKind.BUY_IN


def test_the_player_chooses_the_buy_in(multi_table, alice):
    services.do_sit(multi_table.pk, alice, 1, buy_in=250)
    assert seat(multi_table, 1).account.balance == 250


def test_it_refuses_a_buy_in_over_the_bankroll_and_changes_nothing(multi_table, alice):
    with pytest.raises(services.TableError, match="fewer than 1001 chips"):
        services.do_sit(multi_table.pk, alice, 1, buy_in=1001)
    assert seat(multi_table, 1).player is None
    assert ledger.bankroll_of(alice).balance == 1000


def test_it_refuses_a_buy_in_under_the_minimum_bet(alice):
    table = make_table(RuleProfile.ATLANTIC_CITY_MULTI, min_bet=25)
    with pytest.raises(services.TableError, match="at least the minimum bet, 25 chips"):
        services.do_sit(table.pk, alice, 1, buy_in=10)


def test_it_refuses_a_taken_seat(multi_table, alice, bob):
    services.do_sit(multi_table.pk, alice, 1)
    with pytest.raises(services.TableError) as refused:
        services.do_sit(multi_table.pk, bob, 1)
    assert refused.value.code == "seat_taken"
    assert ledger.bankroll_of(bob).balance == 1000


def test_one_seat_per_player_except_at_rocket_academy(multi_table, alice):
    services.do_sit(multi_table.pk, alice, 1)
    with pytest.raises(services.TableError, match="already have a seat"):
        services.do_sit(multi_table.pk, alice, 2)
    rocket = make_table(RuleProfile.ROCKET_ACADEMY)
    services.do_sit(rocket.pk, alice, 1)
    services.do_sit(rocket.pk, alice, 3)
    assert list(rocket.seats.filter(player=alice).values_list("number", flat=True)) == [1, 3]


def test_a_private_table_is_for_its_owner(alice, bob):
    table = lobby.solo_table_for(alice)
    with pytest.raises(services.TableError, match="private"):
        services.do_sit(table.pk, bob, 1)


def test_sitting_at_an_idle_solo_table_opens_the_betting_window_at_once(solo_table, alice, rig):
    rig([])
    services.do_sit(solo_table.pk, alice, 1)
    solo_table.refresh_from_db()
    assert solo_table.current_round.phase == "betting"
    assert solo_table.deadline is None  # RULES.md: timers are for tables with more than one seat


def test_sitting_at_an_idle_shared_table_opens_the_window_after_the_pause(multi_table, alice, rig):
    rig([])
    services.do_sit(multi_table.pk, alice, 1)
    multi_table.refresh_from_db()
    assert multi_table.current_round is None
    assert multi_table.deadline is not None


def test_a_player_who_sits_during_a_round_waits_for_the_next_window(multi_table, alice, bob, rig):
    from tests.tables.conftest import open_next_window

    rig(["TS", "9H", "9C", "8D"])
    services.do_sit(multi_table.pk, alice, 1)
    open_next_window(multi_table)
    services.do_sit(multi_table.pk, bob, 2)
    multi_table.refresh_from_db()
    from tables.play import rounds

    assert set(rounds.load(multi_table.current_round).seats) == {1}


def test_the_race_for_the_last_seat_has_one_winner(alice, bob):
    """Two players press Sit here on the same seat: the table lock lets one through."""
    import threading

    from django.db import connection

    table = make_table(RuleProfile.ATLANTIC_CITY)
    results: dict[str, object] = {}
    barrier = threading.Barrier(2)

    def sit(player):
        try:
            barrier.wait()
            services.do_sit(table.pk, player, 1)
            results[player.username] = "seated"
        except services.TableError as error:
            results[player.username] = error.code
        finally:
            connection.close()

    threads = [threading.Thread(target=sit, args=(p,)) for p in (alice, bob)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(results.values()) == ["seat_taken", "seated"]
    winner = seat(table, 1).player.username
    assert results[winner] == "seated"
    loser = "bob" if winner == "alice" else "alice"
    assert ledger.bankroll_of(bob if loser == "bob" else alice).balance == 1000


test_the_race_for_the_last_seat_has_one_winner = pytest.mark.django_db(transaction=True)(
    test_the_race_for_the_last_seat_has_one_winner
)


def test_a_sit_click_made_before_the_seat_last_changed_hands_is_stale(multi_table, alice, bob):
    services.do_sit(multi_table.pk, alice, 1)
    multi_table.refresh_from_db()
    seen_by_bob = multi_table.version  # bob's page shows alice in seat 1 ...
    services.do_leave(multi_table.pk, alice, 1)
    services.do_sit(multi_table.pk, bob, 2)
    stale = seen_by_bob - 1  # ... but his click was queued from an older page, when seat 1 was free
    with pytest.raises(services.TableError) as refused:
        services.do_sit(multi_table.pk, bob, 1, version=stale)
    assert refused.value.code in ("stale", "already_seated")
    with pytest.raises(services.TableError) as refused:
        services.do_sit(multi_table.pk, alice, 1, version=stale)
    assert refused.value.code == "stale"
    services.do_sit(multi_table.pk, alice, 1, version=Table.objects.get(pk=multi_table.pk).version)


def test_a_table_cannot_have_more_seats_than_its_profile(db):
    from django.core.exceptions import ValidationError

    table = Table(name="t", profile=RuleProfile.INTERNET_6, seat_count=7, min_bet=1, max_bet=10)
    with pytest.raises(ValidationError, match="at most 6 seat"):
        table.full_clean()


def test_the_database_refuses_a_zero_second_timer(db):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        make_table(RuleProfile.ATLANTIC_CITY_MULTI, decision_seconds=0)


def seat_accounts(player) -> int:
    return LedgerAccount.objects.filter(kind=AccountKind.SEAT, user=player).count()


def test_it_reuses_the_seat_account_when_the_same_player_sits_there_again(multi_table, alice):
    for _ in range(100):
        services.do_sit(multi_table.pk, alice, 2)
        services.do_leave(multi_table.pk, alice, 2)
    assert seat_accounts(alice) == 1
    assert ledger.bankroll_of(alice).balance == 1000
    assert audit_ledger().ok
    call_command("audit_ledger")  # raises CommandError on any problem


def test_it_keeps_one_account_per_player_at_a_seat_that_changes_hands(multi_table, alice, bob):
    for _ in range(5):
        services.do_sit(multi_table.pk, alice, 2)
        services.do_leave(multi_table.pk, alice, 2)
        services.do_sit(multi_table.pk, bob, 2, buy_in=50)
        services.do_leave(multi_table.pk, bob, 2)
    assert (seat_accounts(alice), seat_accounts(bob)) == (1, 1)
    # The stack that comes back is the player's own, empty until the new buy-in.
    services.do_sit(multi_table.pk, bob, 2, buy_in=70)
    assert seat(multi_table, 2).account.balance == 70
    assert seat(multi_table, 2).account.user == bob
    assert audit_ledger().ok


def test_it_opens_a_new_account_when_the_old_one_is_held_at_another_seat(alice):
    table = make_table(RuleProfile.ROCKET_ACADEMY, seat_count=3)
    services.do_sit(table.pk, alice, 1)
    services.do_change_seat(table.pk, alice, 1, 3)  # the stack moves to seat 3 with her
    services.do_sit(table.pk, alice, 1, buy_in=40)
    assert seat(table, 1).account != seat(table, 3).account
    assert seat(table, 1).account.balance == 40
    assert seat_accounts(alice) == 2
    assert audit_ledger().ok


def test_a_sit_takes_a_pinned_number_of_queries(multi_table, alice, bob):
    services.do_sit(multi_table.pk, alice, 1)
    # The savepoint (BEGIN outside tests); lock the table (no round yet: the
    # window waits for the pause); the table's seats, in one read (the one
    # asked for, and how many bob holds); bob's stack at that seat from
    # before (none); a new seat account and its record; bob's bankroll; the
    # buy-in's savepoint, its two balances and its transfer, released; the
    # seat; the table's version; release. (It was 16: the seat and bob's
    # seats read apart, by the ORM.) A sit is the load test's arrival, 600
    # of them in its first ten seconds at 600 players (docs/performance.md).
    with CaptureQueriesContext(connection) as queries:
        services.do_sit(multi_table.pk, bob, 2)
    assert len(queries) == 15, "\n".join(query["sql"][:120] for query in queries)
    taken = seat(multi_table, 2)
    assert (taken.player, taken.account.balance, ledger.bankroll_of(bob).balance) == (bob, 100, 900)
