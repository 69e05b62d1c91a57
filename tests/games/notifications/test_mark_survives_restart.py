"""Marking delivered rows survives a database restart of some seconds (marking.surviving_a_cut):
the rows were delivered, and left ``sending`` they would be sent again after the lease. One
immediate retry was not enough: scripts/season's primary restart refused connections for a
second and doubled the emails delivered in it."""

from __future__ import annotations

import pytest
from django.db import OperationalError

from games.notifications import marking


@pytest.fixture
def waits(monkeypatch):
    slept: list[float] = []
    monkeypatch.setattr(marking.time, "sleep", slept.append)
    return slept


def _write_failing(times: int) -> tuple[list[int], object]:
    calls: list[int] = []

    def write() -> None:
        calls.append(1)
        if len(calls) <= times:
            raise OperationalError("the database system is starting up")

    return calls, write


@pytest.mark.parametrize("failures", [0, 1, 3, len(marking.MARK_RETRY_DELAYS) - 1])
def test_the_mark_is_tried_until_the_database_is_back(waits, settings, failures):
    settings.NOTIFY_SENDING_LEASE_SECONDS = 300
    calls, write = _write_failing(failures)
    marking.surviving_a_cut(write)  # type: ignore[arg-type]
    assert len(calls) == failures + 1
    assert sum(waits) == sum(marking.MARK_RETRY_DELAYS[: failures + 1])


def test_it_waits_some_seconds_in_all_then_gives_up(waits, settings):
    settings.NOTIFY_SENDING_LEASE_SECONDS = 300
    calls, write = _write_failing(10**6)
    with pytest.raises(OperationalError):
        marking.surviving_a_cut(write)  # type: ignore[arg-type]
    assert 20 <= sum(waits) <= 40  # a restart's length, far from the lease
    assert len(calls) == len(marking.MARK_RETRY_DELAYS) + 1


def test_it_never_waits_past_half_the_lease(waits, settings):
    """Past the lease another worker may take the rows over: no mark that late."""
    settings.NOTIFY_SENDING_LEASE_SECONDS = 4
    _calls, write = _write_failing(10**6)
    with pytest.raises(OperationalError):
        marking.surviving_a_cut(write)  # type: ignore[arg-type]
    assert sum(waits) <= 2
