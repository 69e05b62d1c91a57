"""The OpenAPI components of every response, generated from the declared shapes.

``games.shapes`` and ``powergrid.shapes`` declare each response body once, as TypedDicts. This
module turns them into OpenAPI 3.1 schema components (JSON Schema 2020-12) for drf-spectacular,
so the published schema is exactly what the code is typed to return:

* a TypedDict is a closed object (``additionalProperties: false``) named after its class; its
  docstring is the description; every key is required unless ``NotRequired``;
* ``X | None`` is nullable, ``Literal[...]`` an enum (one value: a ``const``, but a plain
  ``boolean`` for ``Literal[True]``, which generators mishandle as a ``const``), ``datetime`` a
  date-time string, ``dict[K, V]`` a map (``propertyNames`` when ``K`` is a ``Literal``),
  ``tuple[A, B]`` a pair;
* a union of TypedDicts is ``oneOf``, with a discriminator when its members share a key typed
  with one ``Literal`` value (``type``, ``kind``); ``Annotated[..., Named("X")]`` names it;
* ``Annotated[..., Doc("...")]`` describes a field; ``Annotated[..., Component("X")]`` refers to
  a component built from a registry (:data:`REGISTRY_COMPONENTS`), not from a TypedDict;
* ``Annotated[..., ReadOnly()]`` marks a key the server writes and ignores in a request
  (``readOnly``: a round sheet's ``due``, its lines' reasons).

A view names its response with ``shape(Thing)`` (``shape(Thing)(many=True)`` for a list).
"""

from __future__ import annotations

import datetime
import json
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any, Literal, NotRequired, Required, TypeGuard, TypeVar, get_args, get_origin

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.plumbing import ResolvedComponent
from rest_framework import serializers
from rest_framework.utils.encoders import JSONEncoder

from games.api.errors import ENGINE_CODES, ERROR_CODES
from games.shapes import Component, ReadOnly
from powergrid.actions import ACTIONS, Field
from powergrid.shapes import Doc, Named
from powergrid.takeback import TAKEBACK

if typing.TYPE_CHECKING:
    from drf_spectacular.openapi import AutoSchema

Schema = dict[str, Any]  # a JSON Schema object, as drf-spectacular takes it


# ---------------------------------------------------------------- type hints -> JSON Schema
def _is_typeddict(tp: object) -> TypeGuard[type]:
    return isinstance(tp, type) and typing.is_typeddict(tp)


def _typevars(td: type) -> dict[object, object]:
    """What each type variable of ``td``'s generic bases stands for (``ViewOf[Player]``)."""
    out: dict[object, object] = {}
    for base in getattr(td, "__orig_bases__", ()):
        origin = get_origin(base)
        if origin is not None and _is_typeddict(origin):
            params = getattr(origin, "__parameters__", ())
            out.update(zip(params, get_args(base), strict=True))
            out.update(_typevars(origin))
    return out


def _substitute(tp: object, env: dict[object, object]) -> object:
    if isinstance(tp, TypeVar):
        return env.get(tp, tp)
    origin = get_origin(tp)
    if origin is None or not env:
        return tp
    args = get_args(tp)
    if origin is typing.Annotated:
        return typing.Annotated[(_substitute(args[0], env), *args[1:])]
    new = tuple(_substitute(a, env) for a in args)
    if origin in (typing.Union, types.UnionType):
        return typing.Union[new]  # noqa: UP007 (built from a tuple)
    if origin in (NotRequired, Required):
        return origin[new[0]]
    return origin[new if len(new) > 1 else new[0]]


def _unwrap(tp: object) -> tuple[object, bool | None, list[object]]:
    """``tp`` without ``Required``/``NotRequired``/``Annotated``: (type, required?, metadata)."""
    required: bool | None = None
    metadata: list[object] = []
    while True:
        origin = get_origin(tp)
        if origin is NotRequired:
            required, tp = False, get_args(tp)[0]
        elif origin is Required:
            required, tp = True, get_args(tp)[0]
        elif origin is typing.Annotated:
            metadata.extend(get_args(tp)[1:])
            tp = get_args(tp)[0]
        else:
            return tp, required, metadata


