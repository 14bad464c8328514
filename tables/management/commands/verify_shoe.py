"""Rebuild a retired shoe from its revealed seed and check it against its rounds and commitment."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from tables.fairness.verification import verify_shoe
from tables.models import Shoe


class Command(BaseCommand):
    help = (
        "Verify a retired shoe: sha256(seed) equals the commitment, and replaying the recorded decisions "
        "on the shoe rebuilt from the seed gives every recorded card and payout. Exit 0 when verified, 1 when not."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("shoe_id", type=int, help="The shoe's id (admin: Tables › Shoes).")

    def handle(self, *args, shoe_id: int, **options) -> None:
        shoe = Shoe.objects.select_related("table").filter(pk=shoe_id).first()
        if shoe is None:
            raise CommandError(f"There is no shoe #{shoe_id}.", returncode=2)
        result = verify_shoe(shoe)
        self.stdout.write(result.report())
        if not result.ok:
            raise CommandError(result.verdict, returncode=1)
