"""Every page at a 390 px phone width: nothing makes the page itself scroll sideways (wide tables,
the board and long codes scroll or wrap inside their own boxes), signed in and signed out, in
English and Japanese."""

from __future__ import annotations

import re

import pytest
from e2ehelpers import game_played_until, users

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-phone-123456"
#: The elements sticking out of the page's width, outside boxes that scroll on purpose.
WIDER = """() => { const W = document.documentElement.clientWidth; const out = [];
  document.querySelectorAll('body *').forEach(e => {
    const r = e.getBoundingClientRect();
    if (r.width && r.right > W + 1 && !e.closest('.board-scroll, .table-wrap, .log, pre'))
      out.push(e.tagName.toLowerCase() + (e.className && e.className.baseVal === undefined
        ? '.' + String(e.className).split(' ').join('.') : '') + ' ' + Math.round(r.right));
  });
  return {page: document.documentElement.scrollWidth, wider: out.slice(0, 8)}; }"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_page_scrolls_sideways_on_a_phone(live_server, browser, lang):
    players = users("narrow", 3, PASSWORD)
    game = game_played_until(players, lambda s: s.round >= 2 and s.phase == "build")
    base = live_server.url
    page = browser.new_page(viewport={"width": 390, "height": 844}, locale="en-GB")
    page.set_default_timeout(15_000)
    signed_out = ["/", "/accounts/signup/", "/accounts/login/", f"/games/{game.pk}/"]
    signed_in = [
        "/",
        "/games/new/",
        f"/games/{game.pk}/",
        f"/games/{game.pk}/history/3/",
        f"/games/{game.pk}/plans/",
        f"/players/{players[1].username}/",
        "/accounts/profile/",
        "/accounts/tokens/",
        "/accounts/email/",
        "/webhooks/",
        "/account/bot/",
    ]
    bad = {}
    for u in players:
        u.profile.language = lang
        u.profile.save()
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
    for path in signed_out:
        page.goto(base + path)
        m = page.evaluate(WIDER)
        if m["page"] > 390:
            bad["out " + path] = m
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", players[0].username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/$"))
    for path in signed_in:
        page.goto(base + path)
        m = page.evaluate(WIDER)
        if m["page"] > 390:
            bad[path] = m
    assert bad == {}


#: The income panel's figures (its leaves with text), each with whether it sticks out of the
#: reference card (cut off, or to be scrolled to).
INCOME_FIGURES = """() => {
  const card = document.querySelector('#reference').getBoundingClientRect();
  const panel = document.querySelector('#reference details');
  return [...panel.querySelectorAll('*')].filter(e => !e.children.length && e.textContent.trim()
    && e.tagName !== 'SUMMARY').map(e => { const r = e.getBoundingClientRect();
    return [e.textContent.trim(), r.right > card.right || r.left < card.left]; }); }"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_whole_income_table_is_in_view_on_a_phone(live_server, browser, lang):
    players = users(f"income{lang}", 3, PASSWORD)
    game = game_played_until(players, lambda s: True)
    page = browser.new_page(viewport={"width": 390, "height": 844}, locale="en-GB")
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(f"{live_server.url}/games/{game.pk}/")
    income = page.locator("#reference details").first
    income.locator("summary").click()
    figures = page.evaluate(INCOME_FIGURES)
    assert ["150", False] in figures  # the income for 20+ cities, the last one
    assert [text for text, outside in figures if outside] == []
