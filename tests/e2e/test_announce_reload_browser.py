"""What just happened is read out even when the page is loaded again before it was (issue 38):
static/js/announce.js fills its polite live region 400 ms after the page settles; a tab reloaded
within that time (the reader pressing F5 twice, or live.js following a game that moves fast) used
to have marked the moves as seen already, and they were never read out. The words still to be
read wait in the tab's sessionStorage until the region holds them.

In Chromium: the player's page is open; the other player moves; the page is then loaded twice
with its 400 ms timer held back (as if left at once: deterministic, whatever the machine's
speed), then once more: the region reads every move made since the page was last shown, in the
log's own sentences and order, then "Your turn", once. Then two real reloads in a row."""

from __future__ import annotations

import re

import pytest
from e2ehelpers import users

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-announce-12345"
#: While the tab's sessionStorage says so, the page's 400 ms timer never fires: the page is
#: left before its announcement (an init script, outside the page's Content-Security-Policy).
HOLD = """(() => {
  if (sessionStorage.getItem('test-hold') !== '1') return;
  const real = window.setTimeout.bind(window);
  window.setTimeout = (fn, ms, ...rest) => (ms === 400 ? 0 : real(fn, ms, ...rest));
})();"""
REGION = "#announce"


def _reload_again(page) -> None:
    """F5 once more while the last load is still in flight. Chromium swaps the page's document
    (and its DevTools target) as the new one commits; a reload sent in that instant is refused
    ("Not attached to an active page", seen once in CI): it is sent again, a moment later, as
    the reader's finger would."""
    from playwright.sync_api import Error

    for attempt in range(20):
        try:
            page.reload()
            return
        except Error as exc:
            if "Not attached" not in str(exc) or attempt == 19:
                raise
            page.wait_for_timeout(50)


def _game(people):
    from games import services

    game = services.game_create(creator=people[0], map="germany", max_players=2)
    services.game_join(game_id=game.pk, user=people[1])
    return game


def _others_move(game, people, *, at_least: int = 1) -> int:
    """The heuristic bot moves for seat 1 until seat 0 is awaited (at least ``at_least`` moves,
    seat 0's own moves made by the bot too when needed); the game's seq before them."""
    from games import selectors, services
    from games.models import Game
    from powergrid.bots import HeuristicBot

    bot = HeuristicBot()
    start = Game.objects.get(pk=game.pk).seq
    moved = 0
    for _ in range(200):
        g = Game.objects.get(pk=game.pk)
        if moved >= at_least and 0 in g.to_act:
            return start
        seat = 1 if 1 in g.to_act else g.to_act[0]
        state = selectors.game_engine_state(g)
        services.move_submit(game_id=g.pk, user=people[seat], action=bot.choose(state, seat),
                             expected_seq=g.seq, source="api")  # fmt: skip
        moved += seat == 1
    raise AssertionError("seat 0 was never awaited again")


def _log_since(page, seq: int) -> list[str]:
    """The log's sentences of the moves after ``seq``, oldest first (the log is newest first)."""
    items = page.evaluate(
        "() => [...document.querySelectorAll('.log li[data-seq]')].map(li =>"
        " [parseInt(li.dataset.seq, 10), li.querySelector('.log-text').textContent.trim()])"
    )
    # One move may write several sentences (a pass and the purchase it ends): the log's order,
    # reversed, not sorted.
    return [text for n, text in reversed(items) if n > seq]


def _region_after_settling(page) -> str:
    page.wait_for_timeout(900)
    return page.locator(REGION).text_content() or ""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_reloads_in_a_row_lose_no_announcement(live_server, browser, lang):
    from django.utils import translation

    people = users(f"an{lang}", 2, PASSWORD)
    for u in people:
        u.profile.language = lang
        u.profile.save(update_fields=["language"])
    game = _game(people)
    if 0 in game.to_act:  # seat 0 opens: let it, so that the page shows the other's turn
        _others_move(game, people)
    base = live_server.url
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="ja-JP" if lang == "ja" else "en-GB"
    )
    ctx.add_init_script(HOLD)
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", people[0].username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/$"))
    page.goto(f"{base}/games/{game.pk}/")
    _region_after_settling(page)  # this tab has shown the game now: its moves are not news

    seen = _others_move(game, people, at_least=2)
    page.evaluate("() => sessionStorage.setItem('test-hold', '1')")
    for _reload in range(2):  # F5 twice, each time before the region was filled
        page.reload()
        assert _region_after_settling(page) == ""
    page.evaluate("() => sessionStorage.removeItem('test-hold')")
    page.reload()
    with translation.override(lang):
        your_turn = translation.gettext("Your turn")
    said = _log_since(page, seen)
    assert len(said) >= 2, said
    assert _region_after_settling(page) == " ".join([*said, your_turn])
    assert page.evaluate(f"() => sessionStorage.getItem('pg-pending:{game.pk}')") is None
    # Read out once: the next load has nothing new to say.
    page.reload()
    assert _region_after_settling(page) == ""

    # Two real reloads in a row, as fast as the browser goes: nothing lost either.
    from games import selectors, services
    from games.models import Game
    from powergrid.bots import HeuristicBot

    g = Game.objects.get(pk=game.pk)
    services.move_submit(game_id=g.pk, user=people[0],
                         action=HeuristicBot().choose(selectors.game_engine_state(g), 0),
                         expected_seq=g.seq, source="api")  # fmt: skip
    seen = Game.objects.get(pk=game.pk).seq - 1
    _others_move(game, people)
    page.reload(wait_until="commit")
    _reload_again(page)
    said = _log_since(page, seen)
    heard = _region_after_settling(page)
    assert heard.startswith(" ".join(said)), (heard, said)
