"""Fixtures for the web pages: users with logged-in clients and started games (via the services)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.test import Client

_n = itertools.count(1)


@pytest.fixture
def make_user(db):
    from django.contrib.auth import get_user_model

    def make(name: str | None = None, *, language: str = "en", tz: str = "UTC") -> Any:
        name = name or f"webuser{next(_n)}"
        user = get_user_model().objects.create_user(
            username=name, email=f"{name}@example.com", password="pw-web-123456"
        )
        user.profile.display_name = name.capitalize()
        user.profile.language = language
        user.profile.timezone = tz
        user.profile.save()
        return user

    return make


@pytest.fixture
def client_for():
    def make(user: Any) -> Client:
        c = Client()
        c.force_login(user)
        return c

    return make


@pytest.fixture
def started_game(make_user):
    """started_game(n=3, **create) -> (game, [users in seat order])."""
    from games import services

    def make(n: int = 3, **create: Any) -> tuple[Any, list[Any]]:
        users = [make_user() for _ in range(n)]
        game = services.game_create(
            creator=users[0], map=create.pop("map", "germany"), max_players=n, **create
        )
        for u in users[1:]:
            services.game_join(game_id=game.pk, user=u)
        game.refresh_from_db()
        if game.status == "open":  # not started by the last join (auto_start off)
            game = services.game_start(game_id=game.pk, user=users[0])
        return game, users

    return make
