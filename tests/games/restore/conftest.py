"""Emails to locmem, Celery publishing recorded (tests/games/outbox_stubs.py); the delivery
journal in a folder of the test's own."""

import pytest
from outbox_stubs import _mail_and_tasks, published  # noqa: F401 - fixtures

from games.restore import journal


@pytest.fixture
def journal_dir(settings, tmp_path):
    settings.DELIVERY_JOURNAL_DIR = str(tmp_path / "journal")
    settings.DELIVERY_JOURNAL_SYNC = False
    journal._fd = None
    yield tmp_path / "journal"
    journal._fd = None
