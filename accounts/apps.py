from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out
        from django.db.models.signals import pre_save

        from accounts import pauses
        from accounts.models import User
        from tables.live import sockets
        from tables.play import stopping

        # A player's open sockets close when their session stops standing.
        user_logged_out.connect(sockets.on_logged_out, dispatch_uid="tables.live.sockets.logged_out")
        pre_save.connect(sockets.on_user_saving, sender=User, dispatch_uid="tables.live.sockets.user_saving")
        # Issue 14: a break or self-exclusion closes them too, and the player's seats leave.
        pauses.pause_taken.connect(sockets.on_pause_taken, dispatch_uid="tables.live.sockets.pause_taken")
        pauses.pause_taken.connect(stopping.on_pause_taken, dispatch_uid="tables.play.stopping.pause_taken")
