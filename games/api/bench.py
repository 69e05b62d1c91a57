"""The bench floor: one authenticated DRF request inserting one row, the cheapest answer the API
stack can give (``bench/api_bench.py`` measures the real endpoints against it).

Not part of the product: its URL exists only when the setting ``BENCH_ENDPOINTS`` is on (off by
default; the benchmark's server turns it on), so a production server has no such path at all,
and the view still answers 404 should it be mounted with the setting off."""

from __future__ import annotations

from django.conf import settings
from django.urls import URLPattern, path
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import numbers
from games.models import BenchRow


class BenchInsertView(APIView):
    """Bench-only floor: one authenticated DRF request inserting one row (BENCH_ENDPOINTS=1)."""

    @extend_schema(exclude=True)
    def post(self, request: Request) -> Response:
        if not settings.BENCH_ENDPOINTS:
            raise NotFound()
        body = request.data if isinstance(request.data, dict) else {}
        value = numbers.from_json(
            body.get("value", 0), field="value", low=0, high=numbers.INT32_MAX
        )
        row = BenchRow.objects.create(value=value)
        return Response({"id": row.pk}, status=201)


def bench_urlpatterns() -> list[URLPattern]:
    """``/api/bench/insert/`` when ``BENCH_ENDPOINTS`` is on, else nothing (read when the URL
    configuration is loaded: the setting comes from the environment at the server's start)."""
    if not settings.BENCH_ENDPOINTS:
        return []
    return [path("bench/insert/", BenchInsertView.as_view(), name="api_bench_insert")]
