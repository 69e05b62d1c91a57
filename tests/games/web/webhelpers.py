"""Helpers for the web tests: who must move, and playing moves through the service layer."""

from __future__ import annotations

from typing import Any

from games import selectors, services
from games.models import Game


def fresh(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def actor(game: Game, users: list[Any]) -> Any:
    """The user whose move is awaited first."""
    game = fresh(game)
    seat = game.to_act[0]
    return users[seat]


def legal_for(game: Game, user: Any) -> dict[str, dict[str, Any]]:
    state = selectors.game_state_for(fresh(game), user)
    return {e["type"]: e for e in state["legal"]}


def play(game: Game, user: Any, action: dict[str, Any]) -> None:
    g = fresh(game)
    services.move_submit(game_id=g.pk, user=user, action=action, expected_seq=g.seq, source="api")


def post_move(
    client: Any, game: Game, data: dict[str, Any], *, seq: int | None = None, follow: bool = False
) -> Any:
    """POST a move form. ``follow``: on to the page it leads to (a refusal is shown there)."""
    g = fresh(game)
    body = {"expected_seq": g.seq if seq is None else seq, **data}
    return client.post(f"/games/{g.pk}/move/", body, follow=follow)


def advance(game: Game, users: list[Any], until: str, *, max_moves: int = 400) -> Game:
    """Let the heuristic bot move for whoever is awaited until the phase is ``until``."""
    from powergrid.bots import HeuristicBot

    bot = HeuristicBot()
    for _ in range(max_moves):
        g = fresh(game)
        state = selectors.game_engine_state(g)
        if state.phase == until:
            return g
        seat = g.to_act[0]
        services.move_submit(
            game_id=g.pk,
            user=users[seat],
            action=bot.choose(state, seat),
            expected_seq=g.seq,
            source="api",
        )
    raise AssertionError(f"never reached {until}")
