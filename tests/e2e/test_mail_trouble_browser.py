"""In a real browser at a phone's width, under the site's Content-Security-Policy: a player our
emails do not reach sees the banner, sends allauth's confirmation from it and, once the link in
that email is opened, no banner; the other players see on the game page who is not receiving
emails. English and Japanese."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.utils import timezone
from e2ehelpers import game_played_until, users

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-bounce-123456"


def _log_in(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/$"))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_banner_confirmation_and_game_page_note(live_server, browser, settings, lang):
    from accounts import deliverability

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    players = users(f"bounce{lang}", 3, PASSWORD)
    for u in players:
        u.profile.language = lang
        u.profile.save()
    game = game_played_until(players, lambda s: s.round >= 1)
    gone = players[0]
    deliverability.address_mark_undeliverable(
        user=gone, address=gone.email, reason="hard_bounce", at=timezone.now()
    )
    base = live_server.url
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.set_default_timeout(15_000)

    # Another player sees the note on the game page, beside the name and under the list.
    _log_in(page, base, players[1].username)
    page.goto(f"{base}/games/{game.pk}/")
    badge = page.locator(".badge.mail-down")
    assert badge.count() == 1
    assert badge.inner_text() == {"en": "not receiving emails", "ja": "メール不達"}[lang]
    assert page.locator(".mail-down-note").is_visible()
    assert page.locator(".mail-trouble").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.context.clear_cookies()

    # The player sees the banner on every page, and sends the confirmation from it.
    _log_in(page, base, gone.username)
    for path in ("/", f"/games/{game.pk}/", "/accounts/profile/"):
        page.goto(base + path)
        banner = page.locator(".mail-trouble")
        assert banner.is_visible(), path
        assert gone.email in banner.inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
    page.locator(".mail-trouble button[type=submit]").click()
    page.wait_for_url(re.compile(r"/accounts/profile/$"))
    assert len(mail.outbox) == 1
    link = re.search(r"https?://\S+?(/accounts/confirm-email/\S+/)", mail.outbox[0].body)
    assert link
    page.goto(base + link.group(1))
    page.locator("main form button[type=submit]").click()
    page.goto(base + "/")
    assert page.locator(".mail-trouble").count() == 0
