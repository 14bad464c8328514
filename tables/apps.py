from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tables import signals  # noqa: F401  (connects the receivers)
