"""A mis-tap taken back on a phone (390 px), in Chromium: the player opens an auction on the wrong
plant, takes it back from the button at the top of the page (beside the log entry too), and opens
the right one; later, after another player has bid, the take-back needs asking: the others see
the request with Agree and Refuse, agree on their phones, and the moves are taken back. Nothing
makes the page scroll sideways."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-takeback-12345"
PHONE = {"width": 390, "height": 844}
WIDER = "() => document.documentElement.scrollWidth"


def _login(browser, base, user):
    page = browser.new_page(viewport=PHONE, locale="en-GB", has_touch=True, is_mobile=True)
    page.set_default_timeout(15_000)
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", user.username)
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    return page


def test_a_mistap_is_taken_back_on_a_phone(live_server, browser, shots):
    users = [
        get_user_model().objects.create_user(f"tb{n}", f"tb{n}@example.com", PASSWORD)
        for n in range(3)
    ]
    game = services.game_create(
        creator=users[0], map="germany", max_players=3, options={"takebacks_rated": True}
    )
    for u in users[1:]:
        services.game_join(game_id=game.pk, user=u)
    game.refresh_from_db()
    first = users[game.to_act[0]]
    base = live_server.url
    page = _login(browser, base, first)
    page.goto(f"{base}/games/{game.pk}/")

    # The mis-tap: the second plant instead of the first.
    form = page.locator('form[data-action="choose_plant"]')
    radios = form.locator('input[name="plant"]')
    wanted, wrong = radios.nth(0).get_attribute("value"), radios.nth(1).get_attribute("value")
    radios.nth(1).check()
    with page.expect_navigation():
        form.locator('button[type="submit"]:not([name="preview"])').first.click()
    # The page opens at the move's confirmation (focused), the take-back bar right below it.
    assert page.url.endswith("#move-done")
    assert "Your move was recorded." in page.locator("#move-done").inner_text()
    bar = page.locator("#takeback")
    assert bar.is_visible()
    assert bar.locator("button.takeback").inner_text() == "Take back"
    # In view without scrolling, on the phone: just below the confirmation.
    box = bar.bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= PHONE["height"]
    assert page.locator("#log li button.takeback").count() == 1  # beside the move in the log
    assert page.evaluate(WIDER) <= PHONE["width"]
    page.screenshot(path=str(shots / "takeback-phone-offer.png"), full_page=False)

    with page.expect_navigation():
        bar.locator("button.takeback").tap()
    assert "Your move was taken back" in page.locator(".messages").inner_text()
    struck = page.locator("#log li.cancelled")
    assert struck.count() == 1
    assert f"plant {wrong}" in struck.inner_text()
    assert struck.locator(".log-text").evaluate("e => getComputedStyle(e).textDecorationLine") == (
        "line-through"
    )
    page.screenshot(path=str(shots / "takeback-phone-done.png"), full_page=True)
    g = Game.objects.get(pk=game.pk)
    assert g.seq == 2
    assert g.to_act == [users.index(first)]

    # The right plant this time.
    form = page.locator('form[data-action="choose_plant"]')
    form.locator(f'input[name="plant"][value="{wanted}"]').check()
    with page.expect_navigation():
        form.locator('button[type="submit"]:not([name="preview"])').first.click()
    g = Game.objects.get(pk=game.pk)
    assert g.seq == 3
    bidder = users[g.to_act[0]]
    services.move_submit(
        game_id=g.pk, user=bidder, action={"type": "bid", "amount": int(wanted) + 1},
        expected_seq=3, source="api",
    )  # fmt: skip

    # Now another player has moved: asking.
    page.goto(f"{base}/games/{game.pk}/")
    bar = page.locator("#takeback")
    assert bar.locator("button.takeback").inner_text() == "Ask to take back"
    assert "every other player must agree" in bar.inner_text()
    with page.expect_navigation():
        bar.locator("button.takeback").tap()
    assert "The other players are asked" in page.locator(".messages").inner_text()
    assert page.locator("#takeback-request").is_visible()
    assert page.evaluate(WIDER) <= PHONE["width"]

    for other in (u for u in users if u != first):
        theirs = _login(browser, base, other)
        theirs.goto(f"{base}/games/{game.pk}/")
        panel = theirs.locator("#takeback-request")
        assert panel.is_visible()
        assert "asks to take back a move" in panel.inner_text()
        agree = panel.locator('button[value="accept"]')
        assert agree.is_visible()
        abox = agree.bounding_box()
        assert abox is not None
        assert abox["height"] >= 40  # a finger's size
        assert theirs.evaluate(WIDER) <= PHONE["width"]
        theirs.screenshot(path=str(shots / "takeback-phone-asked.png"), full_page=False)
        with theirs.expect_navigation():
            agree.tap()
    assert "Everyone agreed" in theirs.locator(".messages").inner_text()
    g = Game.objects.get(pk=game.pk)
    assert g.seq == 5
    assert g.to_act == [users.index(first)]
    page.goto(f"{base}/games/{game.pk}/")
    assert page.locator("#log li.cancelled").count() == 3  # the mis-tap, and the two agreed
