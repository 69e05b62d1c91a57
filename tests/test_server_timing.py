"""Every answer says the server's time on it: wall (``app``), the request's own CPU (``cpu``) and
the part of it spent in Python's garbage collector (``gc``); the browser walk holds ``cpu`` less
``gc`` under its budget (config.middleware.ServerTimingMiddleware)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_page_carries_its_wall_and_cpu_time():
    r = Client().get("/accounts/login/")
    header = r["Server-Timing"]
    m = re.fullmatch(r"app;dur=([\d.]+), cpu;dur=([\d.]+), gc;dur=([\d.]+)", header)
    assert m, header
    wall, cpu, in_gc = float(m.group(1)), float(m.group(2)), float(m.group(3))
    assert wall > 0
    assert 0 < cpu <= wall + 5  # a thread's CPU time fits in its wall time (clocks' grain aside)
    assert 0 <= in_gc <= cpu + 1


def test_the_cpu_time_is_the_requests_own(monkeypatch):
    """CPU time spent by the request's thread counts; time spent waiting does not."""
    import time

    from config import middleware

    def slow(request):
        time.sleep(0.05)  # waits: wall time, no CPU
        end = time.thread_time() + 0.03
        while time.thread_time() < end:  # works: CPU
            pass
        from django.http import HttpResponse

        return HttpResponse("ok")

    r = middleware.ServerTimingMiddleware(slow)(None)  # type: ignore[arg-type]
    wall, cpu, in_gc = (float(x) for x in re.findall(r"dur=([\d.]+)", r["Server-Timing"]))
    assert wall >= 80
    assert 30 <= cpu < 60
    assert in_gc < 5  # nothing was allocated: no collection


def test_a_collection_during_the_request_is_counted_as_gc(monkeypatch):
    """A full collection the request triggers is in ``cpu`` and, separately, in ``gc``."""
    import gc

    from config import middleware

    def collecting(request):
        junk = [[i] for i in range(300_000)]  # objects for the collector to walk
        gc.collect()
        del junk
        from django.http import HttpResponse

        return HttpResponse("ok")

    r = middleware.ServerTimingMiddleware(collecting)(None)  # type: ignore[arg-type]
    _wall, cpu, in_gc = (float(x) for x in re.findall(r"dur=([\d.]+)", r["Server-Timing"]))
    assert in_gc > 1
    assert in_gc <= cpu + 1
