"""The round sheet on a phone (390 px), in Chromium, in English and Japanese: the game page with
a due sheet does not scroll sideways, "accept the suggestions" is one tap, and the page that
follows opens at the confirmation, which has the focus (without any script of ours: the
redirect's fragment and the element's own attributes do it)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.models import Game, Move, SheetAnswer

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-sheet-phone-12345"
PHONE = {"width": 390, "height": 844}
WIDER = "() => document.documentElement.scrollWidth"
KEPT = {"en": "Your sheet was kept.", "ja": "シートを保存しました。"}
ACCEPT = {"en": "Accept the suggestions", "ja": "提案を受け入れる"}


def _login(browser, base, user, lang):
    page = browser.new_page(viewport=PHONE, locale="en-GB", has_touch=True, is_mobile=True)
    page.set_default_timeout(30_000)  # (a loaded host: the first page of a live server)
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", user.username)
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    return page


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_due_sheet_is_accepted_on_a_phone(live_server, browser, shots, lang):
    users = [
        get_user_model().objects.create_user(f"sh{lang}{n}", f"sh{lang}{n}@example.com", PASSWORD)
        for n in range(3)
    ]
    for u in users:
        u.profile.language = lang
        u.profile.save(update_fields=["language"])
    game = services.game_create(creator=users[0], map="germany", max_players=3)
    for u in users[1:]:
        services.game_join(game_id=game.pk, user=u)
    game.refresh_from_db()
    seat = game.to_act[0]
    base = live_server.url
    page = _login(browser, base, users[seat], lang)
    page.goto(f"{base}/games/{game.pk}/")

    card = page.locator("#sheet")
    assert card.is_visible()
    assert page.evaluate(WIDER) <= PHONE["width"]
    accept = card.locator("button.primary")
    assert accept.inner_text().strip() == ACCEPT[lang]
    box = accept.bounding_box()
    assert box is not None
    assert box["x"] + box["width"] <= PHONE["width"]
    page.screenshot(path=str(shots / f"sheet-phone-{lang}.png"), full_page=True)

    with page.expect_navigation():
        accept.tap()
    assert page.url.endswith(f"/games/{game.pk}/#sheet-done")
    done = page.locator("#sheet-done")
    assert done.is_visible()
    assert KEPT[lang] in done.inner_text()
    assert page.evaluate("() => document.activeElement && document.activeElement.id") == (
        "sheet-done"
    )
    assert page.evaluate(WIDER) <= PHONE["width"]
    page.screenshot(path=str(shots / f"sheet-phone-{lang}-kept.png"), full_page=False)
    assert SheetAnswer.objects.filter(game_id=game.pk, seat=seat, source="web").exists()
    assert Move.objects.filter(game_id=game.pk, seat=seat, source=Move.Source.SHEET).exists()
    assert Game.objects.get(pk=game.pk).seq > 0
