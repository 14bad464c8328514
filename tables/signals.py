from django.db.models.signals import post_save
from django.dispatch import receiver

from tables.models import Seat, Table


@receiver(post_save, sender=Table, dispatch_uid="tables.ensure_seats")
def ensure_seats(
    sender, instance: Table, created: bool, raw: bool = False, update_fields=None, **kwargs
) -> None:
    # However a table is made (lobby, admin, demo), it has its seat rows;
    # raising seat_count later adds the missing ones. The services' saves of
    # the live state (update_fields without seat_count) need no look.
    if raw or (not created and update_fields is not None and "seat_count" not in update_fields):
        return
    existing = set(instance.seats.values_list("number", flat=True))
    Seat.objects.bulk_create(
        Seat(table=instance, number=n) for n in range(1, instance.seat_count + 1) if n not in existing
    )
