"""Issue 14: the limits are checked in the bet's own transaction, and a refusal changes nothing."""

import datetime as dt

import pytest
from django.utils import timezone

from accounts import limits
from accounts.audit import audit_ledger
from accounts.models import PlayLimits, Transfer, TransferKind
from tables.models import RuleProfile
from tables.play import services
from tables.play.errors import RealityCheck
from tests.tables.conftest import make_table, open_next_window

pytestmark = pytest.mark.django_db

LOSE = ["TS", "KH", "6C", "TD"]  # 16 against the dealer's 20


def version(table) -> int:
    table.refresh_from_db()
    return table.version


def test_a_bet_passing_the_loss_limit_is_refused_at_the_exact_chip(alice, rig):
    table = make_table(RuleProfile.ATLANTIC_CITY)
    rig(LOSE + ["TS", "9H", "KC", "9D"])
    limits.do_set_limits(alice, {"loss_day": 50})
    services.do_sit(table.pk, alice, 1)
    services.do_act(table.pk, alice, "bet", seat=1, amount=40, version=version(table))
    services.do_act(table.pk, alice, "stand", seat=1, version=version(table))
    open_next_window(table)
    before = (version(table), Transfer.objects.count())
    with pytest.raises(services.TableError) as refused:
        services.do_act(table.pk, alice, "bet", seat=1, amount=11, version=before[0])
    assert refused.value.code == "loss_limit"
    assert "loss limit per day of 50 chips" in refused.value.message
    assert (version(table), Transfer.objects.count()) == before
    services.do_act(table.pk, alice, "bet", seat=1, amount=10, version=before[0])
    assert Transfer.objects.filter(kind=TransferKind.BET).count() == 2
    assert audit_ledger().ok


def test_a_double_passing_the_loss_limit_is_refused(alice, rig):
    table = make_table(RuleProfile.ATLANTIC_CITY)
    rig(["6S", "9H", "5C", "8D", "TS"])  # 11 against 9: a double
    limits.do_set_limits(alice, {"loss_day": 30})
    services.do_sit(table.pk, alice, 1)
    services.do_act(table.pk, alice, "bet", seat=1, amount=20, version=version(table))
    with pytest.raises(services.TableError) as refused:
        services.do_act(table.pk, alice, "double", seat=1, version=version(table))
    assert refused.value.code == "loss_limit"
    services.do_act(table.pk, alice, "hit", seat=1, version=version(table))
    assert audit_ledger().ok


def test_when_the_session_time_is_up_the_round_finishes_and_no_bet_follows(alice, rig):
    table = make_table(RuleProfile.ATLANTIC_CITY)
    rig(["5S", "9H", "2C", "8D", "3S", "TC"] + LOSE)
    limits.do_set_limits(alice, {"session_minutes": 30})
    services.do_sit(table.pk, alice, 1)
    services.do_act(table.pk, alice, "bet", seat=1, amount=10, version=version(table))
    # The session began 31 minutes ago; its last bet was just now.
    PlayLimits.objects.filter(user=alice).update(session_started_at=timezone.now() - dt.timedelta(minutes=31))
    services.do_act(table.pk, alice, "hit", seat=1, version=version(table))
    services.do_act(table.pk, alice, "stand", seat=1, version=version(table))
    open_next_window(table)
    with pytest.raises(services.TableError) as refused:
        services.do_act(table.pk, alice, "bet", seat=1, amount=10, version=version(table))
    assert refused.value.code == "session_time"
    assert "session time limit of 30 minutes is up" in refused.value.message
    assert audit_ledger().ok


def test_a_due_reality_check_holds_the_bet(alice, rig):
    table = make_table(RuleProfile.ATLANTIC_CITY)
    rig(LOSE + LOSE)
    limits.do_set_limits(alice, {"reality_check_minutes": 15})
    services.do_sit(table.pk, alice, 1)
    services.do_act(table.pk, alice, "bet", seat=1, amount=10, version=version(table))
    services.do_act(table.pk, alice, "stand", seat=1, version=version(table))
    PlayLimits.objects.filter(user=alice).update(
        session_started_at=timezone.now() - dt.timedelta(minutes=20), reality_check_at=timezone.now()
    )
    open_next_window(table)
    with pytest.raises(RealityCheck) as due:
        services.do_act(table.pk, alice, "bet", seat=1, amount=10, version=version(table))
    assert (due.value.message.minutes, due.value.message.net) == (20, -10)
    limits.do_keep_playing(alice)
    services.do_act(table.pk, alice, "bet", seat=1, amount=10, version=version(table))
    assert audit_ledger().ok


def test_a_player_without_limits_bets_as_before(alice, rig):
    table = make_table(RuleProfile.ATLANTIC_CITY)
    rig(LOSE)
    services.do_sit(table.pk, alice, 1)
    services.do_act(table.pk, alice, "bet", seat=1, amount=100, version=version(table))
    assert not PlayLimits.objects.exists()
