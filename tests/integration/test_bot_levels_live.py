"""A practice game at the top bot level plays to its end through a real Celery worker: every
move of the bots' seat is the worker's (source ``bot``), chosen by the level's search from the
seat's view, within the test budget (``BOT_BUDGET_SCALE`` 0.05 in the worker's environment)."""

from __future__ import annotations

import contextlib

import pytest
from livehelpers import make_users, wait_for

pytestmark = [pytest.mark.integration]


def test_a_practice_game_at_the_top_level_plays_to_the_end(
    pg_db, workers, smtp_sink, settings_for_integration
):
    from django.utils import translation

    import powergrid
    from games import selectors, services
    from games.models import Game, Move, Seat
    from games.services.errors import StaleState
    from games.services.moves import move_submit
    from games.services.practice import practice_create
    from powergrid.levels import TOP_LEVEL

    workers("w1")
    (human,) = make_users(1)
    source = services.game_create(creator=human, map="germany", max_players=2)
    services.game_bot_add(game_id=source.pk, user=human, kind="heuristic")
    assert Game.objects.get(pk=source.pk).status == "running"
    game = practice_create(user=human, game_id=source.pk, level=TOP_LEVEL)
    me = Seat.objects.get(game=game, user=human).seat
    bot_seat = Seat.objects.select_related("user__profile").get(game=game, bot_controlled=True)
    assert bot_seat.user.profile.bot_kind == TOP_LEVEL
    with translation.override("en"):
        assert selectors.seat_name(bot_seat).startswith("Expert bot")
    for _ in range(3000):
        g = Game.objects.get(pk=game.pk)
        if g.status == "finished":
            break
        if me in g.to_act:
            state = powergrid.from_json(g.state_json)
            with contextlib.suppress(StaleState):  # phase 5: the bot may move at once
                move_submit(game_id=g.pk, user=human, expected_seq=g.seq, source="web",
                            action=powergrid.default_action(state, me))  # fmt: skip
            continue
        seq = g.seq
        wait_for(lambda s=seq: Game.objects.get(pk=game.pk).seq > s, 60, 0.01,
                 what="the top level's move by the worker")  # fmt: skip
    g = Game.objects.get(pk=game.pk)
    assert g.status == "finished"
    sources = set(Move.objects.filter(game=g).exclude(seat=me).values_list("source", flat=True))
    assert sources == {"bot"}
