"""Fixtures shared by the notification and deadline unit tests (imported by their conftests):
emails go to locmem and Celery publishing is recorded instead of sent (tests/integration runs a
real worker)."""

from __future__ import annotations

from typing import Any

import pytest

STUBBED_TASKS = (
    "notifications_send",
    "notifications_send_game",
    "outbox_sweep",
    "game_play_due",
    "deadlines_sweep",
)


class Published:
    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        self.kwargs: list[dict[str, Any]] = []

    def names(self) -> list[str]:
        return [c[0] for c in self.calls]


@pytest.fixture(autouse=True)
def _mail_and_tasks(settings, monkeypatch):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.SITE_URL = "https://pg.example"
    from games import queue

    published = Published()

    def fake(name, *args, **kwargs):
        short = name.rsplit(".", 1)[-1]
        assert short in STUBBED_TASKS, name
        published.calls.append((short, tuple(args)))
        published.kwargs.append(dict(kwargs))

    monkeypatch.setattr(queue, "publish", fake)
    return published


@pytest.fixture
def published(_mail_and_tasks):
    return _mail_and_tasks
