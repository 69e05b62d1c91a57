from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Django's documented place to connect receivers: importing the module connects them.
        from games import receivers  # noqa: F401
