import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from accounts import ledger
from accounts.models import Transfer, TransferKind

pytestmark = pytest.mark.django_db


@pytest.fixture
def carol_admin(carol):
    carol.is_staff = carol.is_superuser = True
    carol.save()
    return carol


def adjust(client, users, **data):
    return client.post(
        reverse("admin:accounts_user_changelist"),
        {"action": "adjust_chips", ACTION_CHECKBOX_NAME: [u.pk for u in users], **data},
    )


def test_the_admin_wears_the_sites_name(client, carol_admin, settings):
    client.force_login(carol_admin)
    html = client.get(reverse("admin:index")).content.decode()
    assert "Django administration" not in html
    assert f"<title>Tables, players and chips | {settings.SITE_NAME} admin</title>" in html
    assert f'<a href="/admin/">{settings.SITE_NAME} administration</a>' in html
    client.logout()
    login = client.get(reverse("admin:login")).content.decode()
    assert f"{settings.SITE_NAME} administration" in login and "Django administration" not in login


def test_it_lists_users_with_their_bankroll(client, carol_admin, alice):
    client.force_login(carol_admin)
    response = client.get(reverse("admin:accounts_user_changelist"))
    assert response.status_code == 200
    assert b'<td class="field-bankroll">1,000</td>' in response.content


def test_the_grant_action_asks_for_an_amount_and_a_reason(client, carol_admin, alice):
    client.force_login(carol_admin)
    response = adjust(client, [alice])
    assert response.status_code == 200
    assert b'name="reason"' in response.content
    assert Transfer.objects.filter(kind=TransferKind.ADMIN_GRANT).count() == 0


def test_the_grant_action_writes_a_transfer_with_the_reason(client, carol_admin, alice, bob):
    client.force_login(carol_admin)
    response = adjust(client, [alice, bob], apply="1", amount="250", reason="Weekend bonus")
    assert response.status_code == 302
    grants = Transfer.objects.filter(kind=TransferKind.ADMIN_GRANT).order_by("id")
    assert [(t.destination.user.username, t.amount, t.reason, t.created_by) for t in grants] == [
        ("alice", 250, "Weekend bonus", carol_admin),
        ("bob", 250, "Weekend bonus", carol_admin),
    ]
    assert ledger.bankroll_of(alice).balance == 1250


def test_a_negative_amount_is_a_correction(client, carol_admin, alice):
    client.force_login(carol_admin)
    adjust(client, [alice], apply="1", amount="-300", reason="Refund of a bug")
    correction = Transfer.objects.get(kind=TransferKind.CORRECTION)
    assert (correction.amount, correction.source, correction.reason) == (300, ledger.bankroll_of(alice), "Refund of a bug")
    assert ledger.bankroll_of(alice).balance == 700


def test_the_grant_action_refuses_a_missing_reason_and_changes_nothing(client, carol_admin, alice):
    client.force_login(carol_admin)
    response = adjust(client, [alice], apply="1", amount="100", reason="")
    assert response.status_code == 200
    assert b"This field is required" in response.content
    assert ledger.bankroll_of(alice).balance == 1000


def test_ledger_rows_cannot_be_edited_in_the_admin(client, carol_admin, alice):
    client.force_login(carol_admin)
    account = ledger.bankroll_of(alice)
    url = reverse("admin:accounts_ledgeraccount_change", args=[account.pk])
    assert client.get(url).status_code == 200  # viewable
    client.post(url, {"balance": "99999", "label": "hacked"})
    account.refresh_from_db()
    assert (account.balance, account.label) == (1000, "alice's bankroll")
    transfer = Transfer.objects.get(destination__user=alice)
    assert client.post(reverse("admin:accounts_transfer_delete", args=[transfer.pk]), {"post": "yes"}).status_code == 403
    assert client.get(reverse("admin:accounts_transfer_add")).status_code == 403


def test_transfers_can_be_filtered_and_searched(client, carol_admin, alice, bob):
    client.force_login(carol_admin)
    url = reverse("admin:accounts_transfer_changelist")
    response = client.get(url, {"q": "bob"})
    assert list(response.context["cl"].queryset) == [Transfer.objects.get(destination__user=bob)]
    response = client.get(url, {"kind": "signup_grant"})
    assert response.context["cl"].result_count == 3  # alice, bob and carol


def test_the_admin_is_for_staff_only(client, alice):
    client.force_login(alice)
    response = client.get(reverse("admin:index"))
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
