from django.core.management.base import BaseCommand, CommandError

from accounts.audit import audit_ledger


class Command(BaseCommand):
    help = "Recompute every ledger balance from the transfers; exit non-zero on any difference."

    def handle(self, *args, **options) -> None:
        report = audit_ledger()
        self.stdout.write(
            f"{report.accounts} accounts, {report.transfers} transfers, "
            f"{report.chips_in_play} chips held by players."
        )
        if not report.ok:
            for problem in report.problems:
                self.stderr.write(problem)
            raise CommandError(f"Ledger audit failed: {len(report.problems)} problem(s).", returncode=1)
        self.stdout.write(self.style.SUCCESS("Ledger OK: every balance equals its transfers and they sum to 0."))
