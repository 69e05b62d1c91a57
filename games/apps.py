from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Django's documented place to connect receivers: importing the module connects them.
        # ``<id:...>`` in every URL pattern that names a row by number (games.numbers): before
        # any URL configuration is read.
        from django.urls import register_converter

        from games import receivers  # noqa: F401
        from games.numbers import IdConverter

        register_converter(IdConverter, "id")
