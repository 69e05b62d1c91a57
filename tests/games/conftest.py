"""Fixtures for the server tests: users, token-authenticated API clients, started games."""

from __future__ import annotations

from typing import Any

import pytest
from apihelpers import PASSWORD, Player, _counter

from tests.api_schema import ValidatingAPIClient as APIClient


@pytest.fixture
def make_player(db):
    from django.contrib.auth import get_user_model
    from knox.models import AuthToken

    def make(username: str | None = None, display_name: str = "") -> Player:
        name = username or f"user{next(_counter)}"
        user = get_user_model().objects.create_user(
            username=name, email=f"{name}@example.com", password=PASSWORD
        )
        if display_name:
            user.profile.display_name = display_name
            user.profile.save()
        _, token = AuthToken.objects.create(user=user, expiry=None)
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        return Player(user, client, token)

    return make


@pytest.fixture
def new_game(make_player):
    """new_game(players=3, start=True, map=..., areas=...) -> (game_id, [Player by join order])."""

    def make(players: int = 3, start: bool = True, **create: Any) -> tuple[int, list[Player]]:
        ps = [make_player() for _ in range(players)]
        body = {"map": "germany", "max_players": max(players, 2), **create}
        if not start:  # a full game left open: the creator starts it later
            body["options"] = {**body.get("options", {}), "auto_start": False}
        r = ps[0].post("/api/v1/games/", body)
        assert r.status_code == 201, r.content
        gid = r.json()["id"]
        for p in ps[1:]:
            assert p.post(f"/api/v1/games/{gid}/join/").status_code == 200
        if start and ps[0].get(f"/api/v1/games/{gid}/").json()["status"] == "open":
            r = ps[0].post(f"/api/v1/games/{gid}/start/")  # not started by the last join
            assert r.status_code == 200, r.content
        return gid, ps

    return make
