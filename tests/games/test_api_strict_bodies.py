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
    ("post", "/api/v1/games/{game_id}/seeking/"): {"seeking": True},
    ("put", "/api/v1/games/{game_id}/sheet/"): {"round": "<round>"},
    ("post", "/api/v1/games/{game_id}/substitute/"): {"seat": 0},
    ("post", "/api/v1/games/{game_id}/takeback/"): {"expected_seq": "<seq>"},
    ("post", "/api/v1/games/{game_id}/takeback/requests/"): {"expected_seq": "<seq>"},
    ("patch", "/api/v1/me/"): {"display_name": "Renamed", "timezone": "Asia/Tokyo"},
    ("patch", "/api/v1/me/bot/"): {"display_name": "Renamed"},
    ("post", "/api/v1/me/blocks/"): {"username": "<other>"},
    ("put", "/api/v1/me/discord/"): {"discord_user_id": "123456789012345678"},
    ("post", "/api/v1/me/push/"): {
        "endpoint": "https://fcm.googleapis.com/fcm/send/strict",
        "keys": {"p256dh": "B" + "A" * 86, "auth": "A" * 22},
        "expirationTime": None,
        "name": "Phone",
    },
    ("patch", "/api/v1/me/push/{device_id}/"): {"turns": False},
    ("post", "/api/v1/me/vacation/"): {"days": 3},
    ("post", "/api/v1/tournaments/"): {"name": "Autumn cup", "maps": ["germany"], "rounds": 2},
    ("post", "/api/v1/tournaments/{tournament_id}/join/"): {"code": ""},
    ("post", "/api/v1/webhooks/"): {"url": "https://93.184.216.34/hook", "format": "generic"},
    ("post", "/api/v1/leagues/"): {"name": "League", "maps": ["germany"], "movers": 1},
}

#: Where an operation's refusal has its own code (docs/API.md, Plans; Round sheets).
CODES = {
    ("post", "/api/v1/games/{game_id}/plans/"): "invalid_plan",
    ("put", "/api/v1/games/{game_id}/sheet/"): "invalid_sheet",
}


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
        if model._meta.app_label not in ("games", "accounts", "knox", "auth", "tournaments"):
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
def vapid(settings):
    """The site's VAPID key (Web Push on), made for the test as ``manage.py vapid_keys`` would."""
    from py_vapid import Vapid, b64urlencode

    from accounts import push

    key = Vapid()
    key.generate_keys()
    raw = key.private_key.private_numbers().private_value.to_bytes(32, "big")
    settings.WEBPUSH_VAPID_PRIVATE_KEY = b64urlencode(raw)
    push.forget()
    yield
    push.forget()


@pytest.fixture
def world(new_game, make_player, vapid):
    """A running game where the first player has moved (a take-back is possible) and has a chat
    message; an open game of theirs; a push device of theirs; an open tournament another player
    directs; another player who is in neither game."""
    from accounts.models import PushSubscription
    from games.models import Game, Move
    from tournaments.models import Tournament

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
    device = PushSubscription.objects.create(
        user=mover.user,
        endpoint="https://fcm.googleapis.com/fcm/send/known",
        p256dh="B" + "A" * 86,
        auth="A" * 22,
    )
    cup = Tournament.objects.create(name="Cup", director=other.user, maps=["germany"])
    return {
        "running": gid,
        "open": r.json()["id"],
        "player": mover,
        "to_move": seats[game.to_act[0]],
        "message": chat.json()["id"],
        "other": other,
        "game": game,
        "device": device.pk,
        "tournament": cup.pk,
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
        "<round>": state.round,
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
    if path.endswith("/substitute/"):  # a seat offered (seat 0's player seeks a substitute)
        from games.models import Seat

        Seat.objects.filter(game_id=gid, seat=body["seat"]).update(offered="seeking")
        who = world["other"]
    url = path.format(
        game_id=gid,
        message_id=world["message"],
        device_id=world["device"],
        **_competitions(world),
    )
    return who, url, body


def _competitions(world: dict[str, Any]) -> dict[str, int]:
    """A tournament and a league of the world's player, open, for their operations' paths."""
    from tournaments import leagues, services

    if "tournament_id" not in world:
        director = world["player"].user
        world["tournament_id"] = services.tournament_create(
            director=director, name="Cup", maps=["germany"]
        ).pk
        world["league_id"] = leagues.league_create(
            director=director, name="League", maps=["germany"]
        ).pk
    return {"tournament_id": world["tournament_id"], "league_id": world["league_id"]}


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
    ("post", "/api/v1/games/{game_id}/resign/"): "player",
    ("post", "/api/v1/games/{game_id}/start/"): "player",
    ("post", "/api/v1/games/{game_id}/takeback/requests/{request_id}/accept/"): "to_move",
    ("post", "/api/v1/games/{game_id}/takeback/requests/{request_id}/decline/"): "to_move",
    ("post", "/api/v1/me/bot/"): "other",
    ("post", "/api/v1/me/calendar/"): "player",
    ("post", "/api/v1/webhooks/{hook_id}/test/"): "player",
    ("post", "/api/v1/tournaments/{tournament_id}/leave/"): "other",
    ("post", "/api/v1/tournaments/{tournament_id}/start/"): "player",
    ("post", "/api/v1/leagues/{league_id}/join/"): "other",
    ("post", "/api/v1/leagues/{league_id}/leave/"): "other",
    ("post", "/api/v1/leagues/{league_id}/start/"): "player",
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
        **_competitions(world),
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


#: JSON values that are not strings, each of which DRF's own string field took (a number
#: became its digits: ``{"name": 5}`` made a tournament called "5").
NOT_A_STRING: list[Any] = [5, 5.5, True, ["x"], {"x": 1}]


def _string_keys(method: str, path: str) -> list[tuple[str, bool]]:
    """The top-level keys of an operation's body that take a string (a choice aside: walked by
    test_hostile_choices), and whether it is a list of strings."""
    schema = published_schema()
    op = schema["paths"][path][method]
    ref = op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    body = schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]
    out = []
    for key, prop in (body.get("properties") or {}).items():
        if prop.get("readOnly") or "enum" in prop or "$ref" in prop or "allOf" in prop:
            continue
        if prop.get("type") == "string":
            out.append((key, False))
        elif prop.get("type") == "array" and (prop.get("items") or {}).get("type") == "string":
            out.append((key, True))
    return out


def test_every_string_of_every_body_refuses_every_other_json_type(world):
    """A key the schema types ``string`` takes a JSON string only: a number, a boolean, a list
    or an object is 400 naming the key, and nothing changes (each of the bodies' strings is a
    ``StrictCharField``)."""
    walked = []
    _competitions(world)  # made once, before the snapshot
    before = snapshot()
    for method, path in sorted(BODIES):
        for key, listed in _string_keys(method, path):
            who, url, body = _request(world, method, path)
            for bad in NOT_A_STRING:
                sent = {**body, key: [bad] if listed else bad}
                r = getattr(who.client, method)(url, sent, format="json")
                where = (method, path, key, bad)
                assert r.status_code == 400, (where, r.content[:300])
                error = r.json()["error"]
                assert error["code"] == CODES.get((method, path), "invalid_field"), (where, error)
                assert error["details"]["field"].startswith(key), (where, error)
            walked.append(f"{method} {path} {key}")
    assert snapshot() == before
    for must in ("post /api/v1/tournaments/ name", "post /api/v1/leagues/ name",
                 "post /api/v1/tournaments/ maps", "post /api/v1/games/ map",
                 "post /api/v1/games/{game_id}/chat/ text"):  # fmt: skip
        assert must in walked, sorted(walked)
