"""Benchmark: past states of a 6-player game at its end, as ``/state/{seq}/`` answers them
(``games.selectors.history.game_history_state_for``: the state replayed to ``seq``, then the
player's view; the history page and practice from a position read the same replay,
``games.selectors.history._state_at``).

Three positions: early (a quarter of the game), mid (half) and recent (the last moves), each
read three ways, alternating in the same run:

* from the start: the log replayed from its first move (before checkpoints);
* checkpoints, cold: none kept for the game (the first read after they were evicted, or ever):
  the replay from the start, writing each checkpoint it passes;
* checkpoints, warm: from the nearest checkpoint in the cache (``games.checkpoints``, every
  ``EVERY`` moves), as any later read in any process.

and the current position (the state cached by the process) for reference. The cache is Redis
(the production one: ``--cache-url``, a database of its own) when it answers, else the process's
memory.

    .venv/bin/python bench/past_state_bench.py [--players 6] [--runs 10]

PostgreSQL, DEBUG off (bench/_djangobench.py). The game is played to its end by the heuristic
bot through the move service.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable


def _redis_answers(url: str) -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(url, socket_timeout=1).ping())
    except Exception:
        return False


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--cache-url", default="redis://127.0.0.1:6379/14")
    args = ap.parse_args()
    os.environ.setdefault("CELERY_BROKER_URL", "memory://")
    redis_up = _redis_answers(args.cache_url)
    os.environ["CACHE_URL"] = args.cache_url if redis_up else "locmemcache://"
    import _djangobench

    _djangobench.setup()
    print(f"cache: {os.environ['CACHE_URL']}")
    try:
        _bench(args)
    finally:
        _djangobench.teardown()


def _played(players: int):  # type: ignore[no-untyped-def]
    from django.contrib.auth import get_user_model

    from games import selectors, services
    from powergrid.bots import HeuristicBot

    User = get_user_model()
    users = [User.objects.create_user(f"ps{i}", password="x") for i in range(players)]
    game = services.game_create(creator=users[0], map="germany", max_players=players)
    for u in users[1:]:
        services.game_join(game_id=game.pk, user=u)
    bot = HeuristicBot()
    while True:
        game = selectors.game_get(game_id=game.pk)
        state = selectors.game_engine_state(game)
        if state.phase == "finished" or not game.to_act:
            return selectors.game_get(game_id=game.pk), users
        seat = game.to_act[0]
        services.move_submit(
            game_id=game.pk,
            user=users[seat],
            action=bot.choose(state, seat),
            expected_seq=game.seq,
            source="web",
        )


def _timed(call: Callable[[], object]) -> float:
    t = time.perf_counter()
    call()
    return (time.perf_counter() - t) * 1000


def _bench(args: argparse.Namespace) -> None:
    from games import checkpoints, engine, selectors
    from games.selectors import history

    game, users = _played(args.players)
    viewer = users[0]
    print(
        f"game: germany, {args.players} players, {game.seq} moves, status {game.status}; "
        f"a checkpoint every {checkpoints.EVERY} moves"
    )
    checked = history._state_at
    plain = history._state_at_from_scratch
    ways = ("from the start (before)", "checkpoints, cold", "checkpoints, warm (after)")
    where = {"early": game.seq // 4, "mid": game.seq // 2, "recent": game.seq - 1}
    times: dict[tuple[str, str], list[float]] = {(p, w): [] for p in where for w in ways}
    for run in range(args.runs):
        for place, base in where.items():
            # Each run another distance from the checkpoint before (0 to EVERY - 1 moves).
            seq = max(1, base - (run * 7) % checkpoints.EVERY)
            for way in ways:
                if way == ways[1]:
                    checkpoints.forget(game.pk, game.seq)
                history._state_at = plain if way == ways[0] else checked  # type: ignore[assignment]
                try:
                    ms = _timed(lambda s=seq: history.game_history_state_for(game, viewer, s))
                finally:
                    history._state_at = checked  # type: ignore[assignment]
                times[(place, way)].append(ms)
            want = engine.to_json(plain(game, seq))
            assert engine.to_json(checked(game, seq)) == want, seq  # never other than the log
    now = [_timed(lambda: selectors.game_state_for(game, viewer)) for _ in range(args.runs)]
    print(f"{'position':20} {'way':27} {'median ms':>10} {'min':>8} {'max':>8}")
    for (place, way), ms in times.items():
        label = f"{place} (seq ~{where[place]})"
        print(f"{label:20} {way:27} {statistics.median(ms):10.1f} {min(ms):8.1f} {max(ms):8.1f}")
    print(
        f"{'current (seq ' + str(game.seq) + ')':20} {'the process cache':27} "
        f"{statistics.median(now):10.1f} {min(now):8.1f} {max(now):8.1f}"
    )


if __name__ == "__main__":
    main()
