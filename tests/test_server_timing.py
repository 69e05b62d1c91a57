"""Every answer says the server's time on it: wall (``app``) and the request's own CPU (``cpu``),
which the browser walk holds under its budget (config.middleware.ServerTimingMiddleware)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_page_carries_its_wall_and_cpu_time():
    r = Client().get("/accounts/login/")
    header = r["Server-Timing"]
    m = re.fullmatch(r"app;dur=([\d.]+), cpu;dur=([\d.]+)", header)
    assert m, header
    wall, cpu = float(m.group(1)), float(m.group(2))
    assert wall > 0
    assert 0 < cpu <= wall + 5  # a thread's CPU time fits in its wall time (clocks' grain aside)


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
    wall, cpu = (float(x) for x in re.findall(r"dur=([\d.]+)", r["Server-Timing"]))
    assert wall >= 80
    assert 30 <= cpu < 60