def fields_of(td: type) -> dict[str, tuple[object, bool, list[object]]]:
    """Each key of a TypedDict: (its type, whether it is required, its metadata)."""
    if getattr(td, "__total__", True) is False:
        raise TypeError(f"{td.__name__}: declare optional keys with NotRequired, not total=False")
    env = _typevars(td)
    out = {}
    for key, hint in typing.get_type_hints(td, include_extras=True).items():
        tp, required, meta = _unwrap(_substitute(hint, env))
        out[key] = (tp, required is not False, meta)
    return out


_BASIC: dict[object, Schema] = {
    int: {"type": "integer"},
    str: {"type": "string"},
    bool: {"type": "boolean"},
    float: {"type": "number"},
    datetime.datetime: {"type": "string", "format": "date-time"},
    object: {},
}

#: Resolves a TypedDict (or a named union, or a registry component's name) to its $ref.
RefOf = Callable[[object], Schema]


def _nullable(schema: Schema) -> Schema:
    if "$ref" in schema or "oneOf" in schema or not schema:
        return {"oneOf": [schema, {"type": "null"}]} if schema else {}
    if "enum" in schema:
        return {**schema, "enum": [*schema["enum"], None], "type": [schema["type"], "null"]}
    return {**schema, "type": [schema["type"], "null"]}


def to_schema(tp: object, ref: RefOf, meta: list[object] | None = None) -> Schema:
    """The JSON Schema of a type hint; TypedDicts and named unions become ``ref(tp)``."""
    tp, _, inner = _unwrap(tp)
    meta = [*(meta or []), *inner]
    for m in meta:
        if isinstance(m, Component):
            schema = ref(m)
            break
        if isinstance(m, Named):
            schema = ref(typing.Annotated[tp, m])
            break
    else:
        schema = _plain(tp, ref)
    if any(isinstance(m, ReadOnly) for m in meta):
        schema = {**schema, "readOnly": True}
    docs = [m.text for m in meta if isinstance(m, Doc)]
    if docs:  # before what the type says of itself (a marker's one value)
        said = [schema["description"]] if "description" in schema and "$ref" not in schema else []
        schema = {**schema, "description": _markdown(" ".join([*docs, *said]))}
    return schema


def _markdown(text: str) -> str:
    """A docstring's words as the schema's Markdown (reST's ``code`` is Markdown's `code`)."""
    return " ".join(text.split()).replace("``", "`")


def _plain(tp: object, ref: RefOf) -> Schema:
    if tp in _BASIC:
        return dict(_BASIC[tp])
    if _is_typeddict(tp):
        return ref(tp)
    origin, args = get_origin(tp), get_args(tp)
    if origin is Literal:
        kinds = {type(a) for a in args}
        if len(kinds) != 1 or next(iter(kinds)) not in (str, int, bool):
            raise TypeError(f"Literal of mixed or unsupported values: {tp}")
        if len(args) == 1 and kinds == {bool}:
            # A marker (``Step3Card.step3``, ``Auction.sealed``): a plain boolean, its one value
            # in words. openapi-generator's Python client compares ``const: true`` with the
            # string 'true' and refuses every answer that has it.
            return {"type": "boolean", "description": f"Always `{str(args[0]).lower()}`."}
        if len(args) == 1:  # a tag (``type``, ``kind``): a constant, not a named enum
            return {**_BASIC[next(iter(kinds))], "const": args[0]}
        return {**_BASIC[next(iter(kinds))], "enum": list(args)}
    if origin in (typing.Union, types.UnionType):
        members = [a for a in args if a is not type(None)]
        inner = to_schema(members[0], ref) if len(members) == 1 else _union(members, ref)
        return _nullable(inner) if len(members) < len(args) else inner
    if origin is list:
        return {"type": "array", "items": to_schema(args[0], ref)}
    if origin is tuple:
        return {
            "type": "array",
            "prefixItems": [to_schema(a, ref) for a in args],
            "minItems": len(args),
            "maxItems": len(args),
        }
    if origin is dict:
        key, value = args
        schema: Schema = {"type": "object", "additionalProperties": to_schema(value, ref)}
        key = _unwrap(key)[0]
        if get_origin(key) is Literal:
            schema["propertyNames"] = {"enum": list(get_args(key))}
        elif key is not str:
            raise TypeError(f"JSON object keys are strings: {tp}")
        return schema
    raise TypeError(f"No JSON Schema for {tp!r}: declare it in games.shapes or powergrid.shapes")


