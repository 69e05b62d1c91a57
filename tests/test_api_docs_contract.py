"""docs/API.md, the contract client authors read, names the same action types and error codes as
the OpenAPI schema the server publishes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.api_schema import ValidatingAPIClient as APIClient

DOC = Path(__file__).resolve().parent.parent / "docs" / "API.md"

pytestmark = pytest.mark.django_db


def _schema() -> dict:
    return APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


def _table_codes(text: str, heading: str) -> set[str]:
    """The first column of the table after ``heading`` (up to the first blank line after it)."""
    section = text.split(heading, 1)[1].lstrip("\n")
    table = section.split("\n\n", 2)
    rows = table[0] if table[0].startswith("|") else table[1]
    return set(re.findall(r"^\| `([a-z_]+)` \|", rows, re.M))


def test_the_documented_actions_are_the_schemas():
    text = DOC.read_text(encoding="utf-8")
    documented = _table_codes(text, "| type | fields | when |")
    mapping = _schema()["components"]["schemas"]["ActionRequest"]["discriminator"]["mapping"]
    assert documented == set(mapping)


def test_the_documented_error_codes_are_the_schemas():
    text = DOC.read_text(encoding="utf-8")
    documented = _table_codes(text, "Codes of a refused action") | _table_codes(
        text, "Codes of the server"
    )
    assert documented == set(_schema()["components"]["schemas"]["ErrorCode"]["enum"])


#: An example the page quotes from the schema: ``<!-- schema: Component -->`` (or
#: ``[Component]`` for a list of them) on the line before a ```json block.
_EXAMPLE = re.compile(r"^<!-- schema: (\[?)(\w+)\]? -->\n```json\n(.*?)\n```", re.M | re.S)


def test_the_examples_marked_are_the_schemas():
    """Each example marked with its component is valid as that component: an example that
    drifts from what the server answers fails here, not in a client author's hands."""
    from tests.api_schema import shape_errors

    text = DOC.read_text(encoding="utf-8")
    examples = _EXAMPLE.findall(text)
    assert len(examples) >= 7
    components = _schema()["components"]["schemas"]
    for many, component, body in examples:
        assert component in components, component
        data = json.loads(body)
        for item in data if many else [data]:
            assert shape_errors(component, item) == [], (component, item)


def _state_section(text: str) -> str:
    return text.split("## The state a player sees", 1)[1].split("Rules editions.", 1)[0]


def test_the_state_section_names_the_schemas_keys_and_components():
    """The state's section refers to the schema rather than restating it: every component it
    names is one of the schema's, and every key it names is a key (or a value) the schema
    declares; a key renamed or removed fails here."""
    schema = _schema()["components"]["schemas"]
    words: set[str] = set()
    for component in schema.values():
        words.update(component.get("properties", {}))
        words.update(str(v) for v in component.get("enum", []))
    section = _state_section(DOC.read_text(encoding="utf-8"))
    named = set(re.findall(r"`([A-Za-z_0-9]+)`", section))
    components = {n for n in named if n[0].isupper()}
    assert components <= set(schema), components - set(schema)
    keys = named - components - {"null"}
    assert keys <= words, keys - words
