"""A bid the server refuses comes back with the plant and the amount the player chose, and the bid
field's minimum is that plant's (game.js), not the first plant's."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from games import services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-refused-12345"


def test_a_refused_opening_bid_keeps_the_plant_and_its_minimum(live_server, browser):
    users = [
        get_user_model().objects.create_user(f"refuse{n}", f"refuse{n}@example.com", PASSWORD)
        for n in range(3)
    ]
    game = services.game_create(creator=users[0], map="germany", max_players=3)
    for u in users[1:]:
        services.game_join(game_id=game.pk, user=u)
    game.refresh_from_db()
    first = users[game.to_act[0]]
    page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", first.username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/$"))
    page.goto(f"{live_server.url}/games/{game.pk}/")

    form = page.locator('form[data-action="choose_plant"]')
    radios = form.locator('input[name="plant"]')
    third = radios.nth(2)
    plant, minimum = third.get_attribute("value"), int(third.get_attribute("data-min"))
    assert minimum > int(radios.nth(0).get_attribute("data-min"))
    third.check()
    bid = form.locator('input[name="bid"]')
    # Past the browser's own check, as a player without the script would be.
    page.evaluate(
        "() => document.querySelector('form[data-action=choose_plant] input[name=bid]')"
        ".removeAttribute('min')"
    )
    bid.fill(str(minimum - 1))
    form.locator('button[type="submit"]:not([name="preview"])').first.click()
    page.wait_for_url(re.compile(rf"/games/{game.pk}/"))

    form = page.locator('form[data-action="choose_plant"]')
    assert form.locator('input[name="plant"]:checked').get_attribute("value") == plant
    bid = form.locator('input[name="bid"]')
    assert bid.input_value() == str(minimum - 1)  # as the player wrote it
    assert bid.evaluate("b => b.min") == str(minimum)
    assert page.locator("#move .error, #move .errorlist, #move [role=alert]").count() >= 1
