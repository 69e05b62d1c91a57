"""The development mailbox on a phone, in the browser: a Japanese email reads as Japanese in its
text and HTML parts, and its long headers, links and folder path wrap instead of widening the
page."""

from __future__ import annotations

import pytest
from django.core.mail import EmailMultiAlternatives

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LINK = "http://127.0.0.1:8000/mail/settings/" + "eyJ1IjozfQ" * 12 + "/"


def test_a_japanese_email_on_a_phone(live_server, browser, settings, tmp_path):
    settings.DEBUG = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    # A long folder path without spaces (pytest's own are longer than a phone's width): the list's
    # heading names it in <code>, which must wrap.
    settings.EMAIL_FILE_PATH = str(tmp_path / ("walk_at_390_px_playing_in_japanese" * 2) / "mail")
    msg = EmailMultiAlternatives(
        "【電力会社】ゲーム #2（ドイツ）が始まりました",
        f"Carol さん、\nゲームが始まりました。\n{LINK}",
        to=["carol@example.com"],
        headers={"List-Unsubscribe": f"<{LINK}>"},
    )
    msg.attach_alternative(f"<p>Carol さん、</p><p><a href='{LINK}'>{LINK}</a></p>", "text/html")
    msg.send()

    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/dev/mailbox/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.get_by_role("link", name="【電力会社】ゲーム #2（ドイツ）が始まりました").click()
    assert "ゲームが始まりました。" in page.locator("pre.mailbox-text").inner_text()
    frame = page.frame_locator("iframe.mailbox-html")
    assert frame.locator("p").first.inner_text() == "Carol さん、"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
