"""Logging filters.

``PeriodicAtDebug``: under `make run` (the worker manage.py devserver starts sets
QUIET_PERIODIC_TASK_LOGS) the beat sends a periodic task every 30 seconds
(``CELERY_BEAT_SCHEDULE``) and the worker logs each one received and succeeded, at INFO: within
a minute those lines scrolled `make run`'s banner (the logins, the mailbox's address) out of
view. Lines about a periodic task count as DEBUG: shown only when the log level is DEBUG. Lines
about any other task (a move, an email) stay.
"""

from __future__ import annotations

import logging

from django.conf import settings


class PeriodicAtDebug(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.INFO or logging.getLogger().isEnabledFor(logging.DEBUG):
            return True
        text = record.getMessage()
        return not any(
            entry["task"] in text or name in text
            for name, entry in settings.CELERY_BEAT_SCHEDULE.items()
        )
