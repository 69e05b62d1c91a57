"""Every endpoint of shared/API.md and every error code the server itself produces."""

from __future__ import annotations

import pytest
from apihelpers import PASSWORD, seat_players

from tests.api_schema import ValidatingAPIClient as APIClient

pytestmark = pytest.mark.django_db


def assert_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message", "details"}, body
    assert body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str)
    assert body["error"]["message"]
    return body["error"]


# ------------------------------------------------------------------ auth
def test_token_create_and_use(make_player):
    p = make_player("tokenuser")
    anon = APIClient()
    r = anon.post(
        "/api/v1/auth/token/", {"username": "tokenuser", "password": PASSWORD}, format="json"
    )
    assert r.status_code == 200
    token = r.json()["token"]
    assert len(token) >= 32
    assert r.json()["expiry"] is None
    anon.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert anon.get("/api/v1/me/").json()["username"] == "tokenuser"
    # The token is stored hashed: its text is nowhere in the database.
    from knox.models import AuthToken

    assert not AuthToken.objects.filter(digest=token).exists()
    # Revoke it.
    assert anon.delete("/api/v1/auth/token/").status_code == 204
    assert_error(anon.get("/api/v1/me/"), 401, "authentication_failed")
    assert p.get("/api/v1/me/").status_code == 200  # other tokens still work


def test_token_wrong_password():
    r = APIClient().post(
        "/api/v1/auth/token/", {"username": "nobody", "password": "x"}, format="json"
    )
    assert_error(r, 401, "authentication_failed")


def test_token_missing_fields():
    err = assert_error(
        APIClient().post("/api/v1/auth/token/", {}, format="json"), 400, "invalid_field"
    )
    assert err["details"]["field"] in ("username", "password")


def test_unauthenticated_and_bad_token():
    assert_error(APIClient().get("/api/v1/games/"), 401, "not_authenticated")
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION="Token " + "0" * 64)
    assert_error(c.get("/api/v1/games/"), 401, "authentication_failed")


def test_session_auth(make_player):
    p = make_player()
    c = APIClient()
    assert c.login(username=p.user.username, password=PASSWORD)
    assert c.get("/api/v1/me/").status_code == 200


# ------------------------------------------------------------------ me
def test_me_get_and_patch(make_player):
    p = make_player("meuser", display_name="Me")
    body = p.get("/api/v1/me/").json()
    assert body["username"] == "meuser"
    assert body["display_name"] == "Me"
    assert body["timezone"] == "UTC"
    assert body["language"] == "en"
    assert body["notification_mode"] == "every_turn"
    r = p.client.patch("/api/v1/me/", {"timezone": "Asia/Tokyo", "language": "ja"}, format="json")
    assert r.status_code == 200
    assert r.json()["timezone"] == "Asia/Tokyo"
    err = assert_error(
        p.client.patch("/api/v1/me/", {"timezone": "Mars/Base"}, format="json"),
        400,
        "invalid_field",
    )
    assert err["details"]["field"] == "timezone"


# ------------------------------------------------------------------ maps
def test_maps():
    c = APIClient()
    maps = c.get("/api/v1/maps/").json()
    slugs = [m["slug"] for m in maps]
    assert "germany" in slugs
    assert "usa" in slugs
    m = c.get("/api/v1/maps/germany/").json()
    assert {"areas", "cities", "connections", "viewbox"} <= set(m)
    city = m["cities"][0]
    assert {"slug", "name_en", "name_ja", "area", "x", "y"} <= set(city)
    assert {"a", "b", "cost"} == set(m["connections"][0])
    assert_error(c.get("/api/v1/maps/atlantis/"), 404, "not_found")


