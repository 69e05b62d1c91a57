"""With the production cache (Redis) a game's checkpoints (games.checkpoints) outlive the
process that wrote them: a past state read in another process (another web worker, the same one
after a restart or a deploy) replays from the nearest checkpoint, not from the start, and is the
plain replay's; with each process's own memory it would replay everything again."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REDIS_DB = 12
GAME = -40  # a number no real game has: these keys are this test's alone

CODE = """
import sys
import django
django.setup()
import powergrid
from games import checkpoints, engine
from powergrid.heuristic import HeuristicBot

bot = HeuristicBot()
first = state = powergrid.new_game(map="germany", players=4, seed=7)
log = []
for seq in range(1, 101):
    seat = powergrid.to_act(state)[0]
    action = bot.choose(state, seat)
    log.append((seq, seat, action, seq))
    state = powergrid.apply(state, seat, action)
if sys.argv[1] in ("forget", "clean"):
    checkpoints.forget(GAME_ID, 100)
if sys.argv[1] == "clean":
    print(0, True)
    raise SystemExit
moves = 0
real = engine.replay
def counted(initial, entries):
    global moves
    entries = list(entries)
    moves += len(entries)
    return real(initial, entries)
engine.replay = counted
read = lambda since: [e for e in log if since <= e[0] <= 97]
got = checkpoints.state_at((GAME_ID, 7), 97, read, lambda: first)
engine.replay = real
plain = engine.replay(first, [e[:3] for e in log[:97]])
print(moves, engine.to_json(got) == engine.to_json(plain))
""".replace("GAME_ID", str(GAME))


def _redis_up() -> bool:
    try:
        import redis

        return bool(redis.Redis(host="127.0.0.1", port=6379, db=REDIS_DB, socket_timeout=1).ping())
    except Exception:
        return False


def _run(cache_url: str, *args: str) -> tuple[int, bool]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), DJANGO_SETTINGS_MODULE="config.settings")
    env.update(CACHE_URL=cache_url)
    out = subprocess.run(
        [sys.executable, "-c", CODE, *args], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    moves, same = out.stdout.split()
    return int(moves), same == "True"


def test_a_past_state_in_another_process_starts_from_the_checkpoints_it_wrote():
    if not _redis_up():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true but Redis does not answer on 127.0.0.1:6379")
        pytest.skip("Redis is not running")
    url = f"redis://127.0.0.1:6379/{REDIS_DB}"
    try:
        assert _run(url, "forget") == (97, True)  # nothing kept yet: the whole log
        assert _run(url, "keep") == (17, True)  # another process: from checkpoint 80
        assert _run("locmemcache://", "keep") == (97, True)  # a process's memory alone
    finally:
        _run(url, "clean")
