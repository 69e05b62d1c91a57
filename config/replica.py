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

Without a replica the router answers ``None`` ("no opinion"), which is the default database:

>>> ReplicaRouter().db_for_read(object) is None
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from django.db import connections

REPLICA = "replica"
# Apps whose rows a request may have just written: read where written.
PRIMARY_ONLY_APPS = frozenset(
    {"auth", "sessions", "knox", "account", "socialaccount", "mfa", "admin", "accounts"}
)

_replica_wanted: ContextVar[bool] = ContextVar("replica_wanted", default=False)

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


class ReplicaRouter:
    """Django's database router: the replica for reads asked for by :func:`replica_reads`."""

    def db_for_read(self, model: Any, **hints: Any) -> str | None:
        if not _replica_wanted.get() or not replica_configured():
            return None
        if model._meta.app_label in PRIMARY_ONLY_APPS:
            return None
        if connections["default"].in_atomic_block:
            return None
        return REPLICA

    def db_for_write(self, model: Any, **hints: Any) -> str | None:
        return None  # always the primary

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool | None:
        return True  # the replica is a copy of the primary: the same rows

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool | None:
        return db != REPLICA  # the replica follows the primary's schema by replication
