"""gunicorn settings for production; values come from the environment so one image fits every host.

Sync workers, 2 x cores + 1 of them: each request is a few milliseconds of Python (GIL-bound) around
short PostgreSQL round trips, nothing streams and nothing waits long on I/O, so processes beat
threads (gthread's threads only contend for one GIL). While one worker waits on PostgreSQL another
runs. Sync workers close the connection after each response: keep them behind a proxy (nginx) that
holds the client connections. GUNICORN_THREADS > 1 switches to gthread for slow-client set-ups.

Environment: GUNICORN_BIND (127.0.0.1:8000: reached through the nginx on this host only, since
the application trusts the X-Forwarded-For entry nginx appends, TRUSTED_PROXIES=1; with nginx on
another host bind the private address behind a firewall; the container image sets 0.0.0.0:8000),
WEB_CONCURRENCY (workers), GUNICORN_BOOT_AT_ONCE (workers that load and warm up at the same time;
the number of cores), GUNICORN_THREADS (1),
GUNICORN_TIMEOUT (30; a request running longer has its worker killed: nginx answers 502, or passes
the request to another host), GUNICORN_MAX_REQUESTS (20000; 0 = never recycle), GUNICORN_ACCESSLOG
("-" = stdout; empty = none; or a file), GUNICORN_LOG_LEVEL (info), FORWARDED_ALLOW_IPS.
"""

import fcntl
import multiprocessing
import os
import tempfile
from typing import Any

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
worker_class = "gthread" if threads > 1 else "sync"
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
# Before the worker is killed, the database gives up: a statement running past half the timeout is
# cancelled and a lock waited for past a quarter is given up, and the request answers 503 with
# Retry-After, nothing changed (config/settings.py, DATABASE_STATEMENT_TIMEOUT_MS and
# DATABASE_LOCK_TIMEOUT_MS; set in the environment to choose others, 0 for none). Set here, before
# the application is loaded, so only the web processes have them.
os.environ.setdefault("DATABASE_STATEMENT_TIMEOUT_MS", str(timeout * 1000 // 2))
os.environ.setdefault("DATABASE_LOCK_TIMEOUT_MS", str(timeout * 1000 // 4))
graceful_timeout = 20
keepalive = 5
# Recycle workers now and then so a slow leak can never take a host down. Not too often: a restart
# costs a worker's imports, its database connection and its engine-state cache (at 400 requests/s
# over 5 workers, 2000 requests was a restart every 25 s per worker).
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "20000"))
max_requests_jitter = max_requests // 10
# Each worker imports the application itself; the master never does. So a reload (SIGHUP, what
# `systemctl reload powergrid-web` sends) starts workers that import the code now on disk, and
# stops the old ones gracefully (they finish their requests). With preload_app = True the master
# would hold the old code and HUP would fork it again: a release would keep running the old
# version (tests/integration/test_gunicorn_reload.py). The cost: each worker imports Django
# itself (~1 s of CPU at start and at each max_requests recycle) and no memory is shared.
preload_app = False
accesslog = os.environ.get("GUNICORN_ACCESSLOG", "-") or None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


# A new worker imports the application and warms up (~2.7 s of CPU) before its first request. When
# a host starts, every worker does so at once, and five workers sharing two cores made the first
# of them ready only after all of them were (~7 s idle, 12-17 s on a loaded host). So at most
# boot_at_once workers (the cores) load at the same time, the others wait their turn: the first
# are ready after one worker's load, and the host answers while the rest boot. A slot is a lock
# file held from the fork to the end of the warm-up; a worker that dies releases it with its
# process (flock), and a recycled or reloaded worker takes one like any other.
boot_at_once = max(1, int(os.environ.get("GUNICORN_BOOT_AT_ONCE", multiprocessing.cpu_count())))
_boot_slots = tempfile.mkdtemp(prefix="gunicorn-boot-")


def post_fork(server: Any, worker: Any) -> None:
    """In the new worker, before it loads the application: take a boot slot, waiting if needed."""
    paths = [os.path.join(_boot_slots, f"slot{i}") for i in range(boot_at_once)]
    fds = [os.open(p, os.O_CREAT | os.O_RDWR, 0o600) for p in paths]
    held = None
    for fd in fds:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            held = fd
            break
        except BlockingIOError:
            continue
    if held is None:  # every slot busy: wait for one (spread over the slots by the worker's age)
        held = fds[worker.age % len(fds)]
        fcntl.flock(held, fcntl.LOCK_EX)
    for fd in fds:
        if fd != held:
            os.close(fd)
    worker.boot_slot = held


def _release_boot_slot(worker: Any) -> None:
    fd = getattr(worker, "boot_slot", None)
    if fd is not None:
        worker.boot_slot = None
        os.close(fd)  # closing the file releases its lock


def post_worker_init(worker: Any) -> None:
    """In each worker, after it has loaded the application and before it takes its first
    request: do the work of a first request once (config.warmup), so no player's first page in a
    new worker waits for it. Logged with what each part took. Only for the Django application
    (config.wsgi sets DJANGO_SETTINGS_MODULE when it loads); a failure is logged, not fatal."""
    try:
        if not os.environ.get("DJANGO_SETTINGS_MODULE"):
            return
        try:
            from config.warmup import warm_up

            took = warm_up()
        except Exception:  # a worker without its warm-up still serves, only slower
            worker.log.exception("warm-up failed")
            return
        parts = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in took.items())
        worker.log.info("warmed up: %s", parts)
    finally:
        _release_boot_slot(worker)
