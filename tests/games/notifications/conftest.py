"""Fixtures for notification/deadline tests: emails go to locmem, Celery publishing is stubbed
(these are unit tests; tests/integration runs a real worker)."""

from __future__ import annotations

from typing import Any

import pytest


class Published:
    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []

    def names(self) -> list[str]:
        return [c[0] for c in self.calls]


@pytest.fixture(autouse=True)
def _mail_and_tasks(settings, monkeypatch):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://pg.example"
    from games import tasks

    published = Published()
    for name in (
        "notifications_send",
        "notifications_send_game",
        "outbox_sweep",
        "game_play_due",
    ):
        task = getattr(tasks, name)

        def fake(args=(), _name=name, **kw):
            published.calls.append((_name, tuple(args)))

        monkeypatch.setattr(task, "apply_async", fake)
    return published


@pytest.fixture
def published(_mail_and_tasks):
    return _mail_and_tasks