# ------------------------------------------------------------------ lobby
def test_create_list_detail(make_player):
    a, b = make_player(), make_player()
    r = a.post(
        "/api/v1/games/",
        {"map": "germany", "max_players": 3, "options": {"turn_hours": 12}},
    )
    assert r.status_code == 201
    g = r.json()
    assert g["status"] == "open"
    assert g["map"] == "germany"
    assert g["areas"] is None
    assert g["options"]["turn_hours"] == 12
    assert g["options"]["variant"] == "standard"
    assert g["seats"][0]["username"] == a.user.username
    assert g["seats"][0]["seat"] == 0
    assert {"seat", "username", "display_name", "colour"} <= set(g["seats"][0])
    assert g["seq"] == 0
    assert g["to_act"] == []
    assert g["deadline"] is None
    assert g["seed"] is None  # secret until the end
    assert g["seed_commitment"] is None  # an open game has no seed yet

    listing = b.get("/api/v1/games/").json()
    assert listing["count"] == 1
    assert listing["results"][0]["id"] == g["id"]
    assert b.get("/api/v1/games/?mine=true").json()["count"] == 0
    assert a.get("/api/v1/games/?mine=true").json()["count"] == 1
    assert a.get("/api/v1/games/?status=running").json()["count"] == 0
    assert_error(a.get("/api/v1/games/?status=bogus"), 400, "invalid_field")
    # ``mine`` is the schema's boolean: false is all games, anything else is refused, not false.
    assert a.get("/api/v1/games/?mine=false").json()["count"] == 1
    for bad in ("maybe", "null", "2", "1", "yes", "TRUE", ""):
        r = a.get(f"/api/v1/games/?mine={bad}")
        assert_error(r, 400, "invalid_field")
        assert r.json()["error"]["details"]["field"] == "mine"
    assert b.get(f"/api/v1/games/{g['id']}/").json()["id"] == g["id"]
    assert_error(b.get("/api/v1/games/999999/"), 404, "not_found")


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"map": "atlantis", "max_players": 3}, "unknown_map", "map"),
        ({"map": "germany", "max_players": 9}, "invalid_field", "max_players"),
        ({"map": "germany", "areas": ["nowhere"]}, "invalid_field", "areas"),
        ({"map": "germany", "options": {"variant": "x"}}, "invalid_field", "options.variant"),
        ({"map": "germany", "options": {"turn_hours": 0}}, "invalid_field", "options.turn_hours"),
        ({}, "invalid_field", "map"),
    ],
)
def test_create_invalid(make_player, body, code, field):
    err = assert_error(make_player().post("/api/v1/games/", body), 400, code)
    assert err["details"]["field"] == field


def test_create_with_areas(make_player):
    p = make_player()
    r = p.post(
        "/api/v1/games/", {"map": "germany", "max_players": 2, "areas": ["green", "red", "brown"]}
    )
    assert r.status_code == 201, r.content
    assert r.json()["areas"] == ["green", "red", "brown"]


def test_join_leave_start_errors(make_player, new_game):
    gid, (a, b) = new_game(players=2, start=False)
    c, d = make_player(), make_player()
    assert_error(b.post(f"/api/v1/games/{gid}/join/"), 409, "already_joined")
    assert_error(c.post(f"/api/v1/games/{gid}/join/"), 409, "game_full")
    assert_error(c.post(f"/api/v1/games/{gid}/leave/"), 403, "not_a_player")
    assert_error(b.post(f"/api/v1/games/{gid}/start/"), 403, "not_creator")
    assert_error(c.post("/api/v1/games/424242/join/"), 404, "not_found")
    # state of an open game
    assert_error(a.get(f"/api/v1/games/{gid}/state/"), 409, "game_not_started")
    assert_error(
        a.post(f"/api/v1/games/{gid}/moves/", {"action": {"type": "pass_bid"}, "expected_seq": 0}),
        409,
        "game_not_started",
    )
    # b leaves; a alone cannot start
    r = b.post(f"/api/v1/games/{gid}/leave/")
    assert r.status_code == 200
    assert len(r.json()["seats"]) == 1
    assert_error(a.post(f"/api/v1/games/{gid}/start/"), 409, "not_enough_players")
    assert d.post(f"/api/v1/games/{gid}/join/").status_code == 200
    r = a.post(f"/api/v1/games/{gid}/start/")
    assert r.status_code == 200
    g = r.json()
    assert g["status"] == "running"
    assert len(g["areas"]) == 3
    assert len(g["to_act"]) == 1
    assert_error(a.post(f"/api/v1/games/{gid}/start/"), 409, "game_already_started")
    assert_error(c.post(f"/api/v1/games/{gid}/join/"), 409, "game_already_started")
    assert_error(a.post(f"/api/v1/games/{gid}/leave/"), 409, "game_already_started")


