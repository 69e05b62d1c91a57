from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Tournaments and leagues: tables of 3-6 seated by ``tournaments.seating``, scored by
    ``tournaments.scoring``; a round's games are ordinary games (``games.services.lobby``)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from games.web import part_of
        from tournaments import game_links, receivers  # noqa: F401  (connects the game-end hook)

        part_of.register(game_links.MADE_FOR, game_links.tournament_of)
