"""Fixtures for the bounce and complaint tests: a started game whose awaited player has a turn
email built, and the reports a mail system sends back."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fresh_rates_and_throttles():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def awaited(new_game):
    """(game id, the awaited seat's player, their turn notification): a 3-player game."""
    from apihelpers import seat_players

    import powergrid
    from games.models import Game, Notification

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    seat = powergrid.to_act(powergrid.from_json(Game.objects.get(pk=gid).state_json))[0]
    p = seats[seat]
    n = Notification.objects.create(recipient=p.user, game_id=gid, kind="turn", payload={})
    return gid, p, n
