"""The shared cache with Redis gone (config/cache.py): every operation the site uses answers as an
empty cache that keeps nothing, instead of raising; and a throttled API call (the API's
throttles count in the cache) succeeds instead of a 500. Found by scripts/season's Redis
restart, which turned game creations and joins into 500s."""

from __future__ import annotations

import pytest
from django.core.cache import caches

# Nothing listens on port 1 of the loopback: connections are refused at once.
DEAD_REDIS = {
    "default": {"BACKEND": "config.cache.ResilientRedisCache", "LOCATION": "redis://127.0.0.1:1/1"}
}


@pytest.fixture
def dead_cache(settings):
    settings.CACHES = DEAD_REDIS
    return caches["default"]


def test_every_operation_answers_as_an_empty_cache(dead_cache):
    c = dead_cache
    assert c.get("k") is None
    assert c.get("k", "fallback") == "fallback"
    assert c.get_many(["a", "b"]) == {}
    assert c.has_key("k") is False
    c.set("k", 1, 30)  # dropped, no error
    assert c.set_many({"a": 1}, 30) == ["a"]  # the keys not set
    assert c.add("k", 1, 30) is False
    assert c.touch("k", 30) is False
    assert c.delete("k") is False
    c.delete_many(["a"])
    assert c.incr("n", 3) == 3
    c.clear()


def test_the_settings_use_it_for_a_redis_cache_url():
    import importlib
    import os

    from config import settings as config_settings

    before = os.environ.get("CACHE_URL")
    os.environ["CACHE_URL"] = "redis://127.0.0.1:6379/1"
    try:
        fresh = importlib.reload(config_settings)
        assert fresh.CACHES["default"]["BACKEND"] == "config.cache.ResilientRedisCache"
    finally:
        if before is None:
            os.environ.pop("CACHE_URL")
        else:
            os.environ["CACHE_URL"] = before
        importlib.reload(config_settings)


@pytest.mark.django_db
def test_a_throttled_api_call_succeeds_while_redis_is_down(dead_cache):
    from django.contrib.auth import get_user_model
    from knox.models import AuthToken
    from rest_framework.test import APIClient

    user = get_user_model().objects.create_user(username="ann", password="pw-ann-123")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {AuthToken.objects.create(user=user)[1]}")
    r = client.post("/api/v1/games/", {"map": "germany", "max_players": 3}, format="json")
    assert r.status_code == 201, r.content
    assert client.get("/api/v1/games/").status_code == 200
    assert APIClient().get("/api/v1/maps/").status_code == 200  # the anonymous throttle too
