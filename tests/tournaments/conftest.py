"""Fixtures for tournament tests: players, and playing a table's game out with bots."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest

_names = itertools.count(1)


@pytest.fixture
def make_user(db: Any) -> Callable[..., Any]:
    from django.contrib.auth import get_user_model

    def make(name: str = "") -> Any:
        name = name or f"entrant{next(_names)}"
        return get_user_model().objects.create_user(
            username=name, email=f"{name}@example.com", password="pw-for-tests-1"
        )

    return make


@pytest.fixture
def tables_inline(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Celery publishing in this process: a ``table_make`` task (queued after a round's commit)
    runs at once, as a worker would run it; any other task is recorded, not run (its names)."""
    from games import queue
    from tournaments import services, tasks

    published: list[str] = []

    def publish(name: str, *args: Any, **kwargs: Any) -> None:
        published.append(name)
        if name == services.TABLE_MAKE:
            tasks.table_make(*args, **kwargs)

    monkeypatch.setattr(queue, "publish", publish)
    return published
