"""Running two-player games whose first awaited seat has a deadline (the sweeper's input)."""

from __future__ import annotations

from typing import Any


def started_games(n: int, **options: Any) -> list[int]:
    from django.contrib.auth import get_user_model

    from games.services.lobby import game_create, game_join

    User = get_user_model()
    ids = []
    for g in range(n):
        users = [
            User.objects.create_user(username=f"d{g}x{i}x{id(ids)}", email=f"d{g}{i}@example.com")
            for i in range(2)
        ]
        game = game_create(
            creator=users[0],
            map="germany",
            max_players=2,
            # Move by move: a turn's deadline (round sheets' are tests/games/sheets/).
            options={"sheets": False, **(options or {"turn_hours": 12})},
        )
        game_join(game_id=game.pk, user=users[1])
        ids.append(game.pk)
    return ids
