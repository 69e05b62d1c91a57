"""The bench floor (``games.api.bench``) is not part of the product: with ``BENCH_ENDPOINTS``
off (the default) its path is not in the URL configuration at all, so a POST there is a plain
404 that writes nothing; only the benchmark's server, started with the setting on, mounts it."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django.urls import Resolver404, resolve
from rest_framework.test import APIRequestFactory, force_authenticate

from games.api.bench import BenchInsertView, bench_urlpatterns
from games.models import BenchRow


def test_the_floor_is_not_mounted_by_default(make_player):
    with pytest.raises(Resolver404):
        resolve("/api/bench/insert/")
    player = make_player()
    r = player.post("/api/bench/insert/", {"value": 1})
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "not_found"
    assert not BenchRow.objects.exists()


def test_the_setting_mounts_the_floor():
    assert bench_urlpatterns() == []
    with override_settings(BENCH_ENDPOINTS=True):
        (pattern,) = bench_urlpatterns()
    assert str(pattern.pattern) == "bench/insert/"
    assert pattern.callback.view_class is BenchInsertView  # type: ignore[attr-defined]


@pytest.mark.parametrize("enabled", [True, False])
def test_the_view_inserts_only_when_enabled(make_player, enabled):
    """Mounted by hand, the view itself still refuses with the setting off."""
    request = APIRequestFactory().post("/api/bench/insert/", {"value": 7}, format="json")
    force_authenticate(request, user=make_player().user)
    with override_settings(BENCH_ENDPOINTS=enabled):
        response = BenchInsertView.as_view()(request)
    assert response.status_code == (201 if enabled else 404)
    assert list(BenchRow.objects.values_list("value", flat=True)) == ([7] if enabled else [])
