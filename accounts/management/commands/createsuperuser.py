"""Django's createsuperuser, making the account as every other way does: with a bankroll and the sign-up grant."""

from __future__ import annotations

from django.contrib.auth.management.commands import createsuperuser
from django.db import transaction
from django.db.models import Max

from accounts import ledger
from accounts.models import User


class Command(createsuperuser.Command):
    def handle(self, *args, **options) -> None:
        # Django's command saves the user through the manager; the bankroll follows in the same transaction.
        users = User.objects.using(options.get("database"))
        with transaction.atomic(using=users.db):
            last = users.aggregate(last=Max("pk"))["last"] or 0
            super().handle(*args, **options)
            for user in users.filter(pk__gt=last):
                ledger.open_bankroll(user)
