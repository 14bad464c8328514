from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.audit import register_check
        from tables import signals  # noqa: F401  (connects the receivers)
        from tables.history.audit import check_rounds, check_top_up_credit
        from tables.live import broadcast
        from tables.play import changes, timers

        register_check(check_rounds)
        register_check(check_top_up_credit)
        # The write layer announces each committed change; the live view and the timers listen.
        changes.subscribe(broadcast.on_table_changed)
        changes.subscribe(timers.on_table_changed)
