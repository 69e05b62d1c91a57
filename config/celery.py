"""The Celery app. Broker from CELERY_BROKER_URL (default: an SQLite file in var/, no Redis needed).

Start a worker with beat inside: ``celery -A config worker -B -l info``
(``manage.py devserver`` does it).
Tasks are autodiscovered from each installed app's ``tasks.py``.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("powergrid_server")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
