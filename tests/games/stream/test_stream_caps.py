"""A stream holds a task (a thread under WSGI) for hours: each process keeps at most
``STREAM_MAX_PER_USER`` open per account and ``STREAM_MAX_PER_ADDRESS`` per client address; the
next is 429 ``throttled``, and closing one frees its place (even one never read)."""

from __future__ import annotations

import pytest
from django.core.signals import request_finished
from django.db import close_old_connections
from django.test import Client

pytestmark = pytest.mark.django_db


def _close(response) -> None:
    """Close a stream as the server does when its client goes (without the end of request's
    closing of the test's database connection, as the test client does)."""
    request_finished.disconnect(close_old_connections)
    try:
        response.close()
    finally:
        request_finished.connect(close_old_connections)


@pytest.fixture
def caps(settings):
    settings.STREAM_FALLBACK_SECONDS = 0.01
    settings.STREAM_REDIS_URL = ""
    settings.STREAM_MAX_PER_USER = 2
    settings.STREAM_MAX_PER_ADDRESS = 3


@pytest.fixture
def streams():
    opened = []

    def open_(path: str = "/api/v1/stream/", *, addr: str = "192.0.2.1", **extra):
        r = Client(REMOTE_ADDR=addr).get(path, **extra)
        opened.append(r)
        return r

    yield open_
    for r in opened:
        _close(r)


def _token(player) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Token {player.token}"}


def test_an_account_opens_a_few_streams_then_is_told_to_close_one(caps, streams, make_player):
    player = make_player()
    first = streams(addr="192.0.2.1", **_token(player))
    second = streams(addr="198.51.100.1", **_token(player))  # another address: the same account
    assert (first.status_code, second.status_code) == (200, 200)
    r = streams(addr="203.0.113.1", **_token(player))
    assert r.status_code == 429
    assert r.json()["error"]["code"] == "throttled"
    assert r.json()["error"]["details"]["retry_after"] > 0
    assert "at most 2 per account" in r.json()["error"]["message"]
    _close(first)  # the client went away: its place is free again
    assert streams(addr="203.0.113.1", **_token(player)).status_code == 200


def test_an_address_opens_a_limited_number_whoever_asks(caps, streams, make_player, new_game):
    gid, _ps = new_game(players=2)
    # Watchers without an account count against their address...
    assert [streams(f"/api/v1/stream/?game={gid}").status_code for _ in range(3)] == [200] * 3
    assert streams(f"/api/v1/stream/?game={gid}").status_code == 429
    # ...and so do accounts connecting from it.
    assert streams(**_token(make_player())).status_code == 429
    # Another address is not affected.
    assert streams(f"/api/v1/stream/?game={gid}", addr="192.0.2.2").status_code == 200


def test_a_refused_or_invalid_request_takes_no_place(caps, streams, make_player):
    from games.stream.views import SLOTS

    for _ in range(5):
        assert streams("/api/v1/stream/?game=999999").status_code == 404
        assert streams(HTTP_AUTHORIZATION="Token nope").status_code == 401
    assert SLOTS.count("addr:192.0.2.1") == 0
    player = make_player()
    assert streams(**_token(player)).status_code == 200
    assert SLOTS.count(f"user:{player.user.pk}") == 1


def test_a_stream_that_was_read_gives_its_place_back(caps, make_player):
    from games.stream.views import SLOTS

    player = make_player()
    r = Client(REMOTE_ADDR="192.0.2.9").get("/api/v1/stream/", **_token(player))
    assert next(iter(r.streaming_content)).startswith(b"retry:")
    assert SLOTS.count(f"user:{player.user.pk}") == 1
    _close(r)
    assert SLOTS.count(f"user:{player.user.pk}") == 0
    assert SLOTS.count("addr:192.0.2.9") == 0


def test_a_stream_ending_by_itself_gives_its_place_back_once():
    """The stream's own end and the response's close both release: the slot is given back
    once (a second release must not free another stream's place)."""
    from games.stream.views import SLOTS, Who, _released

    who = Who(user=None, game_id=1, private=False, address="192.0.2.77")
    release = SLOTS.take(who)
    assert release is not None
    other = SLOTS.take(who)
    assert SLOTS.count("addr:192.0.2.77") == 2
    gen = _released(iter([b"a", b"b"]), release)
    assert list(gen) == [b"a", b"b"]  # ended: released
    release()  # and the response's close after it: nothing more
    assert SLOTS.count("addr:192.0.2.77") == 1
    assert other is not None
    other()
    assert SLOTS.count("addr:192.0.2.77") == 0
