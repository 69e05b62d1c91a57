"""Every API response a test receives is checked against the published OpenAPI schema.

``ValidatingAPIClient`` is DRF's test client that, after each request to a path of the schema,
checks the answer the way a strict client generated from the schema would read it:

* the operation (path and method) is in the schema, and so is the status code;
* a JSON body has the content type the schema names, a 204 has no body;
* the body validates against the response's schema with a JSON Schema 2020-12 validator (the
  schema is OpenAPI 3.1), formats (date-time) included: no missing key, no key the schema does
  not declare (every response component is closed), no wrong type, no null where none is allowed.

Any drift between the code and the schema fails the test that saw it. ``API_SCHEMA_CHECK=0`` turns
the check off (``bench/schema_check_bench.py`` measures what it costs). ``checked`` counts the
responses validated in this process.
"""

from __future__ import annotations

import json
import os
import re
import time
from functools import cache
from typing import Any

import jsonschema_rs
from rest_framework.test import APIClient

ENABLED = os.environ.get("API_SCHEMA_CHECK", "1") != "0"

#: Responses validated in this process, and the CPU seconds the checks took (the session's
#: summary line reports both).
checked = 0
check_seconds = 0.0


class SchemaMismatch(AssertionError):
    """A response the published schema does not describe."""


@cache
def published_schema() -> dict[str, Any]:
    """The schema ``/api/schema/`` serves, as JSON."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    loaded: dict[str, Any] = json.loads(json.dumps(schema, default=str))
    return loaded


@cache
def _operations() -> list[tuple[re.Pattern[str], dict[str, Any]]]:
    """Each schema path as a regular expression, with its path item; the paths with fewer
    parameters first, as the URL resolver matches them (``/games/next/`` is not the game
    ``{game_id}`` = "next")."""
    out = []
    paths = published_schema()["paths"].items()
    for path, item in sorted(paths, key=lambda kv: kv[0].count("{")):
        pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path))
        out.append((re.compile(f"^{pattern}$"), item))
    return out


def _path_item(path: str) -> dict[str, Any] | None:
    for pattern, item in _operations():
        if pattern.match(path):
            return item
    return None


@cache
def _validator(schema_json: str) -> Any:
    schema = json.loads(schema_json)
    root = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **schema,
        "components": published_schema()["components"],
    }
    return jsonschema_rs.validator_for(root, validate_formats=True)


def check_response(method: str, path: str, response: Any) -> None:
    """Raise :class:`SchemaMismatch` unless the schema describes ``response`` to this request."""
    global checked
    item = _path_item(path)
    if item is None:
        return  # not an API operation (a page, or a URL that does not exist: tests of 404s)
    operation = item.get(method.lower())
    if operation is None:
        if response.status_code == 405:
            return  # a method the path does not have: answered 405, as tested elsewhere
        raise SchemaMismatch(f"{method} {path}: the schema has no such operation")
    status = str(response.status_code)
    responses = operation["responses"]
    declared = responses.get(status) or responses.get("default")
    if declared is None:
        raise SchemaMismatch(
            f"{method} {path} answered {status}, which the schema does not list "
            f"({', '.join(responses)}): {response.content[:300]!r}"
        )
    if getattr(response, "streaming", False):
        return  # the event stream: its events are described in words
    content = declared.get("content")
    body = response.content
    if not content:
        if body:
            raise SchemaMismatch(f"{method} {path} {status}: a body where the schema has none")
        checked += 1
        return
    ctype = response.get("Content-Type", "").split(";")[0].strip()
    media = content.get(ctype)
    if media is None:
        raise SchemaMismatch(
            f"{method} {path} {status}: content type {ctype!r}, the schema says {list(content)}"
        )
    if ctype != "application/json":
        checked += 1
        return
    data = json.loads(body)
    errors = list(_validator(json.dumps(media["schema"], sort_keys=True)).iter_errors(data))
    if errors:
        lines = [f"{e.instance_path}: {e.message}"[:400] for e in errors[:8]]
        raise SchemaMismatch(
            f"{method} {path} {status}: the body does not match the published schema:\n  "
            + "\n  ".join(lines)
        )
    checked += 1


class ValidatingAPIClient(APIClient):
    """DRF's test client, checking every answer against the published schema."""

    def request(self, **kwargs: Any) -> Any:
        global check_seconds
        response = super().request(**kwargs)
        if ENABLED:
            start = time.process_time()
            try:
                check_response(kwargs["REQUEST_METHOD"], kwargs["PATH_INFO"], response)
            finally:
                check_seconds += time.process_time() - start
        return response


def shape_errors(component: str, data: Any) -> list[str]:
    """What is wrong with ``data`` as the schema's component ``component`` (empty: nothing)."""
    ref = json.dumps({"$ref": f"#/components/schemas/{component}"}, sort_keys=True)
    return [f"{e.instance_path}: {e.message}" for e in _validator(ref).iter_errors(data)]
