"""What a committed move's journal line costs its process (games/restore/committed.py): the public
log entries made from the engine states at hand (two spectator views, no query), and the line's
append with its fdatasync, per move of a game played by default moves. Engine and file only: no
database (the line needs no query).

    .venv/bin/python bench/journal_commit_bench.py [--moves 300] [--dir /var/tmp/journal-bench]

Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.conf import settings  # noqa: E402

import powergrid  # noqa: E402
from games import engine  # noqa: E402
from games.models import Game, Move, Seat  # noqa: E402
from games.restore import committed, journal  # noqa: E402


def _ms(xs: list[float]) -> str:
    xs = sorted(xs)
    p = xs[int(len(xs) * 0.99) - 1] if len(xs) > 1 else xs[0]
    return f"p50={statistics.median(xs) * 1000:.3f} ms  p99={p * 1000:.3f} ms  n={len(xs)}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=300)
    ap.add_argument("--dir", default="")
    args = ap.parse_args()
    folder = args.dir or tempfile.mkdtemp(prefix="journal-bench-", dir="/var/tmp")
    settings.DELIVERY_JOURNAL_DIR = folder
    game = Game(pk=1, map="germany", seq=0)
    seats = [Seat(seat=i, user_id=100 + i) for i in range(4)]
    state = powergrid.new_game(map="germany", players=4, seed=7)
    made, written, played = [], [], 0
    for seq in range(1, args.moves + 1):
        if engine.is_finished(state):
            break
        seat = powergrid.to_act(state)[0]
        action = powergrid.default_action(state, seat)
        nxt = powergrid.apply(state, seat, action)
        move = Move(seq=seq, seat=seat, action=action, source="api")
        move.created_at = datetime.now(UTC)
        game.seq = seq
        t0 = time.perf_counter()
        rows = committed.entries([move], state, nxt)
        rec = committed.moves_record(game, seats, rows)
        t1 = time.perf_counter()
        journal.append_many([rec])
        t2 = time.perf_counter()
        made.append(t1 - t0)
        written.append(t2 - t1)
        state, played = nxt, seq
    print(f"journal_commit_bench: {played} moves of a 4-player game, lines in {folder}")
    print(f"  entries + line (two views, no query): {_ms(made)}")
    sync = "with fdatasync" if settings.DELIVERY_JOURNAL_SYNC else "no sync"
    print(f"  append ({sync}):                  {_ms(written)}")


if __name__ == "__main__":
    main()