def _discriminator(members: list[object]) -> str | None:
    """The key every member has, typed with one Literal value each (all different)."""
    typeddicts = [m for m in members if _is_typeddict(m)]
    if len(typeddicts) != len(members):
        return None
    fields = [fields_of(m) for m in typeddicts]
    for key in fields[0]:
        values = []
        for f in fields:
            tp = f.get(key, (None, False, []))[0]
            if get_origin(tp) is not Literal or len(get_args(tp)) != 1 or not f[key][1]:
                break
            values.append(get_args(tp)[0])
        else:
            if len(set(values)) == len(values):
                return key
    return None


def _union(members: list[object], ref: RefOf) -> Schema:
    schema: Schema = {"oneOf": [to_schema(m, ref) for m in members]}
    key = _discriminator(members)
    if key is not None:  # then every member is a TypedDict
        typeddicts = [m for m in members if _is_typeddict(m)]
        schema["discriminator"] = {
            "propertyName": key,
            "mapping": {
                get_args(fields_of(m)[key][0])[0]: one["$ref"]
                for m, one in zip(typeddicts, schema["oneOf"], strict=True)
            },
        }
    return schema


def typeddict_schema(td: type, ref: RefOf) -> Schema:
    """A TypedDict as a closed object."""
    fields = fields_of(td)
    schema: Schema = {"type": "object"}
    doc = td.__dict__.get("__doc__")
    if doc:
        schema["description"] = _markdown(doc)
    schema["properties"] = {k: to_schema(tp, ref, meta) for k, (tp, _, meta) in fields.items()}
    required = [k for k, (_, req, _) in fields.items() if req]
    if required:
        schema["required"] = required
    schema["additionalProperties"] = False
    return schema


def named_union_schema(tp: object, ref: RefOf) -> Schema:
    union, _, _ = _unwrap(tp)
    return _union(list(get_args(union)), ref)


def name_of(tp: object) -> str:
    if _is_typeddict(tp):
        return str(tp.__name__)
    for m in _unwrap(tp)[2]:
        if isinstance(m, Named):
            return m.name
    raise TypeError(f"{tp!r} has no component name: give it Named('...')")


# ---------------------------------------------------------------- components from registries
_FIELD_SCHEMAS: dict[str, Schema] = {
    "int": {"type": "integer"},
    "plant": {"type": "integer"},
    "count": {"type": "integer", "minimum": 0},
    "tokens": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
    "cities": {"type": "array", "items": {"type": "string"}},
    "plants": {"type": "array", "items": {"type": "integer"}},
    "hybrid": {
        "type": "object",
        "additionalProperties": {
            "type": "object",
            "additionalProperties": {"type": "integer", "minimum": 0},
        },
    },
}


def _field_schema(f: Field) -> Schema:
    return {**_FIELD_SCHEMAS[f.kind], "description": f.help}


