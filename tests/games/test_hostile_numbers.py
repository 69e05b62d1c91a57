"""Every number a stranger can send, with every hostile value: a 4xx with a code (or, by email,
an answer saying what was not understood), never a 500, and nothing changed.

The entry points are derived where the code can list them, so a new one is walked without
anyone adding it here:

* the API's query parameters and JSON body fields of type integer: from the OpenAPI schema
  (every operation's parameters, every request body's properties, nested objects, maps and
  the action types' fields of the polymorphic ``Action`` included; a key marked ``readOnly``,
  which a request may send back and the server ignores, is walked by
  ``test_hostile_choices.test_read_only_keys_are_ignored``); an operation with an integer
  field and no base body in ``API_BODIES`` fails the test;
* ids in paths: every URL pattern of the URL configuration with a parameter converted to a
  number, with ids at and above 2^63 (and no pattern may use Django's unbounded ``int``);
* the pages' forms: the move form's fields from the engine's description of each action type,
  the create form's integer fields from the form class, and the other pages' number inputs,
  listed in ``PAGE_FIELDS`` and checked against the number inputs the pages render;
* the email commands that take a number: every verb of the reply parser but those that take
  none (``EMAIL_WITHOUT_NUMBER``).

The same walk over the bodies' booleans and choices is ``test_hostile_choices``, over their
decimals ``test_hostile_decimals``.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode

import pytest
from apihelpers import seat_players
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

pytestmark = pytest.mark.django_db

#: What a client may write where a number goes (JSON values; text channels get str() of the
#: non-strings).
HOSTILE: list[Any] = [
    "፩",  # Ethiopic digit one: isdigit() is true, int() refuses it
    "²",  # superscript two
    "①",  # circled one
    "１２",  # full-width twelve
    "+1",
    "-1",
    " 1",
    "1 ",
    "1" * 10000,
    1.5,
    "1.5",
    True,
    None,
    {"a": 1},
    [1],
    "0x10",
    "1e3",
    "٣",  # Arabic-Indic three: int() reads it as 3
    "13",  # a string of ASCII digits is not a JSON integer
    -1,
    2**63,
    10**30,
]
TEXT_HOSTILE: list[str] = sorted(
    {v if isinstance(v, str) else json.dumps(v) for v in HOSTILE if not isinstance(v, int)}
    - {"13"}  # digits are a number in a form or a query string
    | {"True", "None", "{'a': 1}", "[1]"}
    | {"-1", str(2**63), "1" * 30}
)
TOO_BIG_ID = 2**63
#: A browser's push keys as a subscription gives them (base64url: a P-256 point, 16 bytes).
P256DH = "BAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE"
AUTH = "AQEBAQEBAQEBAQEBAQEBAQ"


# -- the world ------------------------------------------------------------------------------


@pytest.fixture
def world(new_game, make_player, settings):
    """A running game (its players, the one to act), a chat message, a webhook, a push device
    of the actor's, a tournament of someone else's, an open game whose creator may remove a
    seat; webhooks may name local addresses (no DNS, no internet)."""
    import powergrid
    from accounts.models import PushSubscription
    from games.models import ChatMessage, Game, Webhook
    from tournaments.models import Tournament

    settings.WEBHOOK_ALLOW_PRIVATE = True
    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    s = powergrid.from_json(Game.objects.get(pk=gid).state_json)
    actor = seats[powergrid.to_act(s)[0]]
    msg = ChatMessage.objects.create(game_id=gid, author=actor.user, text="hello")
    hook = Webhook.objects.create(owner=actor.user, url="http://127.0.0.1:9/h", secret="s")
    open_gid, open_ps = new_game(players=3, start=False)
    device = PushSubscription.objects.create(
        user=actor.user, endpoint="https://fcm.googleapis.com/fcm/send/w", p256dh=P256DH, auth=AUTH
    )
    cup = Tournament.objects.create(name="Cup", director=open_ps[0].user, maps=["germany"])
    return {
        "gid": gid,
        "actor": actor,
        "players": ps,
        "mid": msg.pk,
        "hook": hook.pk,
        "open_gid": open_gid,
        "creator": open_ps[0],
        "plant": s.market[0],
        "round": s.round,
        "device": device.pk,
        "tournament": cup.pk,
    }


def snapshot() -> str:
    """Everything a refused request must leave as it was."""
    from accounts.models import PushSubscription
    from games.models import (
        ChatMessage,
        Game,
        Invitation,
        Move,
        Plan,
        Seat,
        TakebackRequest,
        Webhook,
        WebhookDelivery,
    )
    from tournaments.models import Entrant, League, Tournament

    rows: list[Any] = [
        list(Game.objects.order_by("pk").values_list("pk", "seq", "status", "state_json")),
        list(
            Seat.objects.order_by("pk").values_list(
                "pk", "game_id", "user_id", "offered", "bot_controlled"
            )
        ),
        Move.objects.count(),
        list(Plan.objects.order_by("pk").values_list("pk", "data")),
        list(ChatMessage.objects.order_by("pk").values_list("pk", "text", "hidden")),
        list(Webhook.objects.order_by("pk").values_list("pk", "active", "game_id")),
        WebhookDelivery.objects.count(),
        TakebackRequest.objects.count(),
        Invitation.objects.count(),
        list(PushSubscription.objects.order_by("pk").values_list("pk", "turns", "label")),
        list(Tournament.objects.order_by("pk").values_list("pk", "status")),
        Entrant.objects.count(),
        League.objects.count(),
    ]
    return hashlib.sha256(json.dumps(rows, default=str).encode()).hexdigest()


def _refused(r: Any, where: str) -> None:
    assert 400 <= r.status_code < 500, (where, r.status_code, r.content[:300])
    if r.get("Content-Type", "").startswith("application/json"):
        body = r.json()
        assert body["error"]["code"], (where, body)
        assert body["error"]["message"], (where, body)


# -- the API: from the OpenAPI schema ---------------------------------------------------------


def _schema() -> dict[str, Any]:
    from drf_spectacular.generators import SchemaGenerator

    return SchemaGenerator().get_schema(request=None, public=True)


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    if "allOf" in node and len(node["allOf"]) == 1:
        return _resolve(schema, node["allOf"][0])
    return node


def _integer_paths(
    schema: dict[str, Any], node: dict[str, Any], prefix: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], str | None]]:
    """(path to an integer, the action type it belongs to) in a request body's schema; ``*``
    stands for any key of a map."""
    node = _resolve(schema, node)
    types = node.get("type")
    types = types if isinstance(types, list) else [types]
    if "integer" in types:
        yield prefix, None
    for sub in node.get("oneOf", []):
        member = _resolve(schema, sub)
        # An action type's member names its type; another oneOf's (a map's value that is an
        # integer or a string, a nullable object) has none.
        tag = (member.get("properties") or {}).get("type")
        kind = _resolve(schema, tag).get("enum", [None])[0] if tag else None
        for path, _t in _integer_paths(schema, member, prefix):
            yield path, kind
    for name, sub in (node.get("properties") or {}).items():
        if not sub.get("readOnly"):  # sent back, ignored: test_read_only_keys_are_ignored
            yield from _integer_paths(schema, sub, (*prefix, name))
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        yield from _integer_paths(schema, extra, (*prefix, "*"))
    if "array" in types and isinstance(node.get("items"), dict):
        yield from _integer_paths(schema, node["items"], (*prefix, "[]"))


#: The tournaments' and leagues' path parameters (no row needed: a refused body is refused
#: before the row is looked for, and an unknown one is a 404 like a refusal).
COMPETITION_IDS = {"tournament_id": 1, "league_id": 1, "number": 1}

#: A base body per operation: the walk puts one hostile value into one field of it.
#: ``{plant}``, ``{seq}`` are the running game's.
API_BODIES: dict[str, Any] = {
    "games_create": {"map": "germany", "max_players": 3},
    "games_moves_create": {"action": {"type": "{type}"}, "expected_seq": "{seq}"},
    "games_plans_set": {
        "plant": {"kind": "proxy_bid", "plant": "{plant}", "max": 30},
        "max": {"kind": "proxy_bid", "plant": "{plant}", "max": 30},
        "discard": {"kind": "proxy_bid", "plant": "{plant}", "max": 30},
        "round": {"kind": "auto_pass"},
        "amounts": {"kind": "buy", "amounts": {"coal": 1}, "max_price": 5},
        "max_price": {"kind": "buy", "amounts": {"coal": 1}, "max_price": 5},
        "max_total": {"kind": "build", "cities": ["essen"], "max_total": 30},
    },
    "webhooks_create": {"url": "http://127.0.0.1:9/x"},
    "games_takeback_now": {"expected_seq": "{seq}"},
    "games_takeback_ask": {"expected_seq": "{seq}"},
    "games_practice_create": {},
    "me_vacation_start": {"days": 1},
    "games_substitute": {"seat": 0},
    "games_sheet_put": {
        "round": "{round}",
        "open": [{"plant": "{plant}", "max": 30}],
        "bids": [{"plant": "{plant}", "max": 30}],
        "pass_else": {"value": True},
        "discard": {"plant": None},
        "resources": {"mode": "buy", "max_price": 5, "amounts": {"coal": 1}},
        "build": {"mode": "auto", "max_total": 30, "cities": []},
        "power": {"value": True},
    },
    "tournaments_create": {"name": "Cup", "maps": ["germany"]},
    "leagues_create": {"name": "League", "maps": ["germany"], "movers": 1},
    "push_devices_create": {
        "endpoint": "https://fcm.googleapis.com/fcm/send/x",
        "keys": {"p256dh": P256DH, "auth": AUTH},
    },
}
#: Fields where null means "none" (documented): null is an answer there, not a refusal.
NULLABLE = {
    ("webhooks_create", "game"),
    ("games_plans_set", "discard"),
    ("tournaments_create", "rating_min"),
    ("tournaments_create", "rating_max"),
    ("push_devices_create", "expirationTime"),
}
NULLABLE_PRACTICE = {"seq", "seat"}
#: Operations whose only integers are answers, or floats, or that change an account for good.
API_SKIPPED = {"me_partial_update", "me_bot_partial_update"}


def _fill(value: Any, w: dict[str, Any], seq: int, kind: str | None = None) -> Any:
    if isinstance(value, dict):
        return {k: _fill(v, w, seq, kind) for k, v in value.items()}
    if isinstance(value, list):
        return [_fill(v, w, seq, kind) for v in value]
    fills = {"{plant}": w["plant"], "{seq}": seq, "{type}": kind, "{round}": w["round"]}
    return fills.get(value, value) if isinstance(value, str) else value


def _api_cases(w: dict[str, Any]) -> Iterator[tuple[str, str, str, Any, str]]:
    """(method, url, query, body, label) for every integer of the API, from its schema."""
    from games.models import Game

    schema = _schema()
    seq = Game.objects.get(pk=w["gid"]).seq
    ids = {
        "game_id": w["gid"],
        "message_id": w["mid"],
        "hook_id": w["hook"],
        "request_id": 1,
        "kind": "proxy_bid",
        "slug": "germany",
        "seq": 0,
        "prefix": "x",
        "username": w["actor"].user.get_username(),
        "device_id": w["device"],
        **COMPETITION_IDS,
    }
    for path, ops in schema["paths"].items():
        url = re.sub(r"\{(\w+)\}", lambda m: str(ids[m.group(1)]), path)
        for method, op in ops.items():
            oid = op["operationId"]
            for p in op.get("parameters", []):
                if p["in"] == "query" and p["schema"].get("type") == "integer":
                    for v in TEXT_HOSTILE:
                        yield method, url, p["name"], v, f"{oid} ?{p['name']}"
            rb = op.get("requestBody")
            if not rb or oid in API_SKIPPED:
                continue
            body_schema = rb["content"]["application/json"]["schema"]
            fields = list(_integer_paths(schema, body_schema))
            if not fields:
                continue
            assert oid in API_BODIES, f"{oid} takes integers {fields}: give it a base body"
            for fpath, kind in fields:
                base = API_BODIES[oid]
                if oid == "games_plans_set":
                    base = base[fpath[0]]
                base = _fill(base, w, seq, kind)
                name = fpath[-1] if fpath[-1] not in ("*", "[]") else fpath[-2]
                null_is_none = (oid, name) in NULLABLE or oid == "games_practice_create"
                node = _node_at(schema, body_schema, fpath)
                for v in HOSTILE:
                    if (v is None and null_is_none) or _taken(node, v):
                        continue
                    body = _set(base, fpath, v)
                    yield method, url, "", body, f"{oid} {'.'.join(fpath)}"


def _node_at(schema: dict[str, Any], node: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    """The schema of the value at ``path`` (the first member that has it), or {}."""
    node = _resolve(schema, node)
    if not path:
        return node
    key, rest = path[0], path[1:]
    members = [_resolve(schema, m) for m in node.get("oneOf", [])] or [node]
    for member in members:
        if key == "[]" and isinstance(member.get("items"), dict):
            return _node_at(schema, member["items"], rest)
        if key == "*" and isinstance(member.get("additionalProperties"), dict):
            return _node_at(schema, member["additionalProperties"], rest)
        if key in (member.get("properties") or {}):
            return _node_at(schema, member["properties"][key], rest)
    return {}


def _taken(node: dict[str, Any], value: Any) -> bool:
    """Whether the schema at ``node`` takes ``value``: null where it is nullable, an integer
    within its declared bounds (``-1`` is a fine rating floor): no hostile value there."""
    types = node.get("type")
    types = types if isinstance(types, list) else [types]
    if value is None:
        return "null" in types
    if type(value) is not int or "minimum" not in node:
        return False
    return bool(node["minimum"] <= value <= node.get("maximum", value))


def _set(base: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    """``base`` with ``value`` at ``path`` (``[]``: in the list's first item, or as its only
    item at the end of the path; ``*``: at the map's key ``coal``)."""
    out = json.loads(json.dumps(base))
    here: Any = out
    for i, key in enumerate(path):
        last = i == len(path) - 1
        nxt = None if last else path[i + 1]
        if key == "[]":
            continue
        key = "coal" if key == "*" else key
        if last:
            here[key] = value
        elif nxt == "[]" and i + 1 == len(path) - 1:
            here[key] = [value]
            return out
        elif nxt == "[]":  # a list of objects: the value goes into its first one
            items = here.get(key)
            first = items[0] if isinstance(items, list) and items else {}
            here[key] = [first if isinstance(first, dict) else {}]
            here = here[key][0]
        else:
            if not isinstance(here.get(key), dict):
                here[key] = {}
            here = here[key]
    return out


def repeats_field_name(message: str, field: str) -> bool:
    """Whether ``message`` names the field (the last part of ``field``) and then again: a
    path put before a message that names the field itself ("options: turn_hours: 'turn_hours'
    must be ..."), or a message that does not name it at all (True: no good either)."""
    name = re.escape(field.rsplit(".", 1)[-1])
    named = re.search(rf"(?<![\w]){name}(?![\w])", message)
    again = re.search(rf"(?<![\w]){name}'?:\s.*(?<![\w]){name}(?![\w])", message)
    return not named or bool(again)


def number_refusal_checked(error: dict[str, Any], field: str, where: str) -> None:
    """An ``invalid_field`` refusal of a number: ``details.min`` and ``details.max`` (docs/API.md
    promises them, a body's as a query string's), and the message names the field once (it
    said "reminder_fraction: 'reminder_fraction' must be a number from 0 to 1.") with no
    exponent ("from 0 to 1e+15")."""
    details = error["details"]
    assert "min" in details, (where, error)
    assert "max" in details, (where, error)
    assert isinstance(details["min"], int | float), (where, error)
    assert isinstance(details["max"], int | float), (where, error)
    assert not repeats_field_name(error["message"], field), (where, error["message"])
    assert not re.search(r"\de[+-]?\d", error["message"]), (where, error["message"])


def test_every_integer_of_the_api_refuses_every_hostile_value(world):
    """Query parameters and body fields of type integer, as the schema lists them; a refusal
    with ``invalid_field`` gives the bounds and names the field once."""
    actor = world["actor"]
    before = snapshot()
    walked: set[str] = set()
    bounded: set[str] = set()
    for method, url, query, value, label in _api_cases(world):
        if url.endswith("/stream/") and not query:
            continue
        if query:
            r = getattr(actor.client, method)(f"{url}?{urlencode({query: value})}")
        else:
            r = getattr(actor.client, method)(url, value, format="json")
        where = f"{label} = {str(value)[:20]!r}"
        _refused(r, where)
        walked.add(label)
        error = r.json()["error"] if r["Content-Type"].startswith("application/json") else {}
        if error.get("code") == "invalid_field":
            # the field refused (an action's base body may lack another number, refused first)
            number_refusal_checked(error, error["details"]["field"], where)
            bounded.add(label)
    assert snapshot() == before
    for must in ("me_vacation_start days", "games_create options.turn_hours", "games_list ?limit"):
        assert must in bounded, (must, sorted(bounded))
    assert "push_devices_create expirationTime" in walked, sorted(walked)
    # The walk reached every kind of entry point (a broken derivation walks nothing).
    for must in (
        "games_list ?limit",
        "games_moves_list ?since",
        "games_chat_list ?before",
        "games_plans_delete ?plant",
        "games_create options.turn_hours",
        "games_moves_create expected_seq",
        "games_moves_create action.amount",
        "games_plans_set plant",
        "games_plans_set amounts.*",
        "webhooks_create game",
        "games_practice_create seq",
        "games_substitute seat",
        "games_sheet_put open.[].max",
        "games_sheet_put resources.amounts.*",
        "tournaments_create table_min",
    ):
        assert must in walked, (must, sorted(walked))


def test_the_stream_refuses_a_game_that_is_not_a_number(world):
    actor = world["actor"]
    for v in TEXT_HOSTILE:
        r = actor.client.get("/api/v1/stream/", {"game": v})
        _refused(r, f"stream ?game={v[:20]!r}")


# -- ids in paths ---------------------------------------------------------------------------


def _patterns(resolver: Any = None, prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for p in (resolver or get_resolver()).url_patterns:
        if isinstance(p, URLResolver):
            yield from _patterns(p, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern), p


def test_no_url_pattern_takes_an_unbounded_number():
    """Django's ``int`` converter takes any number of digits: 2^63 reached the database."""
    routes = [route for route, _p in _patterns()]
    assert routes
    assert [r for r in routes if "<int:" in r] == []


@pytest.mark.parametrize("big", [TOO_BIG_ID, 10**18, 10**30])
def test_every_id_in_a_path_at_or_above_2_63_is_a_404(world, big):
    """Every pattern with an ``<id:...>``, each id replaced with ``big`` in turn: 404."""
    from rest_framework.test import APIClient  # not the validating one: no such operation

    actor = world["actor"]
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {actor.token}")
    page = Client()
    page.force_login(actor.user)
    fill = {
        "game_id": world["gid"],
        "message_id": world["mid"],
        "hook_id": world["hook"],
        "request_id": 1,
        "seq": 0,
        **COMPETITION_IDS,
    }
    before = snapshot()
    walked = 0
    for route, _p in _patterns():
        names = re.findall(r"<id:(\w+)>", route)
        for name in names:
            url = "/" + route
            for other in names:
                url = url.replace(f"<id:{other}>", str(big if other == name else fill[other]))
            url = re.sub(r"<(?:\w+:)?(\w+)>", "x", url)
            client = api if url.startswith("/api/") else page
            for method in ("get", "post"):
                r = getattr(client, method)(url)
                assert r.status_code in (404, 405), (url, method, r.status_code)
            walked += 1
    assert walked > 30
    assert snapshot() == before


# -- the pages ------------------------------------------------------------------------------


class _Inputs(HTMLParser):
    """The names of a page's number inputs."""

    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "input" and a.get("type") == "number" and a.get("name"):
            self.names.add(str(a["name"]))


def _number_inputs(html: str) -> set[str]:
    p = _Inputs()
    p.feed(html)
    return p.names


#: The create tournament form's number fields, good (the walk makes one hostile at a time).
TOURNAMENT_FORM = {"table_min": "3", "table_max": "4", "rounds": "2", "turn_hours": "24"}
#: Page fields where a value below 0 is a good one (a rating may be): "-1" is not hostile there.
SIGNED_FIELDS = {"rating_min", "rating_max"}

#: Page forms and query strings that take a number (those not derived below): (method, url
#: template, base data, the numeric field).
PAGE_FIELDS: list[tuple[str, str, dict[str, str], str]] = [
    ("get", "/", {}, "players"),
    ("get", "/", {}, "turn"),
    ("get", "/games/{gid}/", {"calc": "1"}, "calc_coal"),
    ("get", "/games/{gid}/", {"calc": "1"}, "calc_oil"),
    ("get", "/games/{gid}/", {"calc": "1"}, "calc_garbage"),
    ("get", "/games/{gid}/", {"calc": "1"}, "calc_uranium"),
    ("get", "/games/{gid}/", {"calc": "1"}, "calc_cities"),
    ("get", "/games/{gid}/", {"calc": "1"}, "calc_bid"),
    ("get", "/games/{gid}/history/", {}, "seq"),
    ("post", "/games/{gid}/move/", {"action": "pass_auction"}, "expected_seq"),
    ("post", "/games/{gid}/plans/", {"kind": "proxy_bid", "max": "30"}, "plant"),
    ("post", "/games/{gid}/plans/", {"kind": "proxy_bid", "plant": "{plant}"}, "max"),
    (
        "post",
        "/games/{gid}/plans/",
        {"kind": "proxy_bid", "plant": "{plant}", "max": "30"},
        "discard",
    ),
    ("post", "/games/{gid}/plans/", {"kind": "buy", "max_price": "5"}, "coal"),
    ("post", "/games/{gid}/plans/", {"kind": "buy", "max_price": "5"}, "oil"),
    ("post", "/games/{gid}/plans/", {"kind": "buy", "max_price": "5"}, "garbage"),
    ("post", "/games/{gid}/plans/", {"kind": "buy", "max_price": "5"}, "uranium"),
    ("post", "/games/{gid}/plans/", {"kind": "buy", "coal": "1"}, "max_price"),
    ("post", "/games/{gid}/plans/", {"kind": "build", "cities": "essen"}, "max_total"),
    ("post", "/games/{gid}/plans/", {"op": "delete", "kind": "proxy_bid"}, "plant"),
    ("post", "/games/{gid}/chat/", {"op": "edit", "text": "x"}, "id"),
    ("post", "/games/{gid}/chat/", {"op": "report"}, "id"),
    ("post", "/games/{gid}/chat/", {"op": "mute"}, "id"),
    ("post", "/webhooks/", {"op": "delete"}, "id"),
    ("post", "/webhooks/", {"op": "test"}, "id"),
    ("post", "/webhooks/", {"op": "add", "url": "http://127.0.0.1:9/x"}, "game"),
    ("post", "/games/{gid}/takeback/", {"how": "now"}, "expected_seq"),
    ("post", "/games/{gid}/practice/", {}, "seq"),
    ("post", "/games/{gid}/practice/", {}, "seat"),
    ("post", "/games/{open_gid}/remove/", {}, "seat"),
    *[
        ("post", "/tournaments/new/", {"name": "Cup", "maps": "germany", **TOURNAMENT_FORM}, f)
        for f in ("rounds", "turn_hours", "rating_min", "rating_max")
    ],
]


def _page_cases(w: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any], str]]:
    from games.models import Game
    from games.web.forms import GameCreateForm
    from powergrid.actions import ACTIONS

    seq = str(Game.objects.get(pk=w["gid"]).seq)
    sub = {"{gid}": str(w["gid"]), "{open_gid}": str(w["open_gid"]), "{plant}": str(w["plant"])}
    for method, url, base, field in PAGE_FIELDS:
        for k, v in sub.items():
            url = url.replace(k, v)
        data = {k: sub.get(v, v) for k, v in base.items()}
        if url.endswith("/move/") or url.endswith("/takeback/"):
            data.setdefault("expected_seq", seq)
        yield method, url, {**data, "_field": field}, field
    # The move form: every number field of every action type, as the engine describes them.
    for spec in ACTIONS.values():
        # the action's other number fields hold good values: the hostile one is the refusal
        good = {f.name: str(w["plant"]) if f.kind in ("plant", "plants") else "1"
                for f in spec.fields if f.kind in ("int", "plant", "count", "plants")}  # fmt: skip
        for f in spec.fields:
            names = {
                "int": [f.name],
                "plant": [f.name],
                "count": [f.name],
                "plants": [f.name],
                "tokens": [f"{f.name}_coal"],
            }.get(f.kind, [])
            for name in names:
                data = {**good, "action": spec.name, "expected_seq": seq, "_field": name}
                yield "post", f"/games/{w['gid']}/move/", data, f"{spec.name}.{name}"
    # The create form: its integer fields, from the form class.
    for name, field in GameCreateForm.base_fields.items():
        if field.__class__.__name__ in ("WholeNumberField", "IntegerField"):
            data = {"map": "germany", "max_players": "3", "_field": name}
            yield "post", "/games/new/", data, f"games/new {name}"


