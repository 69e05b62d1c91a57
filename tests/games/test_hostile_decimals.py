"""Every non-integer number of the API's request bodies (the schema's ``type: number``) with
every hostile value: 400 ``invalid_field``, nothing changed (the decimals' part of
``test_hostile_numbers``, whose fixtures and helpers it uses, with ``test_hostile_choices``'s
base bodies)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from typing import Any

import pytest
from test_hostile_choices import PYTHON_REPR, TYPED_BODIES
from test_hostile_numbers import (  # noqa: F401 (world: the fixture)
    _fill,
    _refused,
    _resolve,
    _schema,
    _set,
    number_refusal_checked,
    snapshot,
    world,
)

pytestmark = pytest.mark.django_db

# -- the API's non-integer numbers: from the OpenAPI schema -----------------------------------

#: What a client may write where a decimal goes (JSON values); the bounds' neighbours are added
#: per field from its schema's minimum and maximum.
DECIMAL_HOSTILE: list[Any] = [
    True,
    False,
    "0.5",
    "０.５",  # full-width
    "٠.٥",  # Arabic-Indic
    "०.५",  # Devanagari
    "0,5",
    "nan",
    "Infinity",
    [0.5],
    {"a": 0.5},
    2**70,
]
#: Bodies no JSON encoder writes but a client may send: NaN and infinities (a lenient parser
#: reads them; 1e400 is an infinity to Python's); the long number sends the body through the
#: parser that keeps Python's integers.
RAW_DECIMALS = ["NaN", "Infinity", "-Infinity", "1e400", "-1e400"]


def _number_paths(
    schema: dict[str, Any], node: dict[str, Any], prefix: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    """(path, its schema) of every non-integer number of a request body's schema."""
    node = _resolve(schema, node)
    types = node.get("type")
    types = types if isinstance(types, list) else [types]
    if "number" in types:
        yield prefix, node
    for sub in node.get("oneOf", []):
        yield from _number_paths(schema, _resolve(schema, sub), prefix)
    for name, sub in (node.get("properties") or {}).items():
        yield from _number_paths(schema, sub, (*prefix, name))
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        yield from _number_paths(schema, extra, (*prefix, "*"))
    if "array" in types and isinstance(node.get("items"), dict):
        yield from _number_paths(schema, node["items"], (*prefix, "[]"))


def _account_rows() -> str:
    from accounts.models import Profile

    rows = list(Profile.objects.order_by("pk").values_list())
    return snapshot() + json.dumps(rows, default=str)


