"""The event stream, ``GET /api/v1/stream/``: who may open it, what it says on connect and after
a change, and that it says nothing secret. Here under WSGI (the development server's path: it
reads the log); tests/integration/test_stream_live.py runs the ASGI path with and without
Redis, and test_stream_log.py what the log tells (every change once, resuming)."""

from __future__ import annotations

import json

import pytest
from apihelpers import play_default
from django.test import Client

from games.models import Game

pytestmark = pytest.mark.django_db


def _events(response, n: int) -> list[dict]:
    """The data of the next ``n`` events (the stream never ends: read what is asked)."""
    out: list[dict] = []
    chunks = iter(response.streaming_content)
    while len(out) < n:
        chunk = next(chunks).decode()
        out += [json.loads(line[6:]) for line in chunk.splitlines() if line.startswith("data: ")]
    return out


@pytest.fixture
def quick(settings):
    settings.STREAM_FALLBACK_SECONDS = 0.01
    settings.STREAM_REDIS_URL = ""


@pytest.fixture
def open_stream():
    """Open a stream with the test client; every stream opened is closed when the test ends.

    A stream never ends by itself: left open, its generator would be finalised by the garbage
    collector at some later moment, on whatever thread runs then, in the middle of another
    test. Closing it here runs its clean-up now, on this thread."""
    opened = []

    def open_(path: str = "/api/v1/stream/", **extra):
        response = Client().get(path, **extra)
        opened.append(response)
        return response

    yield open_
    for response in opened:
        response.close()  # closes the stream's generator too (a resource of the response)


def test_without_credentials_or_a_game_it_is_refused():
    r = Client().get("/api/v1/stream/")
    assert r.status_code == 401
    assert r.json()["error"]["code"] == "not_authenticated"


@pytest.mark.parametrize(
    ("header", "query", "status", "code"),
    [
        ("Token nope", "", 401, "authentication_failed"),
        ("Bearer x y", "", 401, "authentication_failed"),
        ("", "?game=abc", 400, "invalid_field"),
        ("", "?game=999999", 404, "not_found"),
    ],
)
def test_bad_requests_get_a_clear_error(header, query, status, code):
    extra = {"HTTP_AUTHORIZATION": header} if header else {}
    r = Client().get(f"/api/v1/stream/{query}", **extra)
    assert r.status_code == status
    assert r.json()["error"]["code"] == code


def test_a_player_gets_each_running_game_on_connect_with_their_turn(new_game, quick, open_stream):
    gid, ps = new_game(players=3)
    game = Game.objects.get(pk=gid)
    for p in ps:
        r = open_stream(HTTP_AUTHORIZATION=f"Token {p.token}")
        assert r.status_code == 200
        assert r["Content-Type"] == "text/event-stream"
        (body,) = _events(r, 1)
        assert body["game"]["id"] == gid
        assert body["game"]["seq"] == game.seq
        assert body["your_turn"] == (body["seat"] in game.to_act)
        assert (body["deadline"] is not None) == body["your_turn"]


def test_a_change_is_told_after_it_commits(new_game, quick, open_stream):
    gid, ps = new_game(players=3)
    r = open_stream(HTTP_AUTHORIZATION=f"Token {ps[1].token}")
    (first,) = _events(r, 1)
    play_default(gid, ps)
    (second,) = _events(r, 1)
    assert second["game"]["seq"] == first["game"]["seq"] + 1


def test_a_watcher_sees_only_public_facts(new_game, quick, open_stream):
    gid, _ps = new_game(players=3)
    r = open_stream(f"/api/v1/stream/?game={gid}")
    (body,) = _events(r, 1)
    assert body == {"event": "game", "game": body["game"]}
    assert set(body["game"]) == {"id", "map", "seq", "status", "to_act"}
    raw = json.dumps(body)
    for secret in ("money", "deck", "seed", "plan", "elektro"):
        assert secret not in raw


def test_the_event_id_is_the_position_in_the_log(new_game, quick, open_stream):
    from games.stream import log

    gid, _ps = new_game(players=2)
    r = open_stream(f"/api/v1/stream/?game={gid}")
    chunks = iter(r.streaming_content)
    text = b"".join(next(chunks) for _ in range(2)).decode()

    assert f"id: {log.head()}\nevent: game\n" in text
