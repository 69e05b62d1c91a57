"""Emails to locmem, Celery publishing recorded (tests/games/outbox_stubs.py)."""

from outbox_stubs import _mail_and_tasks, published  # noqa: F401 - fixtures
