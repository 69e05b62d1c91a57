"""A visitor's browser names its time zone (static/js/zone.js, allowed by the page's policy), and
the next page shows the game's deadline on the visitor's clock."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.services.lobby import game_create, game_join

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_visitor_in_tokyo_sees_the_deadline_in_jst(live_server, browser):
    users = [
        get_user_model().objects.create_user(f"tz{n}", f"tz{n}@example.com", "pw-zone-12345")
        for n in range(2)
    ]
    game = game_create(creator=users[0], map="germany", max_players=2)
    game_join(game_id=game.pk, user=users[1])
    page = browser.new_page(timezone_id="Asia/Tokyo", locale="en-GB")
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/")
    page.wait_for_function("document.cookie.indexOf('tz=Asia/Tokyo') >= 0")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.locator("time span[translate=no]").first.inner_text() == "JST"
