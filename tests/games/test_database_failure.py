"""A database connection lost in the middle of a move: a clear 503, nothing applied, retry works."""

from __future__ import annotations

from unittest import mock

import pytest
from apihelpers import seat_players
from django.db import OperationalError

from games.models import Game, IdempotencyRecord, Move, Notification

pytestmark = pytest.mark.django_db

LOST = OperationalError("server closed the connection unexpectedly")


def _opening_move(gid, ps):
    seats = seat_players(gid, ps)
    actor = ps[0].get(f"/api/v1/games/{gid}/").json()["to_act"][0]
    player = seats[actor]
    legal = player.get(f"/api/v1/games/{gid}/state/").json()["legal"]
    plant = next(e for e in legal if e["type"] == "choose_plant")["plants"][0]
    return player, {"type": "choose_plant", "plant": plant["number"], "bid": plant["min_bid"]}


def test_a_move_cut_off_by_the_database_changes_nothing_and_its_retry_applies_once(new_game):
    gid, ps = new_game(players=3)
    player, action = _opening_move(gid, ps)
    url = f"/api/v1/games/{gid}/moves/"
    body = {"action": action, "expected_seq": 0}
    outbox_before = Notification.objects.count()

    # The engine has accepted the move and the game row is locked when the insert fails.
    with mock.patch("games.services.moves.rows.insert", side_effect=LOST):
        r = player.post(url, body, HTTP_IDEMPOTENCY_KEY="retry-me")

    assert r.status_code == 503
    assert r["Retry-After"] == "5"
    error = r.json()["error"]
    assert error["code"] == "service_unavailable"
    assert "nothing was changed" in error["message"]
    game = Game.objects.get(pk=gid)
    assert game.seq == 0
    assert not Move.objects.filter(game_id=gid).exists()
    assert Notification.objects.count() == outbox_before
    assert not IdempotencyRecord.objects.filter(key="retry-me").exists()

    # The client retries the same request with the same key once the database is back.
    again = player.post(url, body, HTTP_IDEMPOTENCY_KEY="retry-me")
    assert again.status_code == 201
    assert Move.objects.filter(game_id=gid).count() == 1
    assert Game.objects.get(pk=gid).seq == 1


def test_a_read_that_loses_the_database_answers_503_not_500(new_game):
    gid, ps = new_game(players=3)
    with mock.patch("games.api.play.selectors.game_state_for", side_effect=LOST):
        r = ps[0].get(f"/api/v1/games/{gid}/state/")
    assert r.status_code == 503
    assert r.json()["error"]["code"] == "service_unavailable"


@pytest.mark.parametrize("path", ["/", "/api/v1/games/"])
def test_the_database_lost_in_a_middleware_answers_503_not_500(client, django_user_model, path):
    """A middleware meets the database first on a page (the session's user, the profile:
    accounts.middleware's last-seen write); an outage there is no view's exception, and was a
    500 (scripts/season's primary restart, a web form move). Now 503 with Retry-After, like a
    view's."""
    from django.test import Client

    user = django_user_model.objects.create_user(username="ann", password="pw-ann-123")
    browser = Client(raise_request_exception=False)
    browser.force_login(user)
    with mock.patch("accounts.deliverability.seen", side_effect=LOST):
        r = browser.get(path)
    if path.startswith("/api/"):  # the API is left alone by that middleware: no outage there
        assert r.status_code == 200
        return
    assert r.status_code == 503
    assert r["Retry-After"] == "5"
