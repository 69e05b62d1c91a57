"""Every GET of the API answers a body its published schema describes, formats included: a
``date-time`` is an RFC 3339 time with its offset, a ``double`` a JSON number, a ``uri`` an
absolute address, an ``integer`` never a string or a float. A client generated from
``/api/schema/`` parses these fields by their format, so a mismatch breaks it even where the
types agree (schemathesis checks the types; this checks the formats, on a game in progress,
finished and with chat, plans and a webhook)."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import urlparse

import pytest
from apihelpers import play_default, play_to_end
from jsonschema import Draft202012Validator, FormatChecker

from tests.api_schema import ValidatingAPIClient as APIClient

pytestmark = pytest.mark.django_db

FORMATS = FormatChecker(formats=())


@FORMATS.checks("date-time", raises=ValueError)
def _date_time(value: object) -> bool:
    if not isinstance(value, str):
        return True  # a format speaks of strings only; the type is checked apart
    return datetime.fromisoformat(value).tzinfo is not None  # RFC 3339 requires the offset


@FORMATS.checks("uri")
def _uri(value: object) -> bool:
    return not isinstance(value, str) or bool(urlparse(value).scheme and urlparse(value).netloc)


@FORMATS.checks("email")
def _email(value: object) -> bool:
    return not isinstance(value, str) or value.count("@") == 1


@FORMATS.checks("double")
@FORMATS.checks("float")
def _number(value: object) -> bool:
    return not isinstance(value, (str, bool))  # a number, or a null where the schema allows one


@FORMATS.checks("int32")
@FORMATS.checks("int64")
def _integer(value: object) -> bool:
    # JSON Schema counts 1.0 as an integer; a typed client does not.
    if isinstance(value, float):
        return False
    return not isinstance(value, int) or -(2**63) <= value < 2**63


def _as_json_schema(node: Any) -> Any:
    """OpenAPI 3.0 to JSON Schema: ``nullable: true`` becomes a "null" type (or a null branch
    beside a ``$ref`` or an ``allOf``)."""
    if isinstance(node, list):
        return [_as_json_schema(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: _as_json_schema(v) for k, v in node.items() if k != "nullable"}
    if node.get("nullable"):
        if isinstance(out.get("type"), str):
            out["type"] = [out["type"], "null"]
            if "enum" in out:
                out["enum"] = [*out["enum"], None]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    r = APIClient().get("/api/schema/?format=json")
    assert r.status_code == 200
    return _as_json_schema(r.json())


def _response_schema(spec: dict[str, Any], path: str) -> dict[str, Any]:
    return spec["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]


def _problems(spec: dict[str, Any], path: str, body: Any) -> list[str]:
    root = {**_response_schema(spec, path), "components": spec["components"]}
    validator = Draft202012Validator(root, format_checker=FORMATS)
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(body)
    ]


def _get(client: Any, url: str) -> Any:
    r = client.get(url)
    assert r.status_code == 200, (url, r.status_code, r.content[:300])
    return r.json()


def _check_every_get(spec: dict[str, Any], player: Any, gid: int, finished: bool = False) -> int:
    endpoints = {
        "/api/v1/games/": "/api/v1/games/",
        "/api/v1/games/{game_id}/": f"/api/v1/games/{gid}/",
        "/api/v1/games/{game_id}/state/": f"/api/v1/games/{gid}/state/",
        "/api/v1/games/{game_id}/moves/": f"/api/v1/games/{gid}/moves/",
        "/api/v1/games/{game_id}/chat/": f"/api/v1/games/{gid}/chat/",
        "/api/v1/games/{game_id}/forecast/": f"/api/v1/games/{gid}/forecast/",
        "/api/v1/games/{game_id}/plans/": f"/api/v1/games/{gid}/plans/",
        "/api/v1/maps/": "/api/v1/maps/",
        "/api/v1/maps/{slug}/": "/api/v1/maps/germany/",
        "/api/v1/me/": "/api/v1/me/",
        "/api/v1/webhooks/": "/api/v1/webhooks/",
    }
    if finished:  # only a game under way has a forecast (409 game_not_running)
        del endpoints["/api/v1/games/{game_id}/forecast/"]
    for template, url in endpoints.items():
        assert _problems(spec, template, _get(player.client, url)) == [], url
    return len(endpoints)


def test_a_game_under_way_answers_in_the_published_formats(spec, new_game, settings):
    settings.WEBHOOK_ALLOW_PRIVATE = True
    gid, ps = new_game(players=3)
    play_default(gid, ps)
    me = ps[0]
    assert me.post(f"/api/v1/games/{gid}/chat/", {"text": "good luck"}).status_code == 201
    r = me.post("/api/v1/webhooks/", {"url": "http://127.0.0.1:9/hook"})
    assert r.status_code == 201, r.content
    assert _check_every_get(spec, me, gid) == 11


def test_a_finished_game_and_its_record_answer_in_the_published_formats(spec, new_game):
    gid, ps = new_game(players=3)
    play_to_end(gid, ps)
    assert _check_every_get(spec, ps[0], gid, finished=True) == 10
    record = _get(ps[0].client, f"/api/v1/games/{gid}/record/")
    assert _problems(spec, "/api/v1/games/{game_id}/record/", record) == []


def test_the_checker_would_catch_a_time_without_its_offset_and_a_number_as_text(spec):
    """The checks above can fail: the formats are enforced, not only read."""
    game = {
        "deadline": "2026-11-25T10:00:00",  # no offset: not RFC 3339
    }
    problems = _problems(spec, "/api/v1/games/{game_id}/", game)
    assert any(p.startswith("deadline:") and "date-time" in p for p in problems), problems
    city = {"x": "12.5"}
    schema = {"$ref": "#/components/schemas/MapCity", "components": spec["components"]}
    errors = list(Draft202012Validator(schema, format_checker=FORMATS).iter_errors(city))
    assert any(list(e.absolute_path) == ["x"] for e in errors)
