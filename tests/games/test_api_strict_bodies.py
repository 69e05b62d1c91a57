"""Every request body is closed (issue #24): a key the schema does not declare is refused with
400 ``invalid_field`` (``invalid_plan`` for a plan) naming the key, and changes nothing.

The walk takes every operation with a JSON request body from the published schema, so a new
one fails here until it is given a valid body below (and refuses an unknown key)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from apihelpers import PASSWORD, play_default, seat_players

from tests.api_schema import published_schema

UNKNOWN = "zz_not_in_the_schema"

#: A valid body of each operation (without the unknown key), the same for every test.
BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("post", "/api/v1/auth/token/"): {"username": "<me>", "password": PASSWORD, "name": "bot"},
    ("post", "/api/v1/games/"): {"map": "germany", "max_players": 3},
    ("post", "/api/v1/games/{game_id}/chat/"): {"text": "hello"},
    ("patch", "/api/v1/games/{game_id}/chat/{message_id}/"): {"text": "hello again"},
    ("post", "/api/v1/games/{game_id}/invitations/"): {"username": "<other>"},
    ("post", "/api/v1/games/{game_id}/join/"): {},
    ("post", "/api/v1/games/{game_id}/moves/"): {"action": "<legal>", "expected_seq": "<seq>"},
    ("post", "/api/v1/games/{game_id}/plans/"): {"kind": "auto_pass"},
    ("post", "/api/v1/games/{game_id}/practice/"): {},
    ("post", "/api/v1/games/{game_id}/takeback/"): {"expected_seq": "<seq>"},
    ("post", "/api/v1/games/{game_id}/takeback/requests/"): {"expected_seq": "<seq>"},
    ("patch", "/api/v1/me/"): {"display_name": "Renamed", "timezone": "Asia/Tokyo"},
    ("patch", "/api/v1/me/bot/"): {"display_name": "Renamed"},
    ("post", "/api/v1/me/vacation/"): {"days": 3},
    ("post", "/api/v1/webhooks/"): {"url": "https://93.184.216.34/hook", "format": "generic"},
}

#: Where an operation's refusal has its own code (docs/API.md, Plans).
CODES = {("post", "/api/v1/games/{game_id}/plans/"): "invalid_plan"}


def operations_with_a_body() -> list[tuple[str, str]]:
    out = []
    for path, item in published_schema()["paths"].items():
        for method, op in item.items():
            if isinstance(op, dict) and "application/json" in op.get("requestBody", {}).get(
                "content", {}
            ):
                out.append((method, path))
    return sorted(out)


def snapshot() -> dict[str, list[tuple[object, ...]]]:
    """Every row of the project's tables (games, seats, moves, chat, plans, webhooks, tokens,
    profiles with their vacations ...), but for the times a request touches on its way."""
    from django.apps import apps

    volatile = re.compile(r"last_|seen|touched")
    out = {}
    for model in apps.get_models():
        if model._meta.app_label not in ("games", "accounts", "knox", "auth"):
            continue
        names = [f.attname for f in model._meta.concrete_fields if not volatile.search(f.name)]
        out[model._meta.label] = list(model.objects.order_by("pk").values_list(*names))
    return out


def test_the_walk_knows_every_operation_with_a_body():
    assert operations_with_a_body() == sorted(BODIES)


def test_every_request_body_is_closed_in_the_schema():
    components = published_schema()["components"]["schemas"]
    for method, path in operations_with_a_body():
        op = published_schema()["paths"][path][method]
        ref = op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        body = components[ref.rsplit("/", 1)[-1]]
        assert body["additionalProperties"] is False, (method, path)
    # ... and what lies within: a game's options, each action type.
    assert components["GameOptionsRequest"]["additionalProperties"] is False
    assert components["ChoosePlantActionRequest"]["additionalProperties"] is False


@pytest.fixture
def world(new_game, make_player):
    """A running game where the first player has moved (a take-back is possible) and has a chat
    message; an open game of theirs; another player who is in neither."""
    from games.models import Game, Move

    gid, ps = new_game(players=3, options={"takebacks_rated": True})
    play_default(gid, ps)
    game = Game.objects.get(pk=gid)
    seats = seat_players(gid, ps)
    mover = seats[Move.objects.filter(game_id=gid).latest("seq").seat]
    chat = mover.post(f"/api/v1/games/{gid}/chat/", {"text": "hi"})
    assert chat.status_code == 201, chat.content
    r = mover.post("/api/v1/games/", {"map": "germany", "max_players": 3})
    assert r.status_code == 201, r.content
    other = make_player()
    for p in (*ps, other):  # a token's first use records it (accounts.TokenInfo): done here
        assert p.get("/api/v1/me/").status_code == 200
    return {
        "running": gid,
        "open": r.json()["id"],
        "player": mover,
        "to_move": seats[game.to_act[0]],
        "message": chat.json()["id"],
        "other": other,
        "game": game,
    }


def _request(world: dict[str, Any], method: str, path: str) -> tuple[Any, str, dict[str, Any]]:
    """(who sends it, the URL, the valid body) of one operation in ``world``."""
    import powergrid

    game = world["game"]
    state = powergrid.from_json(game.state_json)
    seat = game.to_act[0]
    body = dict(BODIES[(method, path)])
    fill = {
        "<me>": world["player"].user.username,
        "<other>": world["other"].user.username,
        "<legal>": powergrid.default_action(state, seat),
        "<seq>": game.seq,
    }
    body = {k: fill.get(v, v) if isinstance(v, str) else v for k, v in body.items()}
    who = world["player"]
    gid = world["running"]
    if path.endswith(("/invitations/",)):
        gid = world["open"]
    if path.endswith("/moves/"):
        who = world["to_move"]
    if path.endswith("/join/"):
        who, gid = world["other"], world["open"]
    url = path.format(game_id=gid, message_id=world["message"])
    return who, url, body


@pytest.mark.parametrize(("method", "path"), sorted(BODIES))
def test_an_unknown_key_is_refused_and_changes_nothing(world, method, path):
    who, url, body = _request(world, method, path)
    before = snapshot()
    r = getattr(who.client, method)(url, {**body, UNKNOWN: 1}, format="json")
    assert r.status_code == 400, (url, r.content)
    error = r.json()["error"]
    assert error["code"] == CODES.get((method, path), "invalid_field"), error
    assert error["details"]["field"] == UNKNOWN, error
    assert UNKNOWN not in error["details"]["allowed"]
    assert set(body) <= set(error["details"]["allowed"]), error
    assert snapshot() == before, url


@pytest.mark.parametrize(("method", "path"), sorted(BODIES))
def test_the_same_body_without_it_is_taken(world, method, path):
    """The walk's bodies are valid: the 400 above is the unknown key's, nothing else's."""
    who, url, body = _request(world, method, path)
    r = getattr(who.client, method)(url, body, format="json")
    assert r.status_code < 300, (url, r.content)


