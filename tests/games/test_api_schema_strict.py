"""The published schema is exact: valid OpenAPI 3.1, every response a component generated from
the declared shapes (games.shapes, powergrid.shapes), every object closed, nothing untyped; and
the engine's view fits it in every variant, deck and phase, for every seat and a spectator."""

from __future__ import annotations

import copy
import json
import typing

import pytest

import powergrid
from games import shapes as server_shapes
from games.api.openapi import name_of
from games.sheets import shapes as sheet_shapes
from powergrid import shapes as engine_shapes
from powergrid.bots import HeuristicBot, RandomBot
from tests.api_schema import published_schema, shape_errors
from tournaments import shapes as tournament_shapes

SCHEMAS = published_schema()["components"]["schemas"]

#: Shapes the engine and the server use inside, never answered as such: the engine's view and
#: player (the server's State and Player add names), the map as the engine gives it (the API's
#: Map adds rules), the tournaments' pages' common keys (each page adds its ``results``).
INTERNAL = {"PlayerView", "ViewOf", "MapData", "_Paged"}

#: Values the schema leaves open on purpose, each with its reason.
OPEN = {
    ("ErrorDetail", "details"): "code-specific: {field}, {seq}, {retry_after}, ...",
}


def _shapes() -> dict[str, object]:
    """Every TypedDict and named union the shape modules declare, by component name (a package's
    declared in its modules, which it re-exports: ``games.shapes``)."""
    out = {}
    for module in (engine_shapes, server_shapes, sheet_shapes, tournament_shapes):
        for value in vars(module).values():
            where = str(getattr(value, "__module__", ""))
            try:
                if where in (module.__name__, "typing") or where.startswith(module.__name__ + "."):
                    out[name_of(value)] = value
            except TypeError:
                continue
    return out


def _refs(schema: object) -> set[str]:
    text = json.dumps(schema)
    return {part.split('"', 1)[0] for part in text.split('"#/components/schemas/')[1:]}


def _responses() -> list[tuple[str, str, str, dict]]:
    out = []
    for path, item in published_schema()["paths"].items():
        for method, op in item.items():
            for status, resp in op["responses"].items():
                media = (resp.get("content") or {}).get("application/json")
                if media is not None:
                    out.append((f"{method.upper()} {path}", status, method, media["schema"]))
    return out


def test_the_schema_is_valid_openapi_3_1():
    from openapi_spec_validator import validate

    assert published_schema()["openapi"].startswith("3.1")
    validate(published_schema())


@pytest.mark.parametrize(("op", "status", "method", "schema"), _responses(), ids=lambda x: "")
def test_every_json_response_is_a_declared_shape(op, status, method, schema):
    """A component generated from the shapes, or a list of one: never an inline object."""
    target = schema.get("items", schema) if schema.get("type") == "array" else schema
    assert set(target) == {"$ref"}, f"{op} {status}: {schema}"
    name = target["$ref"].rsplit("/", 1)[-1]
    assert name in _shapes(), f"{op} {status}: {name} is not declared in games.shapes"


def _reachable() -> set[str]:
    seen: set[str] = set()
    todo = {n for *_, s in _responses() for n in _refs(s)}
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo |= _refs(SCHEMAS[name]) - seen
    return seen


@pytest.mark.parametrize("name", sorted(_reachable()))
def test_every_object_in_a_response_is_closed_and_typed(name):
    schema = SCHEMAS[name]
    if "oneOf" in schema:
        assert all(set(m) == {"$ref"} for m in schema["oneOf"]), schema
        return
    if schema.get("type") != "object":
        assert "enum" in schema, schema  # a named enum
        return
    assert schema["additionalProperties"] is False, f"{name} is not closed"
    for key, prop in schema["properties"].items():
        untyped = not ({"type", "$ref", "oneOf", "allOf", "const", "enum"} & set(prop))
        values = prop.get("additionalProperties")
        if untyped or values == {}:
            assert (name, key) in OPEN, f"{name}.{key} is untyped: {prop}"


def test_every_declared_shape_is_published():
    missing = set(_shapes()) - set(SCHEMAS) - INTERNAL
    assert not missing, f"declared but in no answer: {missing}"


# ------------------------------------------------------------------ the validator is strict
def _state(view: dict, seat: int | None) -> dict:
    """The engine's view as the server answers it (names and the server's keys added)."""
    players = [{**p, "name": f"P{p['seat']}", "username": f"u{p['seat']}"} for p in view["players"]]
    return {**view, "players": players, "game": 1, "seq": 0, "seat": seat, "deadline": None}


def test_the_validator_refuses_what_the_schema_does_not_say():
    s = powergrid.new_game(map="germany", players=3, seed=4)
    me = powergrid.to_act(s)[0]
    good = json.loads(json.dumps(_state(powergrid.view(s, me), me)))
    assert good["auction"] is None
    assert shape_errors("State", good) == []  # a null auction is valid
    wrong = []
    for change in (
        lambda d: d.update(extra=1),
        lambda d: d.pop("supply"),
        lambda d: d["players"][me].update(money="50"),
        lambda d: d["players"][1].update(money=None, extra=True),
        lambda d: d["plant_market"]["current"][0].update(stored={}),
        lambda d: d.update(phase="lunch"),
        lambda d: d.update(auction={}),
        lambda d: d["legal"][0].update(type="bid"),
        lambda d: d.update(deadline="tomorrow"),
        lambda d: d["resource_market"].update(wood=[1]),
    ):
        bad = copy.deepcopy(good)
        change(bad)
        wrong.append(bool(shape_errors("State", bad)))
    assert all(wrong), wrong


# ------------------------------------------------------------------ the engine fits the schema
GAMES = [
    ("germany", 3, "standard", "base"),
    ("usa", 4, "sealed_bid", "base"),
    ("france", 5, "standard", "new"),
    ("italy", 6, "first_game", "mixed"),
    ("germany", 2, "sealed_bid", "mixed"),
]


@pytest.mark.parametrize(("map_", "players", "variant", "deck"), GAMES)
def test_every_view_of_a_whole_game_fits_the_schema(map_, players, variant, deck):
    """Every seat's view and the spectator's, after every move of a bot game (heuristic bots on
    even seats, random on odd), validates as the State the API answers."""
    state = powergrid.new_game(
        map=map_, players=players, seed=players, variant=variant, plant_deck=deck
    )
    bots = [HeuristicBot() if i % 2 == 0 else RandomBot(i) for i in range(players)]
    seen_auction = seen_end = False
    for _ in range(3000):
        for seat in (None, *range(players)):
            body = json.loads(json.dumps(_state(powergrid.view(state, seat), seat)))
            errors = shape_errors("State", body)
            assert not errors, (state.round, state.phase, seat, errors[:5])
        seen_auction |= state.auction is not None
        if state.phase == "finished":
            seen_end = True
            break
        seat = powergrid.to_act(state)[0]
        state = powergrid.apply(state, seat, bots[seat].choose(state, seat))
    assert seen_auction
    assert seen_end


def test_the_literals_of_the_server_are_its_models():
    from games.models import Game, Move

    assert typing.get_args(server_shapes.GameStatus) == tuple(Game.Status.values)
    # ``sealed``: what a sealed answer's source shows until its auction's bids are opened.
    assert typing.get_args(server_shapes.MoveSource) == (*Move.Source.values, "sealed")
