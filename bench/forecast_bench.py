"""Benchmark: the finish forecast of a game under way (``games.forecast.forecast``), which every
view of a running game's page and ``GET /api/v1/games/{id}/forecast/`` compute.

Each reply is timed from when its seat was awaited, which replays the move log through the
engine (``games.players.replay_awaited``); the figures are kept per game until its next move
(``games.forecast.reply_hours``). The bench prints, alternating in the same run, the forecast of
the first view after a move (the log read and replayed), the same without the replay (each reply
timed from the move before, the old measure and the fallback), and a later view (kept).

    .venv/bin/python bench/forecast_bench.py [--players 6] [--runs 40]

PostgreSQL, DEBUG off (bench/_djangobench.py). The game is played by the heuristic bot through
the move service as if by people (source ``web``), until step 3.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--runs", type=int, default=40)
    args = ap.parse_args()
    os.environ.setdefault("CELERY_BROKER_URL", "memory://")  # the moves' emails: not measured
    import _djangobench

    _djangobench.setup()
    try:
        _bench(args)
    finally:
        _djangobench.teardown()


def _bench(args: argparse.Namespace) -> None:
    from django.contrib.auth import get_user_model

    from games import forecast as fc
    from games import selectors, services
    from powergrid.bots import HeuristicBot

    User = get_user_model()
    users = [User.objects.create_user(f"fc{i}", password="x") for i in range(args.players)]
    game = services.game_create(creator=users[0], map="germany", max_players=args.players)
    for u in users[1:]:
        services.game_join(game_id=game.pk, user=u)
    bot = HeuristicBot()
    while True:
        game = selectors.game_get(game_id=game.pk)
        state = selectors.game_engine_state(game)
        if state.step == 3 or state.phase == "finished":
            break
        seat = game.to_act[0]
        action = bot.choose(state, seat)
        services.move_submit(
            game_id=game.pk, user=users[seat], action=action, expected_seq=game.seq, source="web"
        )
    print(f"game: germany, {args.players} players, round {state.round}, {game.seq} moves")

    replayed = fc._awaited_since
    ways = ("first view after a move", "first view, old measure", "later views (kept)")
    timings: dict[str, list[float]] = {w: [] for w in ways}
    for i in range(args.runs * len(ways)):
        way = ways[i % len(ways)]
        if way != ways[2]:
            fc._cache.clear()  # as after a move: the figures are read from the log again
        fc._awaited_since = (lambda *a, **k: {}) if way == ways[1] else replayed
        t = time.perf_counter()
        result = fc.forecast(game)
        timings[way].append((time.perf_counter() - t) * 1000)
        assert result is not None, (game.status, bool(game.state_json))
    fc._awaited_since = replayed
    for way, times in timings.items():
        times.sort()
        print(
            f"forecast, {way:24s} median {statistics.median(times):6.2f} ms"
            f" | p90 {times[int(len(times) * 0.9) - 1]:6.2f} ms"
        )


if __name__ == "__main__":
    main()
