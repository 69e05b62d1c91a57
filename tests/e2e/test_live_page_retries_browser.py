"""The open game page listens again when its event stream was refused (issue 23's walk: a
player who reloads the game page a few times in a row gets 429 from the stream, because the
streams of the pages just left are counted until the server next writes to them; the page then
no longer followed the game until reloaded once more)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from games import services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-live-retry-12345"


def test_a_refused_stream_is_tried_again(live_server, browser):
    users = [
        get_user_model().objects.create_user(f"retry{n}", f"retry{n}@example.com", PASSWORD)
        for n in range(3)
    ]
    game = services.game_create(creator=users[0], map="germany", max_players=3)
    for u in users[1:]:
        services.game_join(game_id=game.pk, user=u)

    ctx = browser.new_context(live=True, viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", users[0].username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/$"))

    asked: list[str] = []

    def stream(route):
        asked.append(route.request.url)
        if len(asked) == 1:
            route.fulfill(
                status=429,
                content_type="application/json",
                headers={"Retry-After": "20"},
                body='{"error": {"code": "throttled"}}',
            )
        else:
            route.fulfill(status=204)

    page.route(re.compile(r"/api/v1/stream/"), stream)
    page.clock.install()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_function("() => true")
    for _ in range(50):
        if asked:
            break
        page.wait_for_timeout(100)
    assert len(asked) == 1
    page.clock.run_for(21_000)
    for _ in range(50):
        if len(asked) > 1:
            break
        page.wait_for_timeout(100)
    assert len(asked) == 2, "the page did not listen again after a refused stream"
    # A few times at most, each later than the one before: never a loop of requests.
    page.clock.run_for(10 * 60_000)
    page.wait_for_timeout(300)
    assert len(asked) <= 5