def test_creator_leaves_passes_role_and_renumbers(new_game):
    gid, (a, b, c) = new_game(players=3, start=False)
    r = a.post(f"/api/v1/games/{gid}/leave/").json()
    assert r["creator"] == b.user.username
    assert [s["seat"] for s in r["seats"]] == [0, 1]
    assert b.post(f"/api/v1/games/{gid}/leave/").status_code == 200
    assert c.post(f"/api/v1/games/{gid}/leave/").status_code == 204
    assert_error(c.get(f"/api/v1/games/{gid}/"), 404, "not_found")


# ------------------------------------------------------------------ state and moves
def test_state_views(new_game, make_player):
    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    outsider = make_player()
    game = ps[0].get(f"/api/v1/games/{gid}/").json()
    actor = game["to_act"][0]
    for seat, p in seats.items():
        st = p.get(f"/api/v1/games/{gid}/state/").json()
        assert st["seat"] == seat
        assert st["seq"] == 0
        assert st["game"] == gid
        for key in (
            "round",
            "step",
            "phase",
            "order",
            "to_act",
            "deadline",
            "players",
            "plant_market",
            "deck_size",
            "resource_market",
            "auction",
            "cities",
            "legal",
        ):
            assert key in st, key
        for pl in st["players"]:
            assert (pl["money"] is not None) == (pl["seat"] == seat)
            assert pl["name"]
            assert pl["colour"]
        types = {e["type"] for e in st["legal"]}
        assert ("choose_plant" in types) == (seat == actor)
    spect = outsider.get(f"/api/v1/games/{gid}/state/").json()
    assert spect["seat"] is None
    assert spect["legal"] == []
    assert all(pl["money"] is None for pl in spect["players"])


def test_move_submit_and_log(new_game):
    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    actor = ps[0].get(f"/api/v1/games/{gid}/").json()["to_act"][0]
    p = seats[actor]
    st = p.get(f"/api/v1/games/{gid}/state/").json()
    choose = next(e for e in st["legal"] if e["type"] == "choose_plant")
    plant = choose["plants"][0]
    r = p.post(
        f"/api/v1/games/{gid}/moves/",
        {
            "action": {"type": "choose_plant", "plant": plant["number"], "bid": plant["min_bid"]},
            "expected_seq": 0,
        },
    )
    assert r.status_code == 201, r.content
    assert r.json()["seq"] == 1
    assert r.json()["auction"] is not None
    log = p.get(f"/api/v1/games/{gid}/moves/").json()
    assert len(log) == 1
    assert set(log[0]) == {"seq", "seat", "action", "time", "source"}
    assert log[0]["source"] == "api"
    assert log[0]["seat"] == actor
    assert p.get(f"/api/v1/games/{gid}/moves/?since=1").json() == []
    assert_error(p.get(f"/api/v1/games/{gid}/moves/?since=x"), 400, "invalid_field")
    assert_error(p.get(f"/api/v1/games/{gid}/moves/?since=-1"), 400, "invalid_field")
    assert ps[0].get(f"/api/v1/games/{gid}/").json()["seq"] == 1


def test_move_errors(new_game, make_player):
    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    actor = ps[0].get(f"/api/v1/games/{gid}/").json()["to_act"][0]
    other = seats[(actor + 1) % 3]
    url = f"/api/v1/games/{gid}/moves/"
    # not your turn (the engine's code)
    assert_error(
        other.post(url, {"action": {"type": "pass_auction"}, "expected_seq": 0}),
        400,
        "not_your_turn",
    )
    # engine codes pass through
    assert_error(
        seats[actor].post(url, {"action": {"type": "fly"}, "expected_seq": 0}),
        400,
        "unknown_action",
    )
    assert_error(
        seats[actor].post(url, {"action": {"type": "pass_auction"}, "expected_seq": 0}),
        400,
        "cannot_pass_round_one",
    )
    assert_error(
        seats[actor].post(
            url, {"action": {"type": "choose_plant", "plant": 3, "bid": 1}, "expected_seq": 0}
        ),
        400,
        "bid_too_low",
    )
    # no seat
    assert_error(
        make_player().post(url, {"action": {"type": "pass_bid"}, "expected_seq": 0}),
        403,
        "not_a_player",
    )
    # stale
    err = assert_error(
        seats[actor].post(url, {"action": {"type": "pass_bid"}, "expected_seq": 5}),
        409,
        "stale_state",
    )
    assert err["details"]["seq"] == 0
    # unknown game
    assert_error(
        seats[actor].post(
            "/api/v1/games/987654/moves/", {"action": {"type": "pass_bid"}, "expected_seq": 0}
        ),
        404,
        "not_found",
    )
    # body problems
    assert_error(seats[actor].post(url, {"action": {"type": "pass_bid"}}), 400, "invalid_field")
    assert_error(seats[actor].post(url, {"action": [1], "expected_seq": 0}), 400, "invalid_field")
    assert_error(
        seats[actor].post(url, {"action": {"type": "x"}, "expected_seq": "a"}), 400, "invalid_field"
    )
    r = seats[actor].client.post(url, "{not json", content_type="application/json")
    assert_error(r, 400, "parse_error")
    r = seats[actor].client.post(url, "a=b", content_type="application/x-www-form-urlencoded")
    assert_error(r, 415, "unsupported_media_type")
    assert_error(seats[actor].client.put(url, {}, format="json"), 405, "method_not_allowed")
    # nothing was applied
    assert ps[0].get(f"/api/v1/games/{gid}/").json()["seq"] == 0


