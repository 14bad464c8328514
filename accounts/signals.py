from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts import ledger
from accounts.models import User


@receiver(post_save, sender=User, dispatch_uid="accounts.open_bankroll")
def open_bankroll_for_new_user(sender, instance: User, created: bool, raw: bool = False, **kwargs) -> None:
    # However a user is made (sign-up, admin, createsuperuser), they get a
    # bankroll and the sign-up grant; fixtures loaded raw bring their own.
    if created and not raw:
        ledger.open_bankroll(instance)
