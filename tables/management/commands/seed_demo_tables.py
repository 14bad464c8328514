from django.core.management.base import BaseCommand

from tables.play.demo import ensure_demo_tables


class Command(BaseCommand):
    help = "Create one demo table per rule profile (idempotent)."

    def handle(self, *args, **options) -> None:
        tables = ensure_demo_tables()
        self.stdout.write(f"{len(tables)} demo tables ready: " + ", ".join(t.name for t in tables))
