"""A burst of due games is shared: a sweep that finds a full chunk starts a helper sweep on
another worker (up to DEADLINE_SWEEP_PARALLEL at once), which takes the next chunks."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from duegames import started_games as _games

from games import queue, tasks
from games.deadlines import sweep
from games.models import Move, Seat

pytestmark = pytest.mark.django_db


def _when_due():
    latest = max(Seat.objects.filter(deadline__isnull=False).values_list("deadline", flat=True))
    return time_machine.travel(latest + timedelta(minutes=1), tick=False)


def test_a_full_chunk_asks_for_help_once(settings):
    settings.DEADLINE_SWEEP_CHUNK = 2
    _games(5)
    calls: list[int] = []
    with _when_due():
        report = sweep.deadlines_sweep(on_full_chunk=lambda: calls.append(1))
    assert report.moves == 5
    assert calls == [1]


def test_fewer_than_a_chunk_due_goes_alone(settings):
    settings.DEADLINE_SWEEP_CHUNK = 10
    _games(3)
    calls: list[int] = []
    with _when_due():
        assert sweep.deadlines_sweep(on_full_chunk=lambda: calls.append(1)).moves == 3
    assert calls == []


@pytest.mark.parametrize(("parallel", "helpers", "started"), [(2, None, [0]), (3, None, [1]),
                                                                (3, 1, [0]), (2, 0, []),
                                                                (1, None, [])])  # fmt: skip
def test_the_task_starts_at_most_parallel_minus_one_helpers(
    settings, published, parallel, helpers, started
):
    settings.DEADLINE_SWEEP_CHUNK = 2
    settings.DEADLINE_SWEEP_PARALLEL = parallel
    _games(4)
    with _when_due():
        result = tasks.deadlines_sweep(helpers) if helpers is not None else tasks.deadlines_sweep()
    assert result["moves"] == 4
    assert Move.objects.filter(source="timeout").count() == 4
    sweeps = [k for n, k in zip(published.names(), published.kwargs, strict=True)
              if n == "deadlines_sweep"]  # fmt: skip
    assert [k["helpers"] for k in sweeps] == started


def test_a_broker_down_keeps_the_sweep_going(settings, monkeypatch):
    settings.DEADLINE_SWEEP_CHUNK = 2

    def down(*_a, **_k):
        raise ConnectionError("broker down")

    monkeypatch.setattr(queue, "publish", down)
    _games(4)
    with _when_due():
        assert tasks.deadlines_sweep()["moves"] == 4
