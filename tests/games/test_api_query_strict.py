"""Every boolean and every choice of the API's query strings, from the schema: a boolean takes
``true`` or ``false`` once (``?mine=yes``, ``1``, ``TRUE``, empty and ``?mine=true&mine=false``
were 200), a choice one of its values once; anything else is 400 ``invalid_field`` naming the
parameter (``details.field``) with what it takes (``details.choices``). One reader each
(``games.api.base.flag``, ``query_choice``), walked over every such parameter the schema lists,
so a new one is walked without anyone adding it here."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest

from tests.api_schema import published_schema

pytestmark = pytest.mark.django_db

#: What a client may write for a boolean of a query string: none of it is the schema's.
NOT_BOOLEAN = ["yes", "no", "1", "0", "TRUE", "True", "False", "on", "", " true", "true ", "null"]
#: What a client may write for a choice: none of it is one.
NOT_A_CHOICE = ["", "RUNNING", " open", "open ", "bogus", "1", "true"]


def _query_params(kind: str) -> Iterator[tuple[str, str, str, list[str]]]:
    """(method, path, name, the values it takes) of every query parameter of ``kind``
    ("boolean" or "enum") that an operation without a path parameter has."""
    for path, ops in published_schema()["paths"].items():
        for method, op in ops.items():
            for p in op.get("parameters", []):
                schema = p.get("schema", {})
                if p["in"] != "query":
                    continue
                if kind == "boolean" and schema.get("type") == "boolean":
                    yield method, path, p["name"], ["true", "false"]
                elif kind == "enum" and "enum" in schema:
                    yield method, path, p["name"], [str(v) for v in schema["enum"]]


def _get(client: Any, path: str, query: str) -> Any:
    assert "{" not in path, f"{path}: give its path parameters a value here"
    return client.get(f"{path}?{query}")


def _refused(r: Any, name: str, takes: list[str], where: str) -> None:
    assert r.status_code == 400, (where, r.status_code, r.content[:300])
    error = r.json()["error"]
    assert error["code"] == "invalid_field", (where, error)
    assert error["details"]["field"] == name, (where, error)
    assert sorted(error["details"]["choices"]) == sorted(takes), (where, error)
    assert len(re.findall(rf"\b{name}\b", error["message"])) == 1, (where, error["message"])


def test_every_boolean_of_a_query_string_takes_true_or_false_once(make_player):
    client = make_player().client
    walked = []
    for _method, path, name, takes in _query_params("boolean"):
        for good in takes:
            r = _get(client, path, f"{name}={good}")
            assert r.status_code == 200, (path, name, good, r.content[:300])
        for bad in NOT_BOOLEAN:
            _refused(_get(client, path, f"{name}={quote(bad)}"), name, takes, f"{name}={bad!r}")
        for twice in (f"{name}=true&{name}=false", f"{name}=true&{name}=true"):
            _refused(_get(client, path, twice), name, takes, twice)
        walked.append(f"{path} ?{name}")
    assert {"/api/v1/games/ ?mine", "/api/v1/games/ ?seeking_substitute"} <= set(walked), walked


def test_every_choice_of_a_query_string_takes_one_of_its_values_once(make_player):
    client = make_player().client
    walked = []
    for _method, path, name, takes in _query_params("enum"):
        for good in takes:
            r = _get(client, path, f"{name}={good}")
            assert r.status_code == 200, (path, name, good, r.content[:300])
        for bad in [*NOT_A_CHOICE, f"{takes[0]}&{name}={takes[-1]}"]:
            where = f"{path} ?{name}={bad!r}"
            _refused(_get(client, path, f"{name}={quote(bad, safe='&=')}"), name, takes, where)
        walked.append(f"{path} ?{name}")
    assert {"/api/v1/games/ ?status", "/api/v1/tournaments/ ?status"} <= set(walked), walked


def test_absent_is_every_game():
    """The default stays: no parameter, no filter (a reader that refused absence would break
    every client)."""
    from django.http import QueryDict

    from games.api.base import flag, query_choice

    assert flag(QueryDict(""), "mine") is False
    assert query_choice(QueryDict(""), "status", ["open"]) is None


def _int_params() -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    """(method, path, name, schema) of every integer query parameter the schema lists."""
    for path, ops in published_schema()["paths"].items():
        for method, op in ops.items():
            for p in op.get("parameters", []):
                if p["in"] == "query" and p.get("schema", {}).get("type") == "integer":
                    yield method, path, p["name"], p["schema"]


def test_every_whole_number_of_a_query_string_declares_the_bounds_the_server_holds(new_game):
    """Each integer query parameter says its ``minimum`` and ``maximum`` in the schema (a
    client generator and a fuzzer sent ``?limit=0`` as valid: the schema said only "integer"),
    and the server takes both bounds and refuses one past either, and the parameter given
    twice, with 400 ``invalid_field`` naming it. Paths are filled with a running game of the
    caller's, a tournament it directs, its own username and round 1."""
    from tournaments.leagues import league_create
    from tournaments.services import tournament_create

    gid, players = new_game()
    me = players[0]
    t = tournament_create(director=me.user, name="Cup", maps=["germany"])
    league = league_create(director=me.user, name="League", maps=["germany"])
    fill = {"username": me.user.username, "number": "1", "kind": "proxy_bid", "game_id": str(gid),
            "tournament_id": str(t.pk), "league_id": str(league.pk)}  # fmt: skip
    walked = []
    for method, path, name, schema in _int_params():
        assert {"minimum", "maximum"} <= set(schema), (path, name, schema)
        low, high = schema["minimum"], schema["maximum"]
        url = re.sub(r"\{(\w+)\}", lambda m: fill[m.group(1)], path)
        if path.endswith(("/rounds/{number}/", "/seasons/{number}/")):
            continue  # none before the start: its own 404 comes before the query
        call = getattr(me.client, method)
        for bad in (low - 1, high + 1, f"{low}&{name}={low}"):
            r = call(f"{url}?{name}={bad}")
            assert r.status_code == 400, (method, url, name, bad, r.content[:300])
            error = r.json()["error"]
            assert (error["code"], error["details"]["field"]) == ("invalid_field", name), error
            assert (error["details"]["min"], error["details"]["max"]) == (low, high), error
            assert "given once" in error["message"], error
        for good in () if path == "/api/v1/stream/" else (low, high):  # a stream never ends
            r = call(f"{url}?{name}={good}")
            assert r.status_code != 400 or r.json()["error"]["details"].get("field") != name, (
                method, url, name, good, r.content[:300]
            )  # fmt: skip
        walked.append(f"{method.upper()} {path} ?{name}")
    expected = {
        "GET /api/v1/games/ ?limit", "GET /api/v1/games/ ?offset",
        "GET /api/v1/games/{game_id}/chat/ ?before", "GET /api/v1/games/{game_id}/moves/ ?since",
        "GET /api/v1/players/{username}/ ?page", "GET /api/v1/stream/ ?game",
        "GET /api/v1/tournaments/{tournament_id}/players/ ?offset",
        "GET /api/v1/leagues/{league_id}/players/ ?limit",
        "DELETE /api/v1/games/{game_id}/plans/{kind}/ ?plant",
    }  # fmt: skip
    assert expected <= set(walked), sorted(walked)


def test_a_previous_link_past_the_end_is_the_last_page(make_player):
    """An ``offset`` past the end answers no results; its ``previous`` is the last page, not
    the page ``limit`` before (which was empty too, nineteen times over for 13 of 1000)."""
    me = make_player()
    for _ in range(3):
        assert me.post("/api/v1/games/", {"map": "germany", "max_players": 3}).status_code == 201
    page = me.client.get("/api/v1/games/?mine=true&limit=2&offset=1000").json()
    assert (page["count"], page["results"], page["next"]) == (3, [], None)
    assert page["previous"].endswith("?limit=2&mine=true&offset=2"), page["previous"]
    last = me.client.get(page["previous"]).json()
    assert len(last["results"]) == 1
    page = me.client.get("/api/v1/games/?mine=true&limit=5&offset=3").json()
    assert page["previous"].endswith("?limit=5&mine=true"), page["previous"]  # all on page 1
