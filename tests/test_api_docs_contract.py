"""docs/API.md, the contract client authors read, names the same action types and error codes as
the OpenAPI schema the server publishes."""

from __future__ import annotations

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
