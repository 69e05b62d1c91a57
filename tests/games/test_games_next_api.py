"""``GET /api/v1/games/next/``: the game waiting for the caller whose deadline is nearest; 204
when none; a seat the bot plays (left, timed out) is not waiting for its player."""

from __future__ import annotations

from datetime import timedelta

import pytest
from apihelpers import seat_players

pytestmark = pytest.mark.django_db


def test_the_nearest_deadline_first_and_204_when_none(new_game, make_player):
    from django.utils import timezone

    from games.models import Game, Seat

    idle = make_player()
    r = idle.get("/api/v1/games/next/")
    assert r.status_code == 204
    a, ps_a = new_game(players=2)
    b, _ps_b = new_game(players=2)
    me = seat_players(a, ps_a)[Game.objects.get(pk=a).to_act[0]]
    seat_b = Game.objects.get(pk=b).to_act[0]
    Seat.objects.filter(game_id=b, seat=seat_b).update(user=me.user)
    now = timezone.now()
    Seat.objects.filter(game_id=a, user=me.user).update(deadline=now + timedelta(hours=9))
    Seat.objects.filter(game_id=b, user=me.user).update(deadline=now + timedelta(hours=1))
    r = me.get("/api/v1/games/next/")
    assert r.status_code == 200
    body = r.json()
    assert body["game"]["id"] == b
    assert body["waiting"] == 2
    assert body["deadline"].startswith(str((now + timedelta(hours=1)).date()))
    # Leaving b: the bot plays it, it no longer waits for me.
    assert me.post(f"/api/v1/games/{b}/resign/").status_code == 200
    body = me.get("/api/v1/games/next/").json()
    assert (body["game"]["id"], body["waiting"]) == (a, 1)
    assert make_player().get("/api/v1/games/next/").status_code == 204
