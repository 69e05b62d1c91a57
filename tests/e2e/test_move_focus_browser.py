"""A keyboard player's move, at a phone's width, in English and Japanese (issue 38): the page's
first Tab stop is "Skip to your move", which puts the focus on the move card, whose next stop is
the move's first control; the move made by the keyboard, the page opens at its confirmation,
focused and in view, and the next Tab stop is what there is to do next (take the move back),
not the top of the page. The game moving on at once (the bot's answer: the page loads itself
again, static/js/live.js) keeps the confirmation there, focused (the blind review of session 37
found the address at ``#move-done`` and no such element after such a reload)."""

from __future__ import annotations

import json
import re

import pytest
from e2ehelpers import users

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-movefocus-1234"
PHONE = {"width": 390, "height": 844}
ACTIVE = "() => { const e = document.activeElement; return e ? [e.id, e.tagName," \
    " (e.textContent || '').trim(), e.getAttribute('name')] : null; }"  # fmt: skip


#: Which part of the page the focus is in.
WITHIN = """() => { const e = document.activeElement;
  for (const id of ['move', 'takeback', 'move-done']) if (e && e.closest('#' + id)) return id;
  return e && e.closest('header, .game-head') ? 'top' : (e ? e.tagName : null); }"""


def _game_awaiting_seat_0(people):
    from games import selectors, services
    from games.models import Game
    from powergrid.bots import HeuristicBot

    game = services.game_create(
        creator=people[0], map="germany", max_players=2, options={"takebacks_rated": True}
    )
    services.game_join(game_id=game.pk, user=people[1])
    for _ in range(20):
        g = Game.objects.get(pk=game.pk)
        if 0 in g.to_act:
            return g
        state = selectors.game_engine_state(g)
        services.move_submit(game_id=g.pk, user=people[1], action=HeuristicBot().choose(state, 1),
                             expected_seq=g.seq, source="api")  # fmt: skip
    raise AssertionError("seat 0 never awaited")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_keyboard_lands_on_the_move_and_after_it(live_server, browser, shots, lang):
    from django.utils import translation
    from django.utils.translation import gettext as _

    people = users(f"mf{lang}", 2, PASSWORD)
    for u in people:
        u.profile.language = lang
        u.profile.save(update_fields=["language"])
    game = _game_awaiting_seat_0(people)
    base = live_server.url
    ctx = browser.new_context(
        live=True, viewport=PHONE, locale="ja-JP" if lang == "ja" else "en-GB"
    )
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    # The game's stream, as the server would answer: nothing new, until the move is made; then
    # once the game moved on again (the other player's answer), which reloads the page.
    moved = {"seq": None, "told": False}

    def stream(route):
        if moved["seq"] is None or moved["told"]:
            route.fulfill(status=204)
            return
        moved["told"] = True
        body = {
            "game": {"id": game.pk, "seq": moved["seq"] + 1, "status": "running", "to_act": [1]}
        }
        route.fulfill(status=200, content_type="text/event-stream",
                      body=f"event: game\ndata: {json.dumps(body)}\n\n")  # fmt: skip

    page.route(re.compile(r"/api/v1/stream/"), stream)
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", people[0].username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/$"))
    page.goto(f"{base}/games/{game.pk}/")

    with translation.override(lang):
        skip, recorded = _("Skip to your move"), _("Your move was recorded.")
    page.keyboard.press("Tab")
    assert page.evaluate(ACTIVE)[2] == skip
    assert page.locator("a.skip:focus").is_visible()  # shown while focused
    page.keyboard.press("Enter")
    assert page.evaluate(ACTIVE)[0] == "move"
    page.keyboard.press("Tab")
    assert page.evaluate(WITHIN) == "move", page.evaluate(ACTIVE)  # the card's first stop
    for _i in range(30):  # on to the move's own button (a bid, or opening an auction)
        if page.evaluate("() => document.activeElement.matches('#move form button.primary')"):
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError("no way to the move's button")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url.endswith(f"/games/{game.pk}/#move-done")
    page.wait_for_selector("#move-done")
    focused = page.evaluate(ACTIVE)
    assert focused[0] == "move-done", focused
    assert focused[2] == recorded
    box = page.locator("#move-done").bounding_box()
    assert box is not None
    assert box["y"] >= 0
    assert box["y"] + box["height"] <= PHONE["height"]
    page.screenshot(path=str(shots / f"move-done-phone-{lang}.png"), full_page=False)
    # The next stop: what there is to do next (the take-back bar, then the move card), not the
    # top of the page ("Skip to content", the site's menu).
    page.keyboard.press("Tab")
    assert page.evaluate(WITHIN) == "takeback", page.evaluate(ACTIVE)

    # The game moves on while the player reads it: the page loads itself again, and the
    # confirmation is still there, focused (the address still names it), shown once. (The
    # server's confirmation again, as a move's redirect leaves it, and the page opened at it;
    # then the stream says the game moved on.)
    from django.conf import settings
    from django.contrib.sessions.backends.db import SessionStore

    from games.models import Game

    cookie = next(c for c in ctx.cookies() if c["name"] == settings.SESSION_COOKIE_NAME)
    session = SessionStore(session_key=cookie["value"])
    session["games.move_done"] = {"game": game.pk, "text": recorded}
    session.save()
    moved["seq"] = Game.objects.get(pk=game.pk).seq
    with page.expect_navigation():
        page.reload()
    # The page live.js loaded again: the server showed the confirmation once (with autofocus),
    # and this one is the tab's copy of it.
    page.wait_for_function(
        "() => { const e = document.getElementById('move-done');"
        " return !!e && !e.hasAttribute('autofocus'); }"
    )
    assert moved["told"]
    focused = page.evaluate(ACTIVE)
    assert focused[0] == "move-done", focused
    assert focused[2] == recorded
    assert page.get_by_role("status").filter(has_text=recorded).count() == 1
    page.keyboard.press("Tab")
    assert page.evaluate(WITHIN) == "takeback", page.evaluate(ACTIVE)
    # Opened again by the reader: shown once, no longer there.
    with page.expect_navigation():
        page.reload()
    page.wait_for_load_state()
    page.wait_for_timeout(300)
    assert page.locator("#move-done").count() == 0
