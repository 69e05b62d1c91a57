"""Practice against the bots: one person and two bot seats play a whole game; the bots' moves are
made by a real Celery worker on Redis (source ``bot``), within seconds of their turn."""

from __future__ import annotations

import contextlib
import time

import pytest
from livehelpers import make_users, wait_for

pytestmark = [pytest.mark.integration]


def test_a_whole_game_against_two_bots(pg_db, workers, smtp_sink, settings_for_integration):
    import powergrid
    from games import services
    from games.models import Game, Move, Seat
    from games.services.errors import StaleState
    from games.services.moves import move_submit

    workers("w1")
    (human,) = make_users(1)
    game = services.game_create(creator=human, map="germany", max_players=3)
    services.game_bot_add(game_id=game.pk, user=human, kind="heuristic")
    services.game_bot_add(game_id=game.pk, user=human, kind="random")
    me = Seat.objects.get(game=game, user=human).seat
    waits: list[float] = []
    for _ in range(2000):
        g = Game.objects.get(pk=game.pk)
        if g.status == "finished":
            break
        if me in g.to_act:
            state = powergrid.from_json(g.state_json)
            # Phase 5: a bot may move at the same moment (stale: look again).
            with contextlib.suppress(StaleState):
                move_submit(game_id=g.pk, user=human, expected_seq=g.seq, source="web",
                            action=powergrid.default_action(state, me))  # fmt: skip
            continue
        t0 = time.time()
        seq = g.seq
        wait_for(lambda s=seq: Game.objects.get(pk=game.pk).seq > s, 60, 0.01,
                 what="a bot's move by the worker")  # fmt: skip
        waits.append(time.time() - t0)
    g = Game.objects.get(pk=game.pk)
    assert g.status == "finished"
    sources = set(Move.objects.filter(game=g).exclude(seat=me).values_list("source", flat=True))
    assert sources == {"bot"}
    waits.sort()
    print(f"bot move after its turn came: p50 {waits[len(waits) // 2] * 1000:.0f} ms, "
          f"max {waits[-1] * 1000:.0f} ms over {len(waits)} waits")  # fmt: skip
    assert waits[-1] < 10
