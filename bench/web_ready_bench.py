"""How soon a (re)started web host answers: gunicorn on deploy/gunicorn.conf.py with the real
application, from two checkouts in turn (A B A B ...), so the figures compare in one run.

    .venv/bin/python bench/web_ready_bench.py --a /path/to/old/checkout --b . [--runs 5]
                                             [--workers 5]

For each start it prints the seconds from starting gunicorn to the first 200 on /health/
(``ready_s``: what nginx, or the season, waits for before the host takes traffic again) and to
the last worker's warm-up (``all_warm_s``), then the medians of each checkout and the ratio.
Each checkout runs with its own .venv. Needs PostgreSQL (``--database-url``, default the local
``h_bench_ready`` database, migrated by the bench). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            return r.status == 200
    except Exception:
        return False


def start_once(checkout: Path, workers: int, db: str) -> dict[str, float]:
    port = free_port()
    log = Path(tempfile.mkstemp(prefix="web-ready-", suffix=".log")[1])
    env = dict(os.environ)
    env.update(
        DATABASE_URL=db, DEBUG="False", SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1", GUNICORN_BIND=f"127.0.0.1:{port}", WEB_CONCURRENCY=str(workers),
        GUNICORN_ACCESSLOG="", CELERY_BROKER_URL="redis://127.0.0.1:6379/15",
        SECURE_SSL_REDIRECT="False",
    )  # fmt: skip
    gunicorn = checkout / ".venv" / "bin" / "gunicorn"
    t0 = time.monotonic()
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(gunicorn), "config.wsgi:application", "-c", "deploy/gunicorn.conf.py"],
            cwd=checkout, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}/health/"
        ready = None
        while time.monotonic() - t0 < 120:
            if ready is None and answers(url):
                ready = time.monotonic() - t0
            if ready is not None and log.read_text(errors="replace").count("warmed up") >= workers:
                break
            time.sleep(0.05)
        all_warm = time.monotonic() - t0
        return {"ready_s": round(ready or float("nan"), 2), "all_warm_s": round(all_warm, 2)}
    finally:
        proc.terminate()
        proc.wait(30)
        log.unlink()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", type=Path, required=True, help="checkout A (e.g. before)")
    ap.add_argument("--b", type=Path, default=Path("."), help="checkout B (e.g. after)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--workers", type=int, default=5)
    ap.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/h_bench_ready")
    args = ap.parse_args()
    a, b = args.a.resolve(), args.b.resolve()
    subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-qc", "CREATE DATABASE h_bench_ready"],
        capture_output=True,
    )
    for checkout in (a, b):
        subprocess.run(
            [str(checkout / ".venv/bin/python"), "manage.py", "migrate", "-v0"],
            cwd=checkout, env=dict(os.environ, DATABASE_URL=args.database_url), check=True,
        )  # fmt: skip
    rows: dict[str, list[dict[str, float]]] = {"A": [], "B": []}
    for i in range(args.runs):
        for name, checkout in (("A", a), ("B", b)):
            row = start_once(checkout, args.workers, args.database_url)
            rows[name].append(row)
            print(json.dumps({"run": i, "checkout": name, **row}), flush=True)
    summary = {}
    for name in rows:
        summary[name] = {
            k: statistics.median(r[k] for r in rows[name]) for k in ("ready_s", "all_warm_s")
        }
    ratios = [ra["ready_s"] / rb["ready_s"] for ra, rb in zip(rows["A"], rows["B"], strict=True)]
    print(json.dumps({"workers": args.workers, "cores": os.cpu_count(), "A": str(a), "B": str(b),
                      "median": summary, "ready_ratio_a_over_b_median": round(
                          statistics.median(ratios), 2)}))  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
