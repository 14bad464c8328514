from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.audit import register_check
        from tables import signals  # noqa: F401  (connects the receivers)
        from tables.audit import check_rounds

        register_check(check_rounds)
