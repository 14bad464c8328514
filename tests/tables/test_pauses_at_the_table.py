"""Issue 14: a break at the tables: the player's seats leave, and nothing lets them sit or bet."""

import datetime as dt

import pytest
from django.utils import timezone

from accounts import pauses
from accounts.audit import audit_ledger
from accounts.models import User
from tables.models import RuleProfile, Seat
from tables.play import services
from tests.conftest import PASSWORD
from tests.tables.conftest import make_table

pytestmark = pytest.mark.django_db


def test_the_players_seats_leave_and_cash_out(alice, bob, rig, django_capture_on_commit_callbacks):
    solo = make_table(RuleProfile.ATLANTIC_CITY)
    shared = make_table(RuleProfile.ATLANTIC_CITY_MULTI)
    rig(["5S", "9H", "2C", "8D", "3S"], [])
    services.do_sit(solo.pk, alice, 1)
    services.do_sit(shared.pk, alice, 1)
    solo.refresh_from_db()
    # Mid-round at the solo table: its defaults finish the round (alice stands on 7).
    services.do_act(solo.pk, alice, "bet", seat=1, amount=10, version=solo.version)
    with django_capture_on_commit_callbacks(execute=True):
        pauses.do_take_pause(alice, "break-24h", PASSWORD)
    assert not Seat.objects.filter(player=alice).exists()
    assert audit_ledger().ok


def test_a_paused_player_can_neither_sit_nor_bet(alice, rig):
    table = make_table(RuleProfile.ATLANTIC_CITY)
    rig(["5S", "9H", "2C", "8D"])
    services.do_sit(table.pk, alice, 1)
    table.refresh_from_db()
    # Paused behind the tables' back (a break taken in another process): the bet is still refused.
    User.objects.filter(pk=alice.pk).update(paused_until=timezone.now() + dt.timedelta(days=1))
    with pytest.raises(services.TableError) as refused:
        services.do_act(table.pk, alice, "bet", seat=1, amount=10, version=table.version)
    assert refused.value.code == "paused"
    services.do_leave(table.pk, alice, 1)
    alice.refresh_from_db()
    with pytest.raises(services.TableError) as refused:
        services.do_sit(table.pk, alice, 1)
    assert refused.value.code == "paused"
