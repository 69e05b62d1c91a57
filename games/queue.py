"""Queueing Celery tasks by name.

Services, the outbox and the turn hook queue work here without importing ``games.tasks``, which
imports them (its tasks call the services): sending by name keeps every import pointing down.
The names are the tasks' own (``games/tasks.py`` registers each under the constant below); a test
checks that every name here is a registered task.

Publishing happens in the request that made the move: a broker that is down must not make the
player wait (one quick retry, then the caller logs and the periodic sweeps pick the work up).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from celery import current_app

NOTIFICATIONS_SEND = "games.tasks.notifications_send"
NOTIFICATIONS_SEND_GAME = "games.tasks.notifications_send_game"
OUTBOX_SWEEP = "games.tasks.outbox_sweep"
DEADLINES_SWEEP = "games.tasks.deadlines_sweep"
GAME_PLAY_DUE = "games.tasks.game_play_due"
WEBHOOKS_SEND = "games.tasks.webhooks_send"
WEBHOOKS_SWEEP = "games.tasks.webhooks_sweep"
REMINDERS_QUEUE = "games.tasks.reminders_queue"
DIGESTS_QUEUE = "games.tasks.digests_queue"
PRACTICE_PURGE = "games.tasks.practice_purge"
PUSH_SEND = "games.tasks.push_send"
PUSH_SWEEP = "games.tasks.push_sweep"
OPEN_GAMES_SWEEP = "games.tasks.open_games_sweep"
INBOUND_PROCESS = "games.tasks.inbound_process"
INBOUND_SWEEP = "games.tasks.inbound_sweep"

# Queues, so that each kind of work can get workers of its own as the site grows
# (deploy/OPERATIONS.md, "Capacity"): emails are many and quick; moves (deadline defaults and
# bot turns) cost engine CPU; webhooks wait on other people's servers (up to
# WEBHOOK_TIMEOUT_SECONDS each). A worker started without ``-Q`` consumes every queue below
# (config/celery.py declares them), so one worker kind still does everything on a small site.
EMAIL = "email"
MOVES = "moves"
HOOKS = "hooks"
DEFAULT = "celery"  # Celery's own default: anything not routed (none of ours today)
QUEUES = (EMAIL, MOVES, HOOKS, DEFAULT)

ROUTES: dict[str, str] = {
    NOTIFICATIONS_SEND: EMAIL,
    NOTIFICATIONS_SEND_GAME: EMAIL,
    OUTBOX_SWEEP: EMAIL,
    REMINDERS_QUEUE: EMAIL,
    DIGESTS_QUEUE: EMAIL,
    DEADLINES_SWEEP: MOVES,
    GAME_PLAY_DUE: MOVES,
    WEBHOOKS_SEND: HOOKS,
    WEBHOOKS_SWEEP: HOOKS,
    PRACTICE_PURGE: MOVES,
    # The tournaments app's periodic start and next-round check (seats games: the moves' kind).
    "tournaments.tasks.tournaments_sweep": MOVES,
    # One table's game made after its round's commit (a game's start: the moves' kind too).
    "tournaments.tasks.table_make": MOVES,
    # Push services are other people's servers, as webhooks' receivers are.
    PUSH_SEND: HOOKS,
    PUSH_SWEEP: HOOKS,
    OPEN_GAMES_SWEEP: EMAIL,
    INBOUND_PROCESS: MOVES,
    INBOUND_SWEEP: MOVES,
}

QUICK_PUBLISH: dict[str, Any] = {
    "retry": True,
    "retry_policy": {
        "max_retries": 1,
        "interval_start": 0,
        "interval_step": 0.1,
        "interval_max": 0.1,
    },
}


def publish(name: str, *args: Any, **kwargs: Any) -> None:
    """Queue the task ``name`` now (raises what the broker raises; callers decide what a broker
    that is down means for them)."""
    current_app.send_task(name, args=args, kwargs=kwargs, **QUICK_PUBLISH)


def publish_at(name: str, eta: datetime, *args: Any) -> None:
    """Queue the task ``name`` to run at ``eta`` (a worker holds it until then; raises what the
    broker raises). For waits of minutes: Redis hands an unacknowledged task again after its
    visibility timeout (an hour by default), so a far ETA would run twice."""
    current_app.send_task(name, args=args, eta=eta, **QUICK_PUBLISH)
