"""Queueing Celery tasks by name.

Services, the outbox and the turn hook queue work here without importing ``games.tasks``, which
imports them (its tasks call the services): sending by name keeps every import pointing down.
The names are the tasks' own (``games/tasks.py`` registers each under the constant below); a test
checks that every name here is a registered task.

Publishing happens in the request that made the move: a broker that is down must not make the
player wait (one quick retry, then the caller logs and the periodic sweeps pick the work up).
"""

from __future__ import annotations

from typing import Any

from celery import current_app

NOTIFICATIONS_SEND = "games.tasks.notifications_send"
NOTIFICATIONS_SEND_GAME = "games.tasks.notifications_send_game"
OUTBOX_SWEEP = "games.tasks.outbox_sweep"
DEADLINES_SWEEP = "games.tasks.deadlines_sweep"
GAME_PLAY_DUE = "games.tasks.game_play_due"
WEBHOOKS_SEND = "games.tasks.webhooks_send"
WEBHOOKS_SWEEP = "games.tasks.webhooks_sweep"

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
