"""The published schema is one document wherever a client finds it: ``/api/schema/`` (where the
docs pages read it), ``/api/v1/schema/`` (where docs/API.md and the client's notes send
readers) and the committed copy ``clients/openapi.json`` (what the Python client is generated
from) are equal, byte for byte once keys are sorted. An example's datetime once read
``2026-11-03T09:00:00Z`` served and ``2026-11-03 09:00:00+00:00`` in the committed copy."""

from __future__ import annotations

import json
from pathlib import Path

from rest_framework.test import APIClient

from tests.api_schema import published_schema

ROOT = Path(__file__).resolve().parents[2]


def _served(url: str) -> dict:
    r = APIClient().get(url, {"format": "json"})
    assert r.status_code == 200, (url, r.status_code, r.content[:200])
    return json.loads(r.content)


def test_the_schema_is_served_at_both_addresses():
    assert _served("/api/v1/schema/") == _served("/api/schema/")


def test_the_committed_schema_is_the_served_one():
    served = _served("/api/v1/schema/")
    committed = json.loads((ROOT / "clients" / "openapi.json").read_text(encoding="utf-8"))
    assert committed == served, "clients/openapi.json is not what the server serves: make client"


def test_the_generated_schema_is_the_served_json():
    """What code reads from the generator (the committed copy's writer, the tests' validator) is
    the JSON served: no Python value left for each to write its own way."""
    from drf_spectacular.generators import SchemaGenerator

    generated = SchemaGenerator().get_schema(request=None, public=True)
    assert json.loads(json.dumps(generated)) == _served("/api/schema/") == published_schema()
