"""Every boolean and every choice of the API's request bodies with every stranger (the same walk
as ``test_hostile_numbers``'s integers, whose fixtures and helpers it uses: 400
``invalid_field`` naming the field, nothing changed), the strict fields at the class root, and
the read-only keys a request may send back."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from apihelpers import seat_players
from test_hostile_numbers import (  # noqa: F401 (world: the fixture)
    API_BODIES,
    AUTH,
    COMPETITION_IDS,
    HOSTILE,
    P256DH,
    _fill,
    _resolve,
    _schema,
    _set,
    repeats_field_name,
    snapshot,
    world,
)

pytestmark = pytest.mark.django_db


# -- booleans and choices: the same walk over the request bodies' booleans and enums -----------

#: What a client may write where a boolean goes: none of it is JSON true or false.
NOT_BOOLEAN: list[Any] = ["yes", "true", "false", "1", "0", "on", 1, 0, 1.0, [], {}, [True]]
#: What a client may write where a choice (a string of an enum) goes: no JSON string.
NOT_A_CHOICE: list[Any] = [["expert"], {"a": "b"}, 1, 0, 1.5, True, [], {}]
#: The base body of the operations that take a boolean or a choice and no integer (the walk
#: fails naming an operation that has none).
TYPED_BODIES: dict[str, Any] = {
    **API_BODIES,
    "me_partial_update": {},
    "me_bot_partial_update": {},
    "games_seeking": {"seeking": True},
    "push_devices_create": {
        "endpoint": "https://fcm.googleapis.com/fcm/send/x",
        "keys": {"p256dh": P256DH, "auth": AUTH},
    },
    "push_devices_update": {"turns": True},
}
#: Where a body's values are the service's to refuse, with its own documented code.
OWN_CODES = {"webhooks_create events.[]": "invalid_webhook"}
#: Operations whose every refusal has their own documented code (docs/API.md, Round sheets).
OWN_OPERATION_CODES = {"games_sheet_put": "invalid_sheet"}
#: A repr of a Python list, dict or string in a message: what a clean message never holds.
PYTHON_REPR = re.compile(r"\[\s*'|\{\s*'|\"\[|\"\{|'\]|True\b|False\b|None\b")


def _typed_paths(
    schema: dict[str, Any], node: dict[str, Any], prefix: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], str, list[Any], bool]]:
    """(path, "boolean" or "enum", the enum's values, nullable) of every boolean and every
    enum in a request body's schema (a polymorphic body's discriminator is not walked: its
    refusal is the action's, tested in test_api_strict_bodies). A nullable object's keys are
    walked."""
    node = _resolve(schema, node)
    types = node.get("type")
    types = types if isinstance(types, list) else [types]
    nullable = bool(node.get("nullable")) or "null" in types
    if "boolean" in types:
        yield prefix, "boolean", [], nullable
    if "enum" in node and prefix and prefix[-1] != "type":
        yield prefix, "enum", [v for v in node["enum"] if v not in (None, "")], nullable
    members = [_resolve(schema, sub) for sub in node.get("oneOf", [])]
    a_null_or = any(m.get("type") == "null" for m in members)
    for member in members:
        # a nullable enum (oneOf [the enum, NullEnum]) or a nullable object (oneOf [it, null])
        if "enum" in member or (a_null_or and "properties" in member):
            yield from _typed_paths(schema, member, prefix)
    for name, sub in (node.get("properties") or {}).items():
        if not sub.get("readOnly"):  # sent back, ignored: test_read_only_keys_are_ignored
            yield from _typed_paths(schema, sub, (*prefix, name))
    if "array" in types and isinstance(node.get("items"), dict):
        yield from _typed_paths(schema, node["items"], (*prefix, "[]"))


def _typed_cases(w: dict[str, Any]) -> Iterator[tuple[str, str, Any, str, str, list[Any]]]:
    """(method, url, body, label, kind, allowed) for every boolean and choice of the API."""
    from games.models import Game

    schema = _schema()
    seq = Game.objects.get(pk=w["gid"]).seq
    ids = {
        "game_id": w["gid"],
        "message_id": w["mid"],
        "hook_id": w["hook"],
        "request_id": 1,
        "device_id": w["device"],
        **COMPETITION_IDS,
    }
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            rb = op.get("requestBody")
            if not rb or "application/json" not in rb["content"]:
                continue
            oid = op["operationId"]
            found = list(_typed_paths(schema, rb["content"]["application/json"]["schema"]))
            if not found:
                continue
            assert oid in TYPED_BODIES, f"{oid} takes {found}: give it a base body"
            url = re.sub(r"\{(\w+)\}", lambda m: str(ids[m.group(1)]), path)
            for fpath, kind, allowed, nullable in found:
                base = TYPED_BODIES[oid]
                if oid == "games_plans_set":
                    continue  # plans are refused by their own code (invalid_plan): walked below
                base = _fill(base, w, seq)
                values = NOT_BOOLEAN if kind == "boolean" else NOT_A_CHOICE
                if not nullable:
                    values = [*values, None]
                label = f"{oid} {'.'.join(fpath)}"
                for v in values:
                    yield method, url, _set(base, fpath, v), label, kind, allowed


def test_every_boolean_and_choice_of_the_api_refuses_every_stranger(world):  # noqa: F811
    """A boolean takes JSON true or false only (not "yes", "1", 1: issue "loose booleans"); a
    choice takes one of its strings only, and its refusal names the allowed values without a
    Python rendering of what was sent. 400 ``invalid_field`` naming the field; nothing changes."""
    actor = world["actor"]
    before = snapshot()
    walked: set[str] = set()
    enums: set[str] = set()
    for method, url, body, label, kind, allowed in _typed_cases(world):
        r = getattr(actor.client, method)(url, body, format="json")
        where = f"{label} = {json.dumps(body)[:60]}"
        assert r.status_code == 400, (where, r.status_code, r.content[:300])
        error = r.json()["error"]
        oid = label.split(" ", 1)[0]
        code = OWN_CODES.get(label, OWN_OPERATION_CODES.get(oid, "invalid_field"))
        assert error["code"] == code, (where, error)
        field = label.split(" ", 1)[1].replace(".[]", "")
        assert error["details"]["field"].startswith(field), (where, error)
        assert not PYTHON_REPR.search(error["message"]), (where, error["message"])
        if kind == "enum":
            assert all(str(a) in error["message"] for a in allowed), (where, error["message"])
            # docs/API.md: a refused choice's details.choices lists what the field takes
            assert set(error["details"].get("choices", [])) >= set(map(str, allowed)), (
                where,
                error,
            )
            enums.add(label)
        assert not repeats_field_name(error["message"], error["details"]["field"]), (
            where,
            error["message"],
        )
        walked.add(label)
    assert snapshot() == before
    for must in (
        "games_practice_create emails",
        "games_practice_create level",
        "games_create options.private",
        "games_create options.bot_level",
        "games_create options.takebacks_rated",
        "me_partial_update language",
        "me_partial_update notification_mode",
        "webhooks_create format",
        "webhooks_create events.[]",
        "games_seeking seeking",
        "games_sheet_put power.value",
        "games_sheet_put resources.mode",
        "push_devices_create turns",
        "tournaments_create private",
    ):
        assert must in walked, (must, sorted(walked))
    assert {"games_create options.bot_level", "me_partial_update language"} <= enums


def test_every_request_serializer_uses_the_strict_fields():
    """The class root: every boolean and every choice of every request body is the strict
    field (``games.api.serializers``), at any depth, so a new one cannot be loose."""
    from rest_framework import serializers

    from games.api import serializers as s
    from games.api import takeback  # noqa: F401  (declares the practice body)

    def walk(ser: Any, where: str) -> Iterator[tuple[str, Any]]:
        for name, f in ser.fields.items():
            yield f"{where}.{name}", f
            if isinstance(f, serializers.Serializer):
                yield from walk(f, f"{where}.{name}")
            child = getattr(f, "child", None)
            if child is not None:
                yield f"{where}.{name}[]", child

    def subclasses(cls: type) -> Iterator[type]:
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    seen = 0
    for cls in set(subclasses(s.RequestSerializer)):
        try:
            ser = cls()
        except TypeError:
            continue
        for where, f in walk(ser, cls.__name__):
            if isinstance(f, serializers.BooleanField):
                assert isinstance(f, s.StrictBooleanField), where
                seen += 1
            if isinstance(f, serializers.ChoiceField):
                assert isinstance(f, s.StrictChoiceField), where
                seen += 1
            if isinstance(f, serializers.FloatField | serializers.DecimalField):
                assert isinstance(f, s.DecimalNumberField), where
                seen += 1
    assert seen >= 16


# -- read-only keys ---------------------------------------------------------------------------


def _read_only_paths(
    schema: dict[str, Any], node: dict[str, Any], prefix: tuple[str, ...] = ()
) -> Iterator[tuple[str, ...]]:
    """The paths of an answer's read-only keys (lists: their first item)."""
    if node.get("readOnly") and prefix:
        yield prefix
        return
    node = _resolve(schema, node)
    for sub in node.get("oneOf", []):
        yield from _read_only_paths(schema, sub, prefix)
    for name, sub in (node.get("properties") or {}).items():
        yield from _read_only_paths(schema, sub, (*prefix, name))
    if isinstance(node.get("items"), dict):
        yield from _read_only_paths(schema, node["items"], (*prefix, "[]"))


def _plans(rows: Any) -> list[tuple[int, str, str, str]]:
    return sorted((p.seat, p.kind, p.key, json.dumps(p.data, sort_keys=True)) for p in rows)


def test_read_only_keys_are_ignored(world):  # noqa: F811
    """A key an answer's schema marks ``readOnly`` (a round sheet's ``game``, ``due``, its lines'
    reasons) is kept in the request's schema, still ``readOnly``
    (``games.api.openapi.read_only_keys_in_requests``), because a PUT takes the document GET
    returned: sent back, whatever it holds, it is ignored, and the request does what it does
    without it. The walks of every boolean, choice and integer leave these keys to this test."""
    import powergrid
    from games.models import Game, Plan

    schema = _schema()
    game = Game.objects.get(pk=world["gid"])
    waiting = next(  # a player the game does not wait for: a sheet's answer makes no move
        p
        for seat, p in seat_players(world["gid"], world["players"]).items()
        if seat not in powergrid.to_act(powergrid.from_json(game.state_json))
    )
    walked = []
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            rb = op.get("requestBody")
            if not rb or "application/json" not in rb["content"]:
                continue
            ref = rb["content"]["application/json"]["schema"].get("$ref", "")
            answer = schema["components"]["schemas"].get(ref.rsplit("/", 1)[-1][: -len("Request")])
            found = list(_read_only_paths(schema, answer or {}))
            if not found:
                continue
            oid = op["operationId"]
            assert oid == "games_sheet_put", f"{oid} has read-only keys {found}: walk them here"
            url = path.replace("{game_id}", str(world["gid"]))
            base = _fill(API_BODIES[oid], world, game.seq)
            hostile = base
            for i, fpath in enumerate(found):
                hostile = _set(hostile, fpath, HOSTILE[i % len(HOSTILE)])
            r = getattr(waiting.client, method)(url, hostile, format="json")
            assert r.status_code == 200, (oid, r.content[:300])
            plans = _plans(Plan.objects.filter(game=game))
            r = getattr(waiting.client, method)(url, base, format="json")
            assert r.status_code == 200, (oid, r.content[:300])
            again = _plans(Plan.objects.filter(game=game))
            assert plans == again != [], oid
            walked.append(oid)
    assert walked == ["games_sheet_put"]
