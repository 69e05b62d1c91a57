"""Each task goes to the queue of its kind (games/queue.py), so that a site can give emails,
moves and webhooks workers of their own; a worker started without -Q still consumes them all."""

from __future__ import annotations

from celery import current_app

from config.celery import app
from games import queue, tasks  # noqa: F401  (registers the tasks)
from tournaments import tasks as tournament_tasks  # noqa: F401  (registers its sweep)


def _ours() -> list[str]:
    return sorted(name for name in app.tasks if name.startswith(("games.", "tournaments.")))


def test_every_task_of_ours_has_a_queue_of_its_kind():
    assert _ours(), "no task registered"
    assert set(_ours()) == set(queue.ROUTES)
    assert set(queue.ROUTES.values()) <= set(queue.QUEUES)


def test_the_router_sends_each_task_to_its_queue():
    router = current_app.amqp.router
    for name, wanted in queue.ROUTES.items():
        assert router.route({}, name)["queue"].name == wanted, name
    assert queue.ROUTES[queue.NOTIFICATIONS_SEND_GAME] == queue.EMAIL
    assert queue.ROUTES[queue.GAME_PLAY_DUE] == queue.MOVES
    assert queue.ROUTES[queue.WEBHOOKS_SEND] == queue.HOOKS


def test_a_worker_without_q_consumes_every_queue():
    declared = {q.name for q in app.amqp.queues.values()}
    assert declared == set(queue.QUEUES)


def test_beat_asks_only_for_tasks_that_have_a_queue(settings):
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in queue.ROUTES, entry
