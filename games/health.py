"""What a load balancer or a monitor asks: is this server able to do its work?

Each check answers ``{"ok": bool, ...}`` with what it saw; ``health_report`` runs them all, each
within a short time (a broker that hangs must not hang the health page). Checked: the database
(a query), the cache (a write and a read: throttles and sessions rely on it), the broker (a
connection: moves queue their emails there), the outbox (the oldest email still waiting: a
worker that is down shows here first), the deadline sweep (its last run, which the sweep
records in the cache: beat that stopped shows here), the read replica when there is one (a
query, and how far it lags behind the primary), the last day's bounce and complaint rates
(flagged above the providers' thresholds, never failing: ``flagged`` in the report), and this
host's delivery journal (``games.restore.journal``; flagged when this process cannot append to
it, never failing: the site works, but a restore would not know what was lost since).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NotRequired, TypedDict

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.db import connection, connections
from django.db.models import Min
from django.utils import timezone

from config.replica import REPLICA, REPLICA_LAG_SQL, replica_configured
from games.mailevents import rates
from games.models import Notification
from games.restore import journal

#: The cache key where the deadline sweep records the time of its last run (epoch seconds).
SWEEP_LAST_RUN_KEY = "health:deadline_sweep_last_run"


class Check(TypedDict):
    """One check's answer: ``ok`` and what it saw (the keys of that check)."""

    ok: bool
    error: NotRequired[str]  # the exception's class, when the check failed with one
    vendor: NotRequired[str]
    backend: NotRequired[str]
    transport: NotRequired[object]
    oldest_pending_seconds: NotRequired[float]
    max_seconds: NotRequired[float]
    last_run_seconds_ago: NotRequired[float | None]
    configured: NotRequired[bool]
    lag_seconds: NotRequired[float | None]
    flagged: NotRequired[list[str]]


class MailCheck(rates.Rates):
    """The mail check: the last day's rates (``games.mailevents.rates``), always ``ok``."""

    ok: bool


class Report(TypedDict):
    ok: bool
    flagged: list[str]
    checks: dict[str, Check | MailCheck]
    ms: float


def sweep_ran(now: float | None = None) -> None:
    """Called by the deadline sweep at the end of each run."""
    cache.set(SWEEP_LAST_RUN_KEY, now if now is not None else time.time(), timeout=None)


def _database() -> Check:
    with connection.cursor() as cur:
        cur.execute("SELECT 1")
        cur.fetchone()
    return {"ok": True, "vendor": connection.vendor}


def _cache() -> Check:
    key = "health:probe"
    value = str(time.time())
    cache.set(key, value, timeout=30)
    return {"ok": cache.get(key) == value, "backend": settings.CACHES["default"]["BACKEND"]}


def _broker() -> Check:
    with current_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, timeout=2)
        return {"ok": True, "transport": conn.transport_cls}


def _outbox() -> Check:
    oldest = Notification.objects.filter(status=Notification.Status.PENDING).aggregate(
        first=Min("created_at")
    )["first"]
    age = (timezone.now() - oldest).total_seconds() if oldest is not None else 0.0
    limit = settings.HEALTH_OUTBOX_MAX_AGE_SECONDS
    return {"ok": age <= limit, "oldest_pending_seconds": round(age, 1), "max_seconds": limit}


def _sweep() -> Check:
    last = cache.get(SWEEP_LAST_RUN_KEY)
    limit = settings.HEALTH_SWEEP_MAX_AGE_SECONDS
    if last is None:  # never ran since the cache was emptied: not an error on its own
        return {"ok": True, "last_run_seconds_ago": None, "max_seconds": limit}
    ago = max(0.0, time.time() - float(last))
    return {"ok": ago <= limit, "last_run_seconds_ago": round(ago, 1), "max_seconds": limit}


# On a standby: seconds since the last replayed transaction, or 0 when it has replayed all it has
# received (an idle primary sends nothing, and the replay time alone would then look like lag).
# NULL on a server that is not a standby (a "replica" that is the primary: development, tests).
_REPLICA_LAG_SQL = REPLICA_LAG_SQL


def _replica() -> Check:
    if not replica_configured():
        return {"ok": True, "configured": False}
    replica = connections[REPLICA]
    with replica.cursor() as cur:
        if replica.vendor != "postgresql":
            cur.execute("SELECT 1")
            cur.fetchone()
            return {"ok": True, "configured": True, "lag_seconds": None}
        cur.execute(_REPLICA_LAG_SQL)
        row = cur.fetchone()
    lag = None if row is None or row[0] is None else round(float(row[0]), 1)
    limit = settings.HEALTH_REPLICA_MAX_LAG_SECONDS
    return {
        "ok": lag is None or lag <= limit,
        "configured": True,
        "lag_seconds": lag,
        "max_seconds": limit,
    }


def _mail() -> MailCheck:
    """The last day's bounce and complaint rates (``games.mailevents.rates``). A rate above the
    providers' thresholds is ``flagged`` for the monitor, but the check stays ``ok``: the site
    works, and a load balancer must not take it out of service for it."""
    return {"ok": True, **rates.rates()}


def _journal() -> Check:
    """Whether this process can append to its host's delivery journal (``DELIVERY_JOURNAL_DIR``):
    opened as the first line would open it. A file left owned by another user (``manage.py``
    run as root on a web host) or a folder gone makes every line fail, logged but never raised
    (the change is committed), and ``after_restore`` would then tell nobody what a restore lost.
    Flagged (``journal.unwritable``), not failing: a load balancer must not take a host out for
    it."""
    path = journal.journal_path()
    if path is None:
        return {"ok": True, "configured": False}
    try:
        journal.writable()
    except OSError as exc:
        return {"ok": True, "configured": True, "flagged": ["unwritable"],
                "error": type(exc).__name__}  # fmt: skip
    return {"ok": True, "configured": True}


CHECKS: dict[str, Callable[[], Check | MailCheck]] = {
    "database": _database,
    "cache": _cache,
    "broker": _broker,
    "outbox": _outbox,
    "deadline_sweep": _sweep,
    "replica": _replica,
    "mail": _mail,
    "journal": _journal,
}


def health_report() -> Report:
    """Every check's answer (an exception is that check failing, with its reason), overall
    ``ok``, and the milliseconds it took."""
    t0 = time.perf_counter()
    checks: dict[str, Check | MailCheck] = {}
    for name, check in CHECKS.items():
        try:
            checks[name] = check()
        except Exception as exc:  # a failing dependency is an answer, not a 500
            checks[name] = {"ok": False, "error": type(exc).__name__}
    return {
        "ok": all(c["ok"] for c in checks.values()),
        # Warnings for a monitor, not failures: the mail rates above the providers' thresholds,
        # a journal this process cannot write.
        "flagged": [f"{name}.{f}" for name, c in checks.items() for f in _flagged(c)],
        "checks": checks,
        "ms": round((time.perf_counter() - t0) * 1000, 1),
    }


def _flagged(check: Check | MailCheck | None) -> list[str]:
    """The mail check's flags (none when it failed, or when there is no mail check)."""
    return [] if check is None else check.get("flagged", [])