def test_every_number_of_the_pages_refuses_every_hostile_value(world):
    from apihelpers import PASSWORD

    page = Client()
    page.force_login(world["actor"].user)
    page.post("/accounts/reauthenticate/", {"password": PASSWORD})  # adding a webhook asks
    creator = Client()
    creator.force_login(world["creator"].user)
    before = snapshot()
    for method, url, data, label in _page_cases(world):
        field = data.pop("_field")
        client = creator if "/remove/" in url else page
        for v in TEXT_HOSTILE:
            if v == "-1" and field in SIGNED_FIELDS:
                continue
            r = getattr(client, method)(url, {**data, field: v})
            _refused(r, f"{label} = {v[:20]!r}")
    assert snapshot() == before


def test_the_walk_covers_every_number_input_the_pages_render(world):
    """The pages' own number inputs against the walk's lists: a new one cannot go unwalked."""
    from powergrid.actions import ACTIONS

    page = Client()
    page.force_login(world["actor"].user)
    walked = {field for _m, _u, _b, field in PAGE_FIELDS}
    walked |= {f.name for spec in ACTIONS.values() for f in spec.fields}
    walked |= {f"drop_{r}" for r in ("coal", "oil", "garbage", "uranium")}  # tokens fields
    walked |= {"coal", "oil", "garbage", "uranium"}
    rendered: set[str] = set()
    pages = ("/", "/games/new/", f"/games/{world['gid']}/", f"/games/{world['gid']}/plans/")
    for url in (*pages, "/tournaments/new/"):
        r = page.get(url)
        assert r.status_code == 200, url
        rendered |= _number_inputs(r.content.decode())
    rendered = {re.sub(r"^hybrid_\d+_coal$", "hybrid", n) for n in rendered}
    assert rendered, "no number input found: the parser is broken"
    assert (
        rendered - walked - {"turn_hours", "timeouts_before_bot", "min_on_time", "takebacks"}
        == set()
    )


