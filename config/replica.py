"""Reads from a PostgreSQL replica, for the pages that can stand a second of lag.

When ``DATABASE_REPLICA_URL`` is set, ``settings.DATABASES`` has a ``replica`` alias and
:class:`ReplicaRouter` is installed. Nothing reads from it by default: a move must see the game
as the primary has it, and a player who has just moved must see the move. Only code that runs
inside :func:`reads_from_replica` reads from the replica: public listings and records (the lobby's
open and running games, player profiles, finished games' results), where a game that appears a
second late harms nobody, and which are most of a busy site's reads.

Even inside, the primary is used for:

* accounts, sessions and tokens (``PRIMARY_ONLY_APPS``): a user who has just signed up, logged
  in or changed a password is read where that was written;
* anything read inside a transaction on the primary (``atomic``): a read that decides a write
  must see what that write will be checked against.

and, for what the replica may be behind on:

* a user who has written in the last ``REPLICA_MAX_LAG_SECONDS`` (any successful POST, PUT,
  PATCH or DELETE: :class:`ReplicaStickinessMiddleware` notes it in the shared cache, so every
  web host knows): read-your-writes, their own move shows in the lists they read next;
* everyone, while the replica lags by more than ``REPLICA_MAX_LAG_SECONDS`` (asked of the replica
  at most once a second per process, :func:`replica_lag`; an unanswering replica counts as
  lagging): the public lists never lag the primary by more than that bound.

Without a replica the router answers ``None`` ("no opinion"), which is the default database:

>>> ReplicaRouter().db_for_read(object) is None
True
"""

from __future__ import annotations

import contextlib
import functools
import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, connections

REPLICA = "replica"
# Apps whose rows a request may have just written: read where written.
PRIMARY_ONLY_APPS = frozenset(
    {"auth", "sessions", "knox", "account", "socialaccount", "mfa", "admin", "accounts"}
)

_replica_wanted: ContextVar[bool] = ContextVar("replica_wanted", default=False)
# Set for the request of a user who wrote within the bound: their reads stay on the primary.
_primary_pinned: ContextVar[bool] = ContextVar("primary_pinned", default=False)

# How far behind the primary the replica is, in seconds (health.py asks the same). NULL on a
# server that is not a standby (a "replica" that is the primary: development, tests). Replay
# paused or behind: the age of the last transaction replayed.
REPLICA_LAG_SQL = """
    SELECT CASE
        WHEN NOT pg_is_in_recovery() THEN NULL
        WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
        ELSE EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())
    END
"""
LAG_CHECK_EVERY = 1.0  # seconds a process trusts its last answer
_lag_seen: list[float] = [-1e9, 0.0]  # [monotonic time asked, lag]
_STICKY_KEY = "replica:wrote:{}"

F = TypeVar("F", bound=Callable[..., Any])


@contextmanager
def replica_reads() -> Iterator[None]:
    """Within this block, reads that may lag go to the replica (if there is one)."""
    token = _replica_wanted.set(True)
    try:
        yield
    finally:
        _replica_wanted.reset(token)


def reads_from_replica(view: F) -> F:
    """A view (template rendering included, where lazy querysets run) read from the replica."""

    @functools.wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        with replica_reads():
            response = view(*args, **kwargs)
            render = getattr(response, "render", None)
            if callable(render) and not getattr(response, "is_rendered", True):
                response = render()
            return response

    return wrapped  # type: ignore[return-value]


def replica_configured() -> bool:
    return REPLICA in connections.settings


def max_lag() -> float:
    return float(getattr(settings, "REPLICA_MAX_LAG_SECONDS", 10.0))


def replica_lag() -> float:
    """The replica's lag in seconds (0 for a "replica" that is the primary), asked at most once
    a ``LAG_CHECK_EVERY`` per process; infinite when it does not answer (then the primary
    serves, and the health check says why)."""
    now = time.monotonic()
    if now - _lag_seen[0] < LAG_CHECK_EVERY:
        return _lag_seen[1]
    replica = connections[REPLICA]
    try:
        if replica.vendor != "postgresql":
            lag = 0.0
        else:
            with replica.cursor() as cur:
                cur.execute(REPLICA_LAG_SQL)
                row = cur.fetchone()
            lag = 0.0 if row is None or row[0] is None else float(row[0])
    except DatabaseError:
        lag = float("inf")
        with contextlib.suppress(Exception):
            replica.close()
    _lag_seen[0], _lag_seen[1] = now, lag
    return lag


def user_wrote(user_id: int) -> None:
    """Keep this user's replica-eligible reads on the primary for the lag bound."""
    with contextlib.suppress(Exception):  # the cache down: the lag bound still holds
        cache.set(_STICKY_KEY.format(user_id), 1, timeout=max(1, math.ceil(max_lag())))


def user_pinned(user_id: int) -> bool:
    try:
        return bool(cache.get(_STICKY_KEY.format(user_id)))
    except Exception:  # the cache down: read the primary, to be safe
        return True


class ReplicaStickinessMiddleware:
    """Read-your-writes across web hosts: a request of a user who wrote within the lag bound
    reads the primary; a successful write by a signed-in user (session or API token) starts
    that window. Nothing to do without a replica."""

    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        if not replica_configured():
            return self.get_response(request)
        try:  # the session's user is read here first: the database may be down
            user = getattr(request, "user", None)
            pinned = bool(user is not None and user.is_authenticated and user_pinned(user.pk))
        except DatabaseError:  # the view meets it too and answers 503 (config.middleware)
            pinned = True
        token = _primary_pinned.set(pinned)
        try:
            response = self.get_response(request)
        finally:
            _primary_pinned.reset(token)
        try:
            user = getattr(request, "user", None)  # an API token's user is known only now
            authenticated = user is not None and user.is_authenticated
        except DatabaseError:
            authenticated = False
        if (
            request.method not in ("GET", "HEAD", "OPTIONS")
            and response.status_code < 400
            and authenticated
            and user is not None
        ):
            user_wrote(user.pk)
        return response


class ReplicaRouter:
    """Django's database router: the replica for reads asked for by :func:`replica_reads`."""

    def db_for_read(self, model: Any, **hints: Any) -> str | None:
        if not _replica_wanted.get() or not replica_configured():
            return None
        if model._meta.app_label in PRIMARY_ONLY_APPS:
            return None
        if connections["default"].in_atomic_block:
            return None
        if _primary_pinned.get() or replica_lag() > max_lag():
            return None
        return REPLICA

    def db_for_write(self, model: Any, **hints: Any) -> str | None:
        return None  # always the primary

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool | None:
        return True  # the replica is a copy of the primary: the same rows

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool | None:
        return db != REPLICA  # the replica follows the primary's schema by replication
