"""How long ``/health/`` takes, server side, in the production configuration: PostgreSQL, Redis
as cache and broker, DEBUG off (``python bench/health_bench.py [--requests N]``).

Prints the median, p90 and max of N requests through Django's full stack (middlewares included,
no network), and the per-check milliseconds the report gives. Target: 20 ms. Needs PostgreSQL and
Redis on 127.0.0.1 (Redis database 14 is used and left as it was found: only its own keys).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("CACHE_URL", "redis://127.0.0.1:6379/14")
os.environ.setdefault("CELERY_BROKER_URL", "redis://127.0.0.1:6379/14")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")

import _djangobench  # sets the environment Django reads (after the lines above)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=300)
    args = ap.parse_args()
    db = _djangobench.setup()
    try:
        from django.conf import settings
        from django.test import Client

        c = Client()
        assert c.get("/health/json/").status_code in (200, 503)  # warm: connections, imports
        times = []
        for _ in range(args.requests):
            t0 = time.perf_counter()
            r = c.get("/health/json/")
            times.append((time.perf_counter() - t0) * 1000)
        report = r.json()
        q = statistics.quantiles(times, n=10)
        print(
            f"/health/json/ x{args.requests} ({settings.CACHES['default']['BACKEND']}, broker "
            f"{settings.CELERY_BROKER_URL.split(':')[0]}, DEBUG={settings.DEBUG}): "
            f"median {statistics.median(times):.2f} ms, p90 {q[-1]:.2f} ms, max {max(times):.2f} ms"
            f" (target <= 20 ms); status {r.status_code}, ok={report['ok']}"
        )
        print(f"database: {db.rsplit('/', 1)[-1]}; report's own time {report['ms']} ms")
    finally:
        _djangobench.teardown()


if __name__ == "__main__":
    main()