# -- email ----------------------------------------------------------------------------------

#: Every email command that takes a number, with ``{}`` where the number goes.
EMAIL_COMMANDS = [
    "bid {}",
    "入札 {}",
    "choose {} bid 15",
    "choose 13 bid {}",
    "buy {} coal",
    "buy coal {}",
    "power {}",
    "discard {}",
    "max {} 20",
    "max 13 {}",
    "max 13 20 discard {}",
]
EMAIL_WITHOUT_NUMBER = {"pass", "build", "autopass", "resign"}
#: Verbs that are the whole line: a number after one is no command (leaving a game is for good,
#: so "resign ①" must not be read as "resign").
EMAIL_ALONE = ["resign {}", "投了 {}"]


def test_every_email_verb_that_takes_a_number_is_walked():
    from games.inbox.parse import _VERBS

    covered = {_VERBS[c.split()[0]] for c in EMAIL_COMMANDS}
    assert covered | EMAIL_WITHOUT_NUMBER == set(_VERBS.values())
    assert {_VERBS[c.split()[0]] for c in EMAIL_ALONE} <= EMAIL_WITHOUT_NUMBER


def _turn_email(gid: int, player: Any) -> Any:
    """The turn email the awaited player gets (built as the outbox builds it)."""
    from games.models import Notification
    from games.notifications.emails import email_build

    n = Notification(recipient=player.user, game_id=gid, kind="turn", payload={})
    mail = email_build(n)
    assert mail is not None
    return mail


