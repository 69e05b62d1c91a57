"""The Celery app. Broker from CELERY_BROKER_URL (default: an SQLite file in var/, no Redis needed).

Start a worker with beat inside: ``celery -A config worker -B -l info``
(``manage.py devserver`` does it).
Tasks are autodiscovered from each installed app's ``tasks.py``.
"""

import os

from celery import Celery
from celery.signals import task_prerun
from kombu import Queue

from games import queue

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("powergrid_server")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Each task goes to the queue of its kind (games/queue.py); a worker without -Q consumes them all,
# `-Q email` only the emails (deploy/systemd/powergrid-queue@.service).
app.conf.task_queues = [Queue(name) for name in queue.QUEUES]
app.conf.task_routes = {task: {"queue": name} for task, name in queue.ROUTES.items()}


@task_prerun.connect
def close_unusable_connections(**_: object) -> None:
    """Before each task, what Django does before each request.

    With CELERY_DB_REUSE_MAX a worker keeps its connection from task to task, and Celery then
    no longer closes it: one broken by a database restart, or in error after a failed task, would
    fail the next tasks. This closes such a connection (and one older than CONN_MAX_AGE); with
    CONN_HEALTH_CHECKS a reused connection is checked before its first query.
    """
    from django.db import close_old_connections

    close_old_connections()
