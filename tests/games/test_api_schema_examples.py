"""Every example of the published schema is an instance of the schema it illustrates: a request
body's examples of its request schema, a response's of that response's schema (a list
operation's example a list of items, not a list inside a list), a parameter's of its parameter,
a component's of that component. A client author who validates the examples (as generated
docs, mocks and tests do) finds no example the schema itself refuses.

Checked with the strict validator the responses are checked with (``tests.api_schema``: JSON
Schema 2020-12, formats included, every component closed)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import jsonschema_rs

from tests.api_schema import published_schema


def _validator(schema: dict[str, Any], node: dict[str, Any]) -> Any:
    root = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **node,
        "components": schema["components"],
    }
    return jsonschema_rs.validator_for(root, validate_formats=True)


def _examples(schema: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any], Any]]:
    """(where, the schema it illustrates, the example's value) of every example."""
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            if not isinstance(op, dict):
                continue
            where = f"{method.upper()} {path}"
            for p in op.get("parameters", []):
                for name, ex in (p.get("examples") or {}).items():
                    yield f"{where} ?{p['name']} {name}", p["schema"], ex["value"]
                if "example" in p:
                    yield f"{where} ?{p['name']}", p["schema"], p["example"]
            media = [("request", (op.get("requestBody") or {}).get("content") or {})]
            media += [(status, r.get("content") or {}) for status, r in op["responses"].items()]
            for status, content in media:
                for ctype, m in content.items():
                    for name, ex in (m.get("examples") or {}).items():
                        yield f"{where} {status} {ctype} {name}", m["schema"], ex["value"]
                    if "example" in m:
                        yield f"{where} {status} {ctype}", m["schema"], m["example"]
    for name, component in schema["components"]["schemas"].items():
        ref = {"$ref": f"#/components/schemas/{name}"}
        for i, value in enumerate(component.get("examples") or []):
            yield f"component {name} #{i}", ref, value
        if "example" in component:
            yield f"component {name}", ref, component["example"]
    for name, ex in (schema["components"].get("examples") or {}).items():
        yield f"components.examples {name}", {}, ex.get("value")


def test_every_example_of_the_schema_validates_against_its_schema():
    schema = published_schema()
    wrong, seen = [], 0
    for where, node, value in _examples(schema):
        seen += 1
        errors = [f"{e.instance_path}: {e.message}"[:200] for e in
                  _validator(schema, node).iter_errors(value)]  # fmt: skip
        if errors:
            wrong.append(f"{where}: {errors[:3]}")
    assert seen >= 20, seen  # the walk found the examples (a broken walk checks nothing)
    assert wrong == [], "\n".join(wrong)


def test_the_walk_reaches_request_and_response_examples():
    where = [w for w, _n, _v in _examples(published_schema())]
    assert any(" request " in w for w in where), where
    assert any(" 200 " in w or " 201 " in w for w in where), where


def test_a_wrong_example_is_noticed():
    """The check itself: an example lacking a required key fails its schema."""
    schema = published_schema()
    node = {"$ref": "#/components/schemas/Error"}
    assert list(_validator(schema, node).iter_errors({"error": {"code": "x"}}))
    good = {"error": {"code": "not_found", "message": "No.", "details": {}}}
    assert not list(_validator(schema, node).iter_errors(json.loads(json.dumps(good))))