def _mail_reply(to: str, sender: str, body: str, n: int) -> bytes:
    return (
        f"From: <{sender}>\r\nTo: {to}\r\nSubject: Re: your turn\r\n"
        f"Message-ID: <hostile{n}@client.example>\r\n"
        f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    ).encode()


#: What a reply may legitimately write for a number: full-width digits (a Japanese keyboard)
#: and spaces around a word (words are separated by spaces) read as the ASCII number.
EMAIL_READ_AS_NUMBER = {"１２", " 1", "1 "}


def test_every_email_command_refuses_every_hostile_number(world, settings):
    from games.inbox.receive import mail_receive
    from games.models import Game, Notification

    # Each refusal answered (a person answered at most 5 times an hour: a mail loop's cap,
    # tests/games/inbox/test_receive.py; here every answer is read)
    settings.INBOUND_REFUSALS_ANSWERED_PER_HOUR = 10**6

    actor = world["actor"]
    reply_to = _turn_email(world["gid"], actor).extra_headers["Reply-To"]
    before = snapshot()
    n = 0
    codes = {"bad_number", "unknown_resource"}
    cases = [(c, codes) for c in EMAIL_COMMANDS] + [(c, {"unknown_command"}) for c in EMAIL_ALONE]
    for command, expected in cases:
        for v in TEXT_HOSTILE:
            if v in EMAIL_READ_AS_NUMBER or v in ("None",):  # "none" is a word: nothing
                continue
            n += 1
            got = mail_receive(
                _mail_reply(reply_to, actor.user.email, command.format(v), n), via="pipe"
            )
            where = f"{command.format(v[:20])!r}"
            assert got.status == "refused", (where, got)
            assert got.answered, (where, got)
            assert got.code in expected, (where, got)
    assert snapshot() == before
    assert Game.objects.get(pk=world["gid"]).seq == 0
    assert Notification.objects.filter(kind="reply").count() == n
