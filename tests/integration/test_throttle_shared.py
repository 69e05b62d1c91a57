"""With the production cache (Redis, deploy/env.example's CACHE_URL) an API throttle holds across
processes: two web processes together get no more than the rate, where each process's own memory
(the development default) would let each have it all."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REDIS_DB = 13

CODE = """
import django
django.setup()
from django.test import Client
codes = [Client(REMOTE_ADDR="203.0.113.9").get("/api/v1/maps/").status_code for _ in range(2)]
print(" ".join(map(str, codes)))
"""


def _redis_up() -> bool:
    try:
        import redis

        return bool(redis.Redis(host="127.0.0.1", port=6379, db=REDIS_DB, socket_timeout=1).ping())
    except Exception:
        return False


def _two_processes(cache_url: str) -> list[int]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), DJANGO_SETTINGS_MODULE="config.settings")
    env.update(CACHE_URL=cache_url, API_THROTTLE_ANON="3/min", ALLOWED_HOSTS="testserver")
    codes: list[int] = []
    for _ in range(2):  # one process after the other: two web workers behind a balancer
        out = subprocess.run(
            [sys.executable, "-c", CODE], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert out.returncode == 0, out.stderr
        codes += [int(c) for c in out.stdout.split()]
    return codes


def test_the_anonymous_throttle_counts_across_two_processes():
    if not _redis_up():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("CI=true but Redis does not answer on 127.0.0.1:6379")
        pytest.skip("Redis is not running")
    import redis

    r = redis.Redis(host="127.0.0.1", port=6379, db=REDIS_DB)
    r.flushdb()
    try:
        shared = _two_processes(f"redis://127.0.0.1:6379/{REDIS_DB}")
        assert shared == [200, 200, 200, 429]  # the rate (3) over both processes
        alone = _two_processes("locmemcache://")
        assert alone == [200, 200, 200, 200]  # what each process's memory alone would allow
    finally:
        r.flushdb()


def test_production_points_the_cache_at_redis():
    env = (ROOT / "deploy" / "env.example").read_text(encoding="utf-8")
    assert "\nCACHE_URL=redis://" in env