def test_every_decimal_of_the_api_refuses_every_hostile_value(world):  # noqa: F811
    """Every non-integer number of every request body (the schema's ``type: number``) takes a
    finite JSON number within its bounds only: not true, "0.5", digits of other scripts, NaN
    or infinities, a list or an object. 400 ``invalid_field`` naming the field; nothing
    changes. A number without bounds in the schema fails the test."""
    from games.models import Game

    actor = world["actor"]
    schema = _schema()
    seq = Game.objects.get(pk=world["gid"]).seq
    ids = {"game_id": world["gid"], "message_id": world["mid"], "hook_id": world["hook"]}
    before = _account_rows()
    walked: set[str] = set()
    for path, ops in schema["paths"].items():
        url = re.sub(r"\{(\w+)\}", lambda m: str(ids.get(m.group(1), 1)), path)
        for method, op in ops.items():
            rb = op.get("requestBody")
            if not rb or "application/json" not in rb["content"]:
                continue
            oid = op["operationId"]
            for fpath, node in _number_paths(schema, rb["content"]["application/json"]["schema"]):
                label = f"{oid} {'.'.join(fpath)}"
                assert "minimum" in node, f"{label} has no bounds"
                assert "maximum" in node, f"{label} has no bounds"
                low, high = node["minimum"], node["maximum"]
                base = _fill(TYPED_BODIES.get(oid, {}), world, seq)
                # The bounds' neighbours (the next float: 1e15 + 0.001 is 1e15), outside them.
                near = (math.nextafter(low, -math.inf), math.nextafter(high, math.inf))
                edges = [low - 0.001, high + 0.001, *near, low - 1, high * 2 + 1]
                values = [*DECIMAL_HOSTILE, *(v for v in edges if not low <= v <= high)]
                types = node["type"] if isinstance(node["type"], list) else [node["type"]]
                if not node.get("nullable") and "null" not in types:  # 3.0's and 3.1's null
                    values.append(None)
                for v in values:
                    body = _set(base, fpath, v)
                    r = getattr(actor.client, method)(url, body, format="json")
                    where = f"{label} = {json.dumps(v)[:40]}"
                    assert r.status_code == 400, (where, r.status_code, r.content[:300])
                    error = r.json()["error"]
                    assert error["code"] == "invalid_field", (where, error)
                    assert error["details"]["field"].startswith(fpath[0]), (where, error)
                    assert not PYTHON_REPR.search(error["message"]), (where, error)
                    number_refusal_checked(error, error["details"]["field"], where)
                    assert error["details"]["min"] == low, (where, error)
                    assert error["details"]["max"] == high, (where, error)
                marker = "@@N@@"
                text = json.dumps(_set(base, fpath, marker))
                for raw in RAW_DECIMALS:
                    for long in ("", ', "zz": 1111111111111111111111'):
                        data = text.replace(f'"{marker}"', raw)
                        data = data[:-1] + long + "}" if long else data
                        r = getattr(actor.client, method)(
                            url, data, content_type="application/json"
                        )
                        _refused(r, f"{label} = {raw}{long[:3]}")
                walked.add(label)
    assert _account_rows() == before
    assert "me_partial_update reminder_fraction" in walked, sorted(walked)


def test_a_decimal_within_its_bounds_is_taken(world):  # noqa: F811
    """The strict reader still takes what the schema promises: a JSON number, an integer one
    included, at and within the bounds."""
    actor = world["actor"]
    for value, stored in ((0.55, 0.55), (1, 1.0), (0, 0.0), (1.0, 1.0)):
        r = actor.client.patch("/api/v1/me/", {"reminder_fraction": value}, format="json")
        assert r.status_code == 200, r.content
        assert r.json()["reminder_fraction"] == stored


@pytest.mark.parametrize("value", [None, 0, 1_700_000_000_000, 10**15])
def test_a_push_subscriptions_expiration_time_is_read_as_the_browser_gives_it(value):
    """``expirationTime`` (an EpochTimeStamp: whole milliseconds since 1970, or null) is taken
    within its bounds, a JSON integer larger than 2^31 included (the strict reader bounded
    integers by 2^31 - 1, which refused every real time)."""
    from games.api import serializers as s

    body = {**TYPED_BODIES["push_devices_create"], "expirationTime": value}
    assert s.body_checked(s.PushSubscribeSerializer, body)["expirationTime"] == value


@pytest.mark.parametrize("value", [1.5, 1_700_000_000_000.5, True, "1", 10**15 + 1, -1])
def test_a_push_expiration_time_is_an_integer_as_the_schema_says(value):
    """The schema, the reader and the message agree: a JSON integer (the schema said number
    and took 1.5 while the message said integer), bounds written without an exponent."""
    from games.api import serializers as s
    from games.services.errors import ServiceError

    schema = _schema()["components"]["schemas"]["PushSubscribeRequest"]["properties"]
    assert schema["expirationTime"]["type"] == ["integer", "null"]
    assert schema["expirationTime"]["maximum"] == s.PUSH_EXPIRATION_MAX
    body = {**TYPED_BODIES["push_devices_create"], "expirationTime": value}
    with pytest.raises(ServiceError) as refused:
        s.body_checked(s.PushSubscribeSerializer, body)
    assert refused.value.details == {"field": "expirationTime", "min": 0, "max": 10**15}
    assert refused.value.message == (
        "'expirationTime' must be a whole number from 0 to 1000000000000000."
    )
