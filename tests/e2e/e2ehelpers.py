"""Helpers for the browser tests: games brought to a given point by the engine's bot."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model

from games import selectors, services
from games.models import Game
from powergrid.bots import HeuristicBot


def users(prefix: str, n: int, password: str) -> list[Any]:
    return [
        get_user_model().objects.create_user(f"{prefix}{k}", f"{prefix}{k}@example.com", password)
        for k in range(n)
    ]


def game_played_until(
    players: list[Any], done: Callable[[Any], bool], *, map: str = "germany", max_moves: int = 400
) -> Game:
    """A game of ``players`` (seat order as they joined) that the heuristic bot plays, through the
    move service, until ``done(engine state)``."""
    game = services.game_create(creator=players[0], map=map, max_players=len(players))
    for u in players[1:]:
        services.game_join(game_id=game.pk, user=u)
    bot = HeuristicBot()
    for _ in range(max_moves):
        g = Game.objects.get(pk=game.pk)
        state = selectors.game_engine_state(g)
        if done(state):
            return g
        seat = g.to_act[0]
        services.move_submit(
            game_id=g.pk,
            user=players[seat],
            action=bot.choose(state, seat),
            expected_seq=g.seq,
            source="api",
        )
    raise AssertionError(f"the game did not get there in {max_moves} moves")