def logged_action_schemas() -> dict[str, Schema]:
    """Each action type as the move log shows it, from the engine's registry: the fields the
    engine accepted (a secret action's, a sealed bid's amount, may be withheld)."""
    out: dict[str, Schema] = {}
    for spec in ACTIONS.values():
        name = "Logged" + "".join(p.capitalize() for p in spec.name.split("_"))
        required = ["type"] + [f.name for f in spec.fields if f.required and not spec.secret]
        out[name] = {
            "type": "object",
            "description": spec.summary
            + (" Its fields are withheld until its auction is over." if spec.secret else "")
            + (
                " In a sealed auction it is a sealed answer: shown as a seal_bid until the bids "
                "are opened."
                if spec.sealed_in_sealed_auction
                else ""
            ),
            "properties": {
                "type": {"type": "string", "const": spec.name},
                **{f.name: _field_schema(f) for f in spec.fields},
            },
            "required": required,
            "additionalProperties": False,
        }
    # A take-back is an entry of the log too (powergrid.takeback), never an action to send.
    out["LoggedTakeback"] = {
        "type": "object",
        "description": "A take-back: the moves it cancels (their seqs, oldest first: the latest "
        "that stood) and the seats that agreed (empty: taken back alone). See docs/API.md, "
        "Take-backs.",
        "properties": {
            "type": {"type": "string", "const": TAKEBACK},
            "cancels": {"type": "array", "items": {"type": "integer", "minimum": 1}},
            "accepted_by": {"type": "array", "items": {"type": "integer", "minimum": 0}},
        },
        "required": ["type", "cancels", "accepted_by"],
        "additionalProperties": False,
    }
    return out


def error_code_schema() -> Schema:
    return {
        "type": "string",
        "enum": sorted(set(ERROR_CODES) | set(ENGINE_CODES)),
        "description": "Machine-readable reason. "
        + " ".join(f"`{c}` {d}" for c, d in ERROR_CODES.items())
        + " Engine refusals (400): "
        + ", ".join(f"`{c}`" for c in ENGINE_CODES)
        + ".",
    }


# ---------------------------------------------------------------- drf-spectacular glue
class ShapeSerializer(serializers.Serializer):
    """A stand-in that lets ``extend_schema`` name a shape; never used to serialize."""

    shape: object = None


@cache
def shape(tp: object) -> type[ShapeSerializer]:
    """The response declaration of a TypedDict or a named union, for ``extend_schema``."""
    return type(name_of(tp) + "Shape", (ShapeSerializer,), {"shape": tp})


def _register(auto_schema: AutoSchema, name: str, schema: Schema) -> Schema:
    component = ResolvedComponent(
        name=name, type=ResolvedComponent.SCHEMA, object=("registry", name), schema=schema
    )
    auto_schema.registry.register_on_missing(component)
    return dict(component.ref)


def _logged_action(auto_schema: AutoSchema) -> Schema:
    """The move log's action: one of the engine's action types, or a take-back, told apart by
    ``type``."""
    members = [_register(auto_schema, n, s) for n, s in logged_action_schemas().items()]
    return {
        "oneOf": members,
        "discriminator": {
            "propertyName": "type",
            "mapping": {t: m["$ref"] for t, m in zip([*ACTIONS, TAKEBACK], members, strict=True)},
        },
    }


#: The components ``Component(name)`` refers to, each built from its registry.
REGISTRY_COMPONENTS: dict[str, Callable[[AutoSchema], Schema]] = {
    "LoggedAction": _logged_action,
    "ErrorCode": lambda _auto_schema: error_code_schema(),
}


def _ref_resolver(auto_schema: AutoSchema, direction: str) -> RefOf:
    def ref(tp: object) -> Schema:
        if isinstance(tp, Component):
            build = REGISTRY_COMPONENTS[tp.name]
            return _register(auto_schema, tp.name, build(auto_schema))
        component = auto_schema.resolve_serializer(shape(tp), direction)  # type: ignore[arg-type]
        return dict(component.ref)

    return ref


class ShapeExtension(OpenApiSerializerExtension):
    target_class = ShapeSerializer
    match_subclasses = True

    def get_name(self, auto_schema: AutoSchema, direction: str) -> str | None:
        return name_of(self.target.shape)

    def map_serializer(self, auto_schema: AutoSchema, direction: str) -> Schema:
        tp = self.target.shape
        ref = _ref_resolver(auto_schema, direction)
        if _is_typeddict(tp):
            return typeddict_schema(tp, ref)
        return named_union_schema(tp, ref)


