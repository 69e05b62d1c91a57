"""The shared cache (Redis) as the site can stand to lose it for a while.

Everything the site keeps in the cache can be forgotten: API throttle counts, the failed-login
window, the lobby's rating cache, the replica read-your-writes marks, the deadline sweep's last
run. A restart of Redis must therefore not answer requests with 500s, which Django's own
``RedisCache`` does (every ``get`` raises ``ConnectionError`` until Redis is back; found by
scripts/season, whose Redis restart turned game creations and joins, throttled by the cache,
into 500s). :class:`ResilientRedisCache` answers as an empty cache that keeps nothing while
Redis does not answer, and logs it: reads give the default (or nothing), writes are dropped,
``add`` says the key was not added, ``incr`` counts from nothing. Throttles and lockouts thus
fail open for the outage (the documented trade: a minute without rate limits against a minute of
errors), and /health/'s cache check fails, which is how the outage is seen.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

UNAVAILABLE = (RedisConnectionError, RedisTimeoutError, OSError)


def _lost(operation: str, exc: Exception) -> None:
    log.warning("cache unavailable (%s): %s", operation, exc)


class ResilientRedisCache(RedisCache):
    """Django's ``RedisCache``; while Redis does not answer, an empty cache that keeps nothing."""

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        try:
            return super().get(key, default, version)
        except UNAVAILABLE as exc:
            _lost("get", exc)
            return default

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        try:
            return super().get_many(keys, version)
        except UNAVAILABLE as exc:
            _lost("get_many", exc)
            return {}

    def has_key(self, key: Any, version: int | None = None) -> bool:
        try:
            return super().has_key(key, version)
        except UNAVAILABLE as exc:
            _lost("has_key", exc)
            return False

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> None:
        try:
            super().set(key, value, timeout, version)
        except UNAVAILABLE as exc:
            _lost("set", exc)

    def set_many(
        self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> list[Any]:
        try:
            return super().set_many(data, timeout, version)
        except UNAVAILABLE as exc:
            _lost("set_many", exc)
            return list(data)

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        try:
            return super().add(key, value, timeout, version)
        except UNAVAILABLE as exc:
            _lost("add", exc)
            return False

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        try:
            return super().touch(key, timeout, version)
        except UNAVAILABLE as exc:
            _lost("touch", exc)
            return False

    def delete(self, key: Any, version: int | None = None) -> bool:
        try:
            return super().delete(key, version)
        except UNAVAILABLE as exc:
            _lost("delete", exc)
            return False

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        try:
            super().delete_many(keys, version)
        except UNAVAILABLE as exc:
            _lost("delete_many", exc)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        try:
            return super().incr(key, delta, version)
        except UNAVAILABLE as exc:
            _lost("incr", exc)
            return delta

    def clear(self) -> None:
        try:
            super().clear()
        except UNAVAILABLE as exc:
            _lost("clear", exc)
