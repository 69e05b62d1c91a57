"""Demo users and a game in progress, for `make run`. Idempotent: run it as often as you like."""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from games import engine, services
from games.models import Game, Move
from powergrid.bots import HeuristicBot

DEMO_USERS = [
    ("alice", "Alice", "en"),
    ("bob", "Bob", "en"),
    ("carol", "Carol", "ja"),
    ("dave", "Dave", "en"),
]
DEMO_MOVES = 12


def demo_password(username: str) -> str:
    return f"{username}-power-grid"


class Command(BaseCommand):
    help = "Creates demo users alice/bob/carol/dave and a game in progress (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--moves", type=int, default=DEMO_MOVES)
        parser.add_argument("--quiet", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        users = []
        for username, display, lang in DEMO_USERS:
            user = User.objects.filter(username=username).first()
            if user is None:
                user = User.objects.create_user(
                    username=username,
                    email=f"{username}@example.com",
                    password=demo_password(username),
                )

                EmailAddress.objects.get_or_create(
                    user=user, email=user.email, defaults={"verified": True, "primary": True}
                )
            profile = user.profile
            if not profile.display_name:
                profile.display_name = display
                profile.language = lang
                profile.timezone = "Asia/Tokyo" if lang == "ja" else "Europe/Berlin"
                profile.save()
            users.append(user)

        game = (
            Game.objects.filter(creator=users[0], seats__user=users[3])
            .exclude(status=Game.Status.OPEN)
            .order_by("pk")
            .first()
        )
        if game is None:
            game = self._demo_game(users, options["moves"])
        if not options["quiet"]:
            site = settings.SITE_URL
            self.stdout.write("Demo logins (username / password):")
            for u in users:
                self.stdout.write(f"  {u.username:6} / {demo_password(u.username)}")
            self.stdout.write(f"Demo game {game.pk} ({game.map}, move {game.seq}):")
            self.stdout.write(f"  {site}/games/{game.pk}/   API {site}/api/v1/games/{game.pk}/")

    def _demo_game(self, users: list[User], moves: int) -> Game:

        with transaction.atomic():
            game = services.game_create(
                creator=users[0], map="germany", max_players=4, options={"turn_hours": 48}
            )
            for u in users[1:]:
                services.game_join(game_id=game.pk, user=u)
            game.refresh_from_db()  # the last join started it (auto_start)
        bot = HeuristicBot()
        for _ in range(moves):
            game.refresh_from_db()
            if game.status != Game.Status.RUNNING or not game.to_act:
                break
            state = engine.from_json(game.state_json)
            seat = game.to_act[0]
            services.move_apply_system(
                game=game, seat=seat, action=bot.choose(state, seat), source=Move.Source.BOT
            )
        game.refresh_from_db()
        return game