# ---------------------------------------------------------------- answers any operation may give
_ANY = {
    "406": "not_acceptable: the Accept header asks for something other than JSON.",
    "500": "server_error: a bug; reported to the operators.",
    "503": "service_unavailable: the database is briefly unavailable; nothing was changed. "
    "Retry after Retry-After seconds.",
}
_WITH_BODY = {
    "400": "invalid_field: a key the operation's body does not declare (details.field, "
    "details.allowed; an operation without a body takes none), or a field's wrong type or value; "
    "parse_error: the body is not JSON.",
    "413": "request_too_large: the body is larger than the server accepts (details.max_bytes).",
    "415": "unsupported_media_type: send application/json.",
}


def common_responses(result: Schema, generator: object, request: object, public: bool) -> Schema:
    """drf-spectacular post-processing hook: the error answers any operation may give (and those
    of any request with a body), each with the error shape, listed on every operation."""
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for item in result.get("paths", {}).values():
        for method, operation in item.items():
            if method not in ("get", "post", "put", "patch", "delete"):
                continue
            extra = {**_ANY, **(_WITH_BODY if method in ("post", "put", "patch") else {})}
            if method == "delete":  # a body sent with a DELETE is refused (games.api.bodiless)
                extra["400"] = _WITH_BODY["400"]
            responses = operation.setdefault("responses", {})
            for status, text in extra.items():
                responses.setdefault(status, {"description": text, "content": error})
    return result


def read_only_keys_in_requests(
    result: Schema, generator: object, request: object, public: bool
) -> Schema:
    """drf-spectacular post-processing hook: a request component keeps its answer twin's
    read-only keys (``readOnly``, optional). drf-spectacular drops them from ``XRequest``, and with
    the closed bodies a strict client then refused to send back what GET returned, which is
    exactly what PUT takes (a round sheet: its ``game``, ``due``, each line's ``reason``); the
    server ignores them."""
    components = result.get("components", {}).get("schemas", {})
    for name, schema in components.items():
        twin = components.get(name.removesuffix("Request")) if name.endswith("Request") else None
        if not isinstance(twin, dict) or not isinstance(schema, dict):
            continue
        for key, prop in twin.get("properties", {}).items():
            if isinstance(prop, dict) and prop.get("readOnly"):
                schema.setdefault("properties", {}).setdefault(key, prop)
    return result


def closed_request_bodies(
    result: Schema, generator: object, request: object, public: bool
) -> Schema:
    """drf-spectacular post-processing hook: every request body, and every object within it
    (``options``, each action type), is closed (``additionalProperties: false``), as the server
    reads it: ``games.api.serializers.RequestSerializer`` refuses a key it does not declare
    (400 ``invalid_field``). A map (``amounts``, ``tokens``) keeps its declared values."""
    components = result.get("components", {}).get("schemas", {})
    seen: set[str] = set()

    def close(schema: object) -> None:
        if isinstance(schema, list):
            for one in schema:
                close(one)
            return
        if not isinstance(schema, dict):
            return
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            name = ref.rsplit("/", 1)[-1]
            if name not in seen:
                seen.add(name)
                close(components.get(name))
        if "properties" in schema:
            schema.setdefault("additionalProperties", False)
            close(list(schema["properties"].values()))
        for key in ("allOf", "oneOf", "anyOf"):
            close(schema.get(key))
        for key in ("items", "additionalProperties"):
            close(schema.get(key))

    for item in result.get("paths", {}).values():
        for method, operation in item.items():
            if method in ("post", "put", "patch") and "requestBody" in operation:
                for media in operation["requestBody"].get("content", {}).values():
                    close(media.get("schema"))
    return result


def as_served_json(result: Schema, generator: object, request: object, public: bool) -> Schema:
    """drf-spectacular post-processing hook, the last: the schema as the JSON it is served as
    (DRF's encoder: a datetime of an example is ISO 8601 with ``Z``, ``2026-11-03T09:00:00Z``),
    so every reader of the generated schema (the committed ``clients/openapi.json``, the tests'
    validator) has the very document ``/api/schema/`` serves, not Python values that each
    would write its own way (``str()`` wrote ``2026-11-03 09:00:00+00:00``, no date-time)."""
    served: Schema = json.loads(json.dumps(result, cls=JSONEncoder))
    return served