def test_not_acceptable_and_unknown_url(make_player):
    p = make_player()
    assert_error(p.get("/api/v1/me/", HTTP_ACCEPT="text/csv"), 406, "not_acceptable")
    r = p.get("/api/v1/nowhere/")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "not_found"


def test_game_over_code(new_game):
    from games.models import Game

    gid, ps = new_game(players=2)
    Game.objects.filter(pk=gid).update(status="finished")
    seats = seat_players(gid, ps)
    assert_error(
        seats[0].post(
            f"/api/v1/games/{gid}/moves/", {"action": {"type": "pass_bid"}, "expected_seq": 0}
        ),
        400,
        "game_over",
    )


def test_throttled(make_player, settings):
    p = make_player()
    rf = dict(settings.REST_FRAMEWORK)
    rf["DEFAULT_THROTTLE_RATES"] = {**rf["DEFAULT_THROTTLE_RATES"], "user": "3/min"}
    settings.REST_FRAMEWORK = rf
    for _ in range(3):
        assert p.get("/api/v1/me/").status_code == 200
    r = p.get("/api/v1/me/")
    err = assert_error(r, 429, "throttled")
    assert err["details"]["retry_after"] > 0
    assert int(r["Retry-After"]) > 0
    assert "seconds" in err["message"]


def test_token_create_throttled(make_player, settings):
    make_player("brute")
    rf = dict(settings.REST_FRAMEWORK)
    rf["DEFAULT_THROTTLE_RATES"] = {**rf["DEFAULT_THROTTLE_RATES"], "token_create": "2/min"}
    settings.REST_FRAMEWORK = rf
    c = APIClient()
    for _ in range(2):
        c.post("/api/v1/auth/token/", {"username": "brute", "password": "no"}, format="json")
    r = c.post("/api/v1/auth/token/", {"username": "brute", "password": PASSWORD}, format="json")
    assert_error(r, 429, "throttled")


def test_schema_and_docs():
    c = APIClient()
    r = c.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert r.status_code == 200
    schema = r.json()
    action = schema["components"]["schemas"]["ActionRequest"]
    assert action["discriminator"]["propertyName"] == "type"
    assert set(action["discriminator"]["mapping"]) == {
        "choose_plant",
        "pass_auction",
        "bid",
        "seal_bid",
        "pass_bid",
        "discard_plant",
        "buy_resources",
        "build",
        "power",
    }
    codes = set(schema["components"]["schemas"]["ErrorCode"]["enum"])
    for code in ("stale_state", "not_your_turn", "bid_too_low", "throttled", "not_a_player"):
        assert code in codes
    assert "/api/v1/games/{game_id}/moves/" in schema["paths"]
    assert c.get("/api/docs/").status_code == 200


@pytest.mark.parametrize(
    "token",
    ["\xff\xfe" + "0" * 62, "0" * 8 + "é" * 20, "abc", "0" * 500],
    ids=["not-utf8", "non-hex", "short", "long"],
)
def test_a_malformed_token_is_refused_not_a_server_error(token):
    """The header arrives as latin-1 text: its bytes need not be UTF-8 nor hex."""
    c = APIClient()
    c.credentials(HTTP_AUTHORIZATION="Token " + token)
    assert_error(c.get("/api/v1/games/"), 401, "authentication_failed")
