"""The Idempotency-Key header: a retry returns the first response and applies nothing twice."""

from __future__ import annotations

import pytest
from apihelpers import seat_players

pytestmark = pytest.mark.django_db


def _actor(gid, ps):
    seats = seat_players(gid, ps)
    actor = ps[0].get(f"/api/v1/games/{gid}/").json()["to_act"][0]
    p = seats[actor]
    legal = p.get(f"/api/v1/games/{gid}/state/").json()["legal"]
    plant = next(e for e in legal if e["type"] == "choose_plant")["plants"][0]
    return p, {"type": "choose_plant", "plant": plant["number"], "bid": plant["min_bid"]}


def test_retry_returns_first_response(new_game):
    from games.models import Move

    gid, ps = new_game(players=3)
    p, action = _actor(gid, ps)
    url = f"/api/v1/games/{gid}/moves/"
    body = {"action": action, "expected_seq": 0}
    first = p.post(url, body, HTTP_IDEMPOTENCY_KEY="abc-1")
    assert first.status_code == 201
    again = p.post(url, body, HTTP_IDEMPOTENCY_KEY="abc-1")
    assert again.status_code == 201
    assert again.json() == first.json()
    assert again.content == first.content  # byte for byte: the same keys in the same order
    assert again["Idempotent-Replayed"] == "true"
    assert Move.objects.filter(game_id=gid).count() == 1
    assert Move.objects.get(game_id=gid).idempotency_key == "abc-1"
    # Without the key the same body is a new request: now stale.
    assert p.post(url, body).status_code == 409


def test_key_reused_with_other_body(new_game):
    gid, ps = new_game(players=3)
    p, action = _actor(gid, ps)
    url = f"/api/v1/games/{gid}/moves/"
    assert (
        p.post(url, {"action": action, "expected_seq": 0}, HTTP_IDEMPOTENCY_KEY="k").status_code
        == 201
    )
    r = p.post(url, {"action": {"type": "pass_bid"}, "expected_seq": 1}, HTTP_IDEMPOTENCY_KEY="k")
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "idempotency_key_reused"


def test_refusal_is_replayed_too(new_game):
    gid, ps = new_game(players=3)
    p, _action = _actor(gid, ps)
    url = f"/api/v1/games/{gid}/moves/"
    body = {"action": {"type": "choose_plant", "plant": 3, "bid": 1}, "expected_seq": 0}
    r1 = p.post(url, body, HTTP_IDEMPOTENCY_KEY="bad")
    r2 = p.post(url, body, HTTP_IDEMPOTENCY_KEY="bad")
    assert r1.status_code == r2.status_code == 400
    assert r1.json() == r2.json()


def test_keys_are_per_user(new_game):
    gid, ps = new_game(players=3)
    p, action = _actor(gid, ps)
    other = next(x for x in ps if x is not p)
    url = f"/api/v1/games/{gid}/moves/"
    assert (
        p.post(url, {"action": action, "expected_seq": 0}, HTTP_IDEMPOTENCY_KEY="same").status_code
        == 201
    )
    # The same key from another user is that user's own request (here: not their turn).
    r = other.post(url, {"action": action, "expected_seq": 1}, HTTP_IDEMPOTENCY_KEY="same")
    assert r.status_code in (400, 409)
    assert r.json()["error"]["code"] != "idempotency_key_reused"


def test_game_create_idempotent(make_player):
    from games.models import Game

    p = make_player()
    body = {"map": "germany", "max_players": 3}
    r1 = p.post("/api/v1/games/", body, HTTP_IDEMPOTENCY_KEY="create-1")
    r2 = p.post("/api/v1/games/", body, HTTP_IDEMPOTENCY_KEY="create-1")
    assert r1.status_code == r2.status_code == 201
    assert r1.json()["id"] == r2.json()["id"]
    assert Game.objects.count() == 1


def test_key_too_long(new_game):
    gid, ps = new_game(players=2)
    r = ps[0].post(
        f"/api/v1/games/{gid}/moves/",
        {"action": {"type": "pass_bid"}, "expected_seq": 0},
        HTTP_IDEMPOTENCY_KEY="x" * 300,
    )
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "invalid_field"


@pytest.mark.parametrize(
    "key", ["a\x00b", "\x00", "a\x01b", "\x1b[31mred", "a\x7fb", "a\tb", "a\x85b"]
)
def test_a_key_with_a_control_character_is_a_400_never_a_500(new_game, key):
    """A NUL in the key reached PostgreSQL, which stores no NUL in text: a 500. No control
    character belongs in a key: refused before anything runs, on every endpoint that takes one.
    (Behind gunicorn most never arrive: it refuses controls in any header value with its own 400;
    the development server and the test client pass them on.)"""
    from games.models import Game, IdempotencyRecord, Move

    gid, ps = new_game(players=2)
    games = Game.objects.count()
    for path, body in [
        (f"/api/v1/games/{gid}/moves/", {"action": {"type": "pass_bid"}, "expected_seq": 0}),
        ("/api/v1/games/", {"map": "germany", "max_players": 2}),
    ]:
        r = ps[0].post(path, body, HTTP_IDEMPOTENCY_KEY=key)
        assert r.status_code == 400, r.content
        error = r.json()["error"]
        assert error["code"] == "invalid_field"
        assert error["details"] == {"field": "Idempotency-Key"}
        assert "control characters" in error["message"]
    assert Game.objects.count() == games
    assert not Move.objects.filter(game_id=gid).exists()
    assert not IdempotencyRecord.objects.exists()


def test_a_key_of_printable_characters_of_any_kind_is_taken(make_player):
    p = make_player()
    body = {"map": "germany", "max_players": 2}
    for key in ("550e8400-e29b-41d4-a716-446655440000", "key with spaces", "clé-é"):
        assert p.post("/api/v1/games/", body, HTTP_IDEMPOTENCY_KEY=key).status_code == 201