def test_a_misspelt_max_players_creates_no_game(make_player):
    from games.models import Game

    p = make_player()
    r = p.post("/api/v1/games/", {"map": "germany", "max_player": 3})
    assert r.status_code == 400
    assert r.json()["error"]["details"] == {
        "field": "max_player",
        "allowed": ["areas", "map", "max_players", "options"],
    }
    assert not Game.objects.exists()


def test_an_unknown_option_is_named_with_its_path(make_player):
    from games.models import Game

    p = make_player()
    r = p.post("/api/v1/games/", {"map": "germany", "options": {"auto_strat": False}})
    assert r.status_code == 400
    error = r.json()["error"]
    assert error["code"] == "invalid_field"
    assert error["details"]["field"] == "options.auto_strat"
    assert "auto_start" in error["details"]["allowed"]
    assert not Game.objects.exists()


def test_a_read_only_field_of_me_is_no_key_of_its_patch(make_player):
    p = make_player()
    r = p.client.patch("/api/v1/me/", {"username": "someone"}, format="json")
    assert r.status_code == 400
    assert r.json()["error"]["details"]["field"] == "username"


def test_a_body_that_is_no_object_is_refused(make_player):
    p = make_player()
    r = p.post("/api/v1/me/vacation/", [1])
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "invalid_field"


def operations_without_a_body() -> list[tuple[str, str]]:
    out = []
    for path, item in published_schema()["paths"].items():
        for method, op in item.items():
            if method in ("post", "put", "patch") and "requestBody" not in op:
                out.append((method, path))
    return sorted(out)


#: Who sends each operation the schema declares without a body ("other": one who holds no seat).
BODILESS = {
    ("post", "/api/v1/games/{game_id}/chat/{message_id}/report/"): "other_player",
    ("post", "/api/v1/games/{game_id}/leave/"): "player",
    ("post", "/api/v1/games/{game_id}/start/"): "player",
    ("post", "/api/v1/games/{game_id}/takeback/requests/{request_id}/accept/"): "to_move",
    ("post", "/api/v1/games/{game_id}/takeback/requests/{request_id}/decline/"): "to_move",
    ("post", "/api/v1/me/bot/"): "other",
    ("post", "/api/v1/me/calendar/"): "player",
    ("post", "/api/v1/webhooks/{hook_id}/test/"): "player",
}


def test_the_walk_knows_every_operation_without_a_body():
    assert operations_without_a_body() == sorted(BODILESS)


@pytest.mark.parametrize(("method", "path"), sorted(BODILESS))
def test_a_key_sent_to_an_operation_without_a_body_is_refused(world, method, path):
    from games.models import Webhook

    who = world["to_move"] if BODILESS[(method, path)] == "other_player" else None
    who = who or world[BODILESS[(method, path)]]
    hook = Webhook.objects.create(owner=world["player"].user, url="https://93.184.216.34/h")
    opened = path.endswith(("/leave/", "/start/"))
    url = path.format(
        game_id=world["open"] if opened else world["running"],
        message_id=world["message"],
        request_id=1,
        hook_id=hook.pk,
    )
    before = snapshot()
    r = getattr(who.client, method)(url, {UNKNOWN: 1}, format="json")
    assert r.status_code == 400, (url, r.content)
    error = r.json()["error"]
    assert error["code"] == "invalid_field"
    assert error["details"] == {"field": UNKNOWN, "allowed": []}
    assert snapshot() == before, url
    # ... and with no body, or an empty one, it is read as before (whatever it answers).
    again = getattr(who.client, method)(url, {}, format="json")
    assert again.status_code != 400 or again.json()["error"]["code"] != "invalid_field"
