"""Points where the answer and the schema disagreed: the games list's paging parameters, the
chat edit's required text, the 409 of withdrawing a plan in a game that is over."""

from __future__ import annotations

import pytest

from tests.api_schema import ValidatingAPIClient as APIClient
from tests.api_schema import published_schema

pytestmark = pytest.mark.django_db

HOSTILE = ["null", "abc", "-1", "1.5", "", " 5", "5 ", "٣", "５", "1e3", "0x10", "99999999999"]


@pytest.mark.parametrize("name", ["limit", "offset"])
@pytest.mark.parametrize("value", HOSTILE)
def test_a_paging_parameter_that_is_not_a_whole_number_is_a_400(make_player, name, value):
    p = make_player()
    r = p.client.get("/api/v1/games/", {name: value})
    assert r.status_code == 400, (name, value, r.content)
    error = r.json()["error"]
    assert error["code"] == "invalid_field"
    assert error["details"]["field"] == name


def test_the_reported_query_and_a_zero_limit_are_refused(make_player):
    p = make_player()
    r = p.client.get("/api/v1/games/?offset=null&limit=abc")
    assert r.status_code == 400
    assert r.json()["error"]["details"]["field"] in ("limit", "offset")
    assert p.client.get("/api/v1/games/?limit=0").status_code == 400


def test_paging_still_pages(make_player):
    a = make_player()
    for _ in range(3):
        assert a.post("/api/v1/games/", {"map": "germany", "max_players": 3}).status_code == 201
    page = a.client.get("/api/v1/games/?limit=2&offset=1").json()
    assert page["count"] == 3
    assert len(page["results"]) == 2
    assert page["previous"] is not None
    assert len(a.client.get("/api/v1/games/?limit=500").json()["results"]) == 3  # capped at 200


def test_the_chat_edit_requires_text_in_the_schema_and_the_answer(new_game):
    op = published_schema()["paths"]["/api/v1/games/{game_id}/chat/{message_id}/"]["patch"]
    ref = op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    body = published_schema()["components"]["schemas"][ref.rsplit("/", 1)[-1]]
    assert body["required"] == ["text"]
    assert op["requestBody"]["required"] is True
    gid, ps = new_game(players=2)
    mid = ps[0].post(f"/api/v1/games/{gid}/chat/", {"text": "typo"}).json()["id"]
    r = ps[0].client.patch(f"/api/v1/games/{gid}/chat/{mid}/", {}, format="json")
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "invalid_message"


def test_withdrawing_a_plan_in_a_game_not_under_way_is_the_declared_409(new_game):
    """The validating client fails on an answer whose status the operation does not list."""
    gid, ps = new_game(players=2, start=False)
    r = ps[0].client.delete(f"/api/v1/games/{gid}/plans/auto_pass/")
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "game_not_running"
    op = published_schema()["paths"]["/api/v1/games/{game_id}/plans/{kind}/"]["delete"]
    assert "409" in op["responses"]


def test_an_anonymous_client_is_checked_too():
    r = APIClient().get("/api/v1/games/?limit=abc")
    assert r.status_code == 401  # authentication comes first; the body is the declared error


def test_no_boolean_const_in_the_schema():
    """openapi-generator's Python client compared ``const: true`` (Step3Card.step3,
    Auction.sealed) with the string 'true' and refused every answer holding one: a marker is a
    plain boolean, its one value said in its description."""

    def consts(node: object) -> list[object]:
        if isinstance(node, dict):
            here = [node["const"]] if isinstance(node.get("const"), bool) else []
            return here + [c for v in node.values() for c in consts(v)]
        if isinstance(node, list):
            return [c for v in node for c in consts(v)]
        return []

    schema = published_schema()
    assert consts(schema) == []
    components = schema["components"]["schemas"]
    assert components["Step3Card"]["properties"]["step3"]["type"] == "boolean"
    assert "true" in components["Step3Card"]["properties"]["step3"]["description"]
    assert components["Auction"]["properties"]["sealed"]["type"] == "boolean"


def _integers(node: object, path: str) -> list[tuple[str, dict]]:
    """Every integer schema under ``node`` (properties, list items, map values), by path."""
    if not isinstance(node, dict):
        return []
    if node.get("type") == "integer":
        return [(path, node)]
    found = []
    for key, child in (node.get("properties") or {}).items():
        found += _integers(child, f"{path}.{key}")
    for part in ("items", "additionalProperties"):
        found += _integers(node.get(part), f"{path}[]")
    return found


def test_an_actions_numbers_are_bounded_as_the_engine_bounds_them():
    """A client validating a move by the schema refuses what the engine would: a plant field
    holds a plant number (``powergrid.fields`` PLANT_MIN..PLANT_MAX), every other number 0 to
    MAX_NUMBER (the schema said 2^31 - 1, which the engine refused above 100,000)."""
    from powergrid import fields
    from powergrid.actions import ACTIONS

    schemas = published_schema()["components"]["schemas"]
    walked = 0
    for spec in ACTIONS.values():
        name = "".join(p.capitalize() for p in spec.name.split("_")) + "ActionRequest"
        for f in spec.fields:
            for path, node in _integers(schemas[name]["properties"][f.name], f"{name}.{f.name}"):
                walked += 1
                if f.kind in ("plant", "plants"):
                    bounds = (fields.PLANT_MIN, fields.PLANT_MAX)
                else:
                    bounds = (0, fields.MAX_NUMBER)
                assert (node.get("minimum"), node.get("maximum")) == bounds, path
    assert walked >= 10
