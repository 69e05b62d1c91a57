"""Celery tasks: each loads by id (or takes nothing) and calls one service.

Redelivery is safe for all of them (acks_late): sending claims each row with a conditional update,
the sweeps lock with SKIP LOCKED and re-check under the lock, and system moves pass expected_seq.
"""

from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import worker_process_init, worker_ready

from games import health, queue
from games.deadlines import sweep
from games.inbox import intake
from games.notifications import digest, sending
from games.push import sending as push_sending
from games.services import open_sweep, practice
from games.webhooks import sending as webhook_sending

log = logging.getLogger(__name__)


@worker_ready.connect
@worker_process_init.connect
def _warm_up(**_kwargs: object) -> None:
    try:
        sending.warm_up()
    except Exception:  # never keep a worker from starting
        log.exception("warm-up failed")


# The on-commit tasks send the rows they were queued for and fill their batch with whatever else is
# waiting (``drain``): under a burst the first tasks send everything in batches of
# NOTIFY_BATCH_SIZE, the later ones find their rows taken (one cheap claim statement each).


@shared_task(name=queue.NOTIFICATIONS_SEND, acks_late=True, ignore_result=True)
def notifications_send(ids: list[int]) -> dict[str, int]:
    return sending.notifications_send(ids=list(ids), drain=True)


@shared_task(name=queue.NOTIFICATIONS_SEND_GAME, acks_late=True, ignore_result=True)
def notifications_send_game(game_id: int) -> dict[str, int]:
    return sending.notifications_send_game(game_id=game_id, drain=True)


@shared_task(name=queue.OUTBOX_SWEEP, acks_late=True, ignore_result=True)
def outbox_sweep() -> dict[str, int]:
    return sending.outbox_sweep()


@shared_task(name=queue.DEADLINES_SWEEP, acks_late=True, ignore_result=True)
def deadlines_sweep(helpers: int | None = None) -> dict[str, int]:
    """The periodic sweep (``helpers`` None), or a helper another sweep started because it found
    a full chunk: up to ``DEADLINE_SWEEP_PARALLEL`` sweeps then share the due games."""
    left = sweep.sweep_parallel() - 1 if helpers is None else helpers

    def ask_for_help() -> None:
        if left <= 0:
            return
        try:
            queue.publish(queue.DEADLINES_SWEEP, helpers=left - 1)
        except Exception:  # broker down: this sweep goes on alone
            log.warning("could not start a helper sweep")

    report = sweep.deadlines_sweep(on_full_chunk=ask_for_help)
    health.sweep_ran()
    return {"found": report.found, "games": report.handled_games, "moves": report.moves}


@shared_task(name=queue.GAME_PLAY_DUE, acks_late=True, ignore_result=True)
def game_play_due(game_id: int) -> int:
    return sweep.game_handle_due(game_id=game_id, wait=True)


@shared_task(name=queue.REMINDERS_QUEUE, acks_late=True, ignore_result=True)
def reminders_queue() -> int:
    return sweep.reminders_queue()


@shared_task(name=queue.DIGESTS_QUEUE, acks_late=True, ignore_result=True)
def digests_queue() -> int:
    return digest.digests_queue()


@shared_task(name=queue.WEBHOOKS_SEND, acks_late=True, ignore_result=True)
def webhooks_send(ids: list[int]) -> dict[str, int]:
    return webhook_sending.deliveries_send(ids)


@shared_task(name=queue.WEBHOOKS_SWEEP, acks_late=True, ignore_result=True)
def webhooks_sweep() -> dict[str, int]:
    return webhook_sending.deliveries_send()


@shared_task(name=queue.PRACTICE_PURGE, acks_late=True, ignore_result=True)
def practice_purge() -> int:
    return practice.practice_purge()


@shared_task(name=queue.PUSH_SEND, acks_late=True, ignore_result=True)
def push_send(ids: list[int], game_id: int | None = None) -> dict[str, int]:
    return push_sending.push_send(ids=list(ids) or None, game_id=game_id)


@shared_task(name=queue.PUSH_SWEEP, acks_late=True, ignore_result=True)
def push_sweep() -> dict[str, int]:
    return push_sending.push_sweep()


@shared_task(name=queue.OPEN_GAMES_SWEEP, acks_late=True, ignore_result=True)
def open_games_sweep() -> dict[str, int]:
    return open_sweep.open_games_sweep()


@shared_task(name=queue.INBOUND_PROCESS, acks_late=True, ignore_result=True)
def inbound_process(row_id: int) -> str:
    return intake.inbound_process(row_id)


@shared_task(name=queue.INBOUND_SWEEP, acks_late=True, ignore_result=True)
def inbound_sweep() -> int:
    return intake.inbound_sweep()
