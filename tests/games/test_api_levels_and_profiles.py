"""The API's missing pieces of issue 40: the bot levels' ratings (what /bots/ shows) and a
server bot's profile without reliability figures."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_the_bot_levels_endpoint_lists_what_the_page_shows(client):
    """Every level, weakest first, with the page's rating and games; anyone may read it; in
    Japanese the names are the page's too."""
    from games import ratings
    from games.models import Rating
    from powergrid.levels import LEVEL_NAMES

    identity = ratings.level_identity("expert")
    Rating.objects.create(user=identity, mu=30.0, sigma=2.0, games=7)
    rows = APIClient().get("/api/v1/bot-levels/").json()
    assert [r["level"] for r in rows] == list(LEVEL_NAMES)
    expert = next(r for r in rows if r["level"] == "expert")
    table = next(r for r in ratings.level_table() if r["level"] == "expert")
    assert expert["rating"] == table["rating"] is not None
    assert expert["games"] == 7
    assert expert["username"] == identity.get_username()
    assert expert["name"] == "Expert bot"
    assert all(r["rating"] is None and r["games"] == 0 for r in rows if r["level"] != "expert")
    page = client.get("/bots/").content.decode()
    assert str(expert["rating"]) in page
    ja = APIClient().get("/api/v1/bot-levels/", HTTP_ACCEPT_LANGUAGE="ja").json()
    names = {r["level"]: r["name"] for r in ja}
    assert names["expert"] != "Expert bot"
    assert names["expert"] in client.get("/bots/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()


def test_a_server_bots_profile_has_no_reliability_figures(make_player):
    """A server bot (a level's rating account, a seat's bot) has no turns of its own: its
    reliability is null, not zeros that read as a record; a person's is figures."""
    from games import ratings, services
    from games.models import Seat

    p = make_player()
    game = services.game_create(
        creator=p.user, map="germany", max_players=3, options={"auto_start": False}
    )
    services.game_bot_add(game_id=game.pk, user=p.user, kind="expert")
    bot = Seat.objects.get(game=game, seat=1).user
    for user in (bot, ratings.level_identity("heuristic")):
        body = APIClient().get(f"/api/v1/players/{user.get_username()}/").json()
        assert body["server_bot"] is True
        assert body["reliability"] is None, body
    body = APIClient().get(f"/api/v1/players/{p.user.get_username()}/").json()
    assert body["server_bot"] is False
    assert body["reliability"]["turns"] == 0
