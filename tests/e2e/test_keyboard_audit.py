"""Every control reachable and understandable (issue 38, part 3), in Chromium, on every page a
player meets: the lobby, the game page with its move forms (an auction, the round sheet card, the
chat, the practice card), the build phase with the board's cities as buttons and the board in
words open, the cost calculator open, the take-back bar, a practice game, the history, the plans,
the settings (profile), the home page.

On each page, with the keyboard alone (``keyboardhelpers.tab_walk``): every control is reached
by Tab in the page's own order, none twice and none skipped (no trap, no positive tabindex); each
has an accessible name; its focus is visible (an outline or a shadow on ``:focus-visible``); it is
at least 24 x 24 CSS px (WCAG 2.2, 2.5.8; links inside a sentence excepted). At 320 CSS px the
page reflows without scrolling sideways (the board and wide tables scroll in their own boxes);
with ``prefers-reduced-motion: reduce`` nothing is animated or transitions. And no information by
colour alone: each player's colour has a shape on the board and a name beside it in the players'
list, the lobby and the board in words.
"""

from __future__ import annotations

import re

import pytest
from e2ehelpers import game_played_until, users
from keyboardhelpers import INSTALL, MOTION, REFLOW, tab_walk

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-keyboard-12345"


def _login(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/$"))


def _takeback_game(people):
    """A game where people[0] has just moved and may take it back alone (the take-back bar)."""
    from games import selectors, services
    from games.models import Game
    from powergrid.bots import HeuristicBot

    game = services.game_create(
        creator=people[0], map="germany", max_players=2, options={"takebacks_rated": True}
    )
    services.game_join(game_id=game.pk, user=people[1])
    bot = HeuristicBot()
    for _move in range(40):
        g = Game.objects.get(pk=game.pk)
        state = selectors.game_engine_state(g)
        seat = g.to_act[0]
        services.move_submit(game_id=g.pk, user=people[seat], action=bot.choose(state, seat),
                             expected_seq=g.seq, source="api")  # fmt: skip
        if seat == 0:
            return game
    raise AssertionError("people[0] never moved")


def _pages(base: str, people) -> dict[str, str]:
    import powergrid
    from games import services
    from games.chat.services import chat_post
    from games.services.practice import practice_create
    from powergrid.legal import build_costs

    me = lambda s: 0 in powergrid.to_act(s)  # noqa: E731
    # The build phase of round 2 on, people[0] to build a city it can pay for (the board's
    # cities are then buttons).
    can_build = lambda s: s.round >= 2 and bool(build_costs(s, 0))  # noqa: E731
    lobby = services.game_create(creator=people[0], map="germany", max_players=3)
    services.game_join(game_id=lobby.pk, user=people[1])
    auction = game_played_until(people[:2], me)
    chat_post(game_id=auction.pk, user=people[1], text="Good luck!")
    chat_post(game_id=auction.pk, user=people[0], text="Thanks, you too.")
    building = game_played_until(
        people[:2], lambda s: s.phase == "build" and me(s) and can_build(s)
    )
    takeback = _takeback_game([people[0], people[2]])
    practice = practice_create(user=people[0], game_id=auction.pk)
    from powergrid.maps import load_map

    city = next(iter(load_map(building.map).cities_in(building.areas)))
    return {
        "home": f"{base}/",
        "lobby": f"{base}/games/{lobby.pk}/",
        "auction, sheet, chat, practice card": f"{base}/games/{auction.pk}/",
        "calculator": f"{base}/games/{auction.pk}/?calc=1&calc_coal=2",
        "build, board in words": f"{base}/games/{building.pk}/?from={city}",
        "take-back": f"{base}/games/{takeback.pk}/",
        "practice game": f"{base}/games/{practice.pk}/",
        "history": f"{base}/games/{building.pk}/history/3/",
        "plans": f"{base}/games/{auction.pk}/plans/",
        "settings": f"{base}/accounts/profile/",
    }


#: What each page must show, so the walk is known to have seen it.
MUST_SHOW = {
    "lobby": "form input#invite-username",
    "auction, sheet, chat, practice card": "form.move-form, #sheet form, #chat textarea, #practice",
    "calculator": "details#calc[open] input#calc-coal",
    "build, board in words": "svg.board [role=button], details#board-words[open] select",
    "take-back": "#takeback button.takeback",
    "practice game": ".practice-note",
    "history": "nav a.button",
    "plans": "form select#proxy-plant",
}


def test_every_control_is_reachable_named_visible_and_large_enough(live_server, browser):
    people = users("kb", 3, PASSWORD)
    pages = _pages(live_server.url, people)
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = ctx.new_page()
    page.set_default_timeout(15_000)
    _login(page, live_server.url, "kb0")
    found: dict[str, list[str]] = {}
    for label, url in pages.items():
        walk = tab_walk(page, url)
        for selector in MUST_SHOW.get(label, "").split(", "):
            if selector:
                assert page.locator(selector).count() > 0, f"{label}: no {selector}"
        assert len(walk.reached) >= 5, (label, walk.reached)
        print(f"{label}: {len(walk.expected)} stops, {len(walk.reached)} reached by Tab")
        if walk.problems:
            found[f"{label} ({url})"] = walk.problems
    assert found == {}, "\n".join(
        f"{k}:\n  " + "\n  ".join(dict.fromkeys(v)) for k, v in found.items()
    )
    # The walk can fail: a button without a name, one without a focus ring, a tiny one, a
    # positive tabindex, each put at the top of the page, are found.
    bad = tab_walk(page, pages["plans"], prepare=FLAWED)
    for flaw in ("no accessible name", "focus not visible", "target 10x10", "positive tabindex",
                 "focus order is not the page's order"):  # fmt: skip
        assert any(p.startswith(flaw) for p in bad.problems), (flaw, bad.problems)


#: Four flawed controls put at the top of a page (through the DOM: the page's policy forbids
#: inline markup and style attributes, not scripts driving the CSS object model).
FLAWED = """() => { const main = document.querySelector('main');
  const add = () => main.insertBefore(document.createElement('button'), main.firstChild);
  add();
  const ring = add(); ring.textContent = 'No ring'; ring.style.outline = 'none';
  const tiny = add(); tiny.textContent = 'T'; tiny.style.cssText = 'width:10px;height:10px;'
    + 'min-height:0;padding:0;font-size:4px;border:0;outline:none';
  const jump = add(); jump.textContent = 'Jumps the queue'; jump.tabIndex = 3; }"""


def test_pages_reflow_at_320_px_and_stand_still_for_reduced_motion(live_server, browser):
    people = users("kb", 3, PASSWORD)
    pages = _pages(live_server.url, people)
    found: dict[str, object] = {}
    for motion in ("reduce", "no-preference"):
        ctx = browser.new_context(
            viewport={"width": 320, "height": 800}, locale="en-GB", reduced_motion=motion
        )
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        _login(page, live_server.url, "kb0")
        for label, url in pages.items():
            page.goto(url)
            page.evaluate(INSTALL)
            if motion == "reduce":
                wide = page.evaluate(REFLOW)
                if wide["width"] > wide["window"]:
                    found[f"reflow at 320 px: {label}"] = wide
                moving = page.evaluate(MOTION)
                if moving:
                    found[f"moves under reduced motion: {label}"] = moving
        # The check can fail: a transition set on an element moves, unless motion is reduced.
        page.evaluate(
            "() => { const e = document.querySelector('main'); e.style.transition = 'opacity 1s';"
            " e.style.animation = 'none 2s'; }"
        )
        still = page.evaluate(MOTION) == []
        assert still is (motion == "reduce"), motion
    assert found == {}, found


def test_player_colours_always_have_a_name_or_a_shape(live_server, browser):
    """No information by colour alone: on the board each seat's houses have a shape of their own,
    the same shape beside the player's name in the players' list; the lobby names each colour;
    the board in words gives each owner's colour and shape in words."""
    import powergrid

    people = users("kb", 3, PASSWORD)
    base = live_server.url
    from games import services

    lobby = services.game_create(creator=people[0], map="germany", max_players=3)
    services.game_join(game_id=lobby.pk, user=people[1])
    building = game_played_until(
        people[:2], lambda s: s.phase == "build" and s.round >= 2 and 0 in powergrid.to_act(s)
    )
    page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page.set_default_timeout(15_000)
    _login(page, base, "kb0")
    page.goto(f"{base}/games/{building.pk}/#board-words")
    houses = page.evaluate(
        "() => [...document.querySelectorAll('svg.board .mark[data-seat]')].map(m =>"
        " [m.dataset.seat, m.dataset.shape, m.getAttribute('class')])"
    )
    assert houses, "no house on the board in round 2"
    shape_of = {seat: shape for seat, shape, _c in houses}
    assert all(shape_of[seat] == shape for seat, shape, _c in houses)
    assert len(set(shape_of.values())) == len(shape_of), shape_of
    players = page.evaluate(
        "() => [...document.querySelectorAll('.players .player')].map(p => {"
        " const m = p.querySelector('svg.marker'); const path = m && m.querySelector('.mark');"
        " return [p.dataset.seat, path && path.dataset.shape, m && m.getAttribute('aria-label'),"
        " (p.querySelector('.p-head strong') || {}).textContent]; })"
    )
    assert len(players) == 2
    for seat, shape, colour, name in players:
        assert shape, (seat, colour, name)
        assert colour, (seat, shape, name)
        assert name.strip(), (seat, shape, colour)
        if seat in shape_of:
            assert shape_of[seat] == shape, (seat, shape_of, players)
    owners = page.locator("#board-words .words-cities li").all_inner_texts()
    owned = [t for t in owners if "nobody" not in t]
    assert owned, owners
    for t in owned:
        assert re.search(r"\w+ \([^,()]+, [^,()]+\)", t), t  # "Name (colour, shape)"
    page.goto(f"{base}/games/{lobby.pk}/")
    seats = page.locator("ol.seats > li").all()
    assert len(seats) == 2
    for li in seats:
        assert li.locator("svg.marker").count() == 1
        assert re.search(r"\((red|blue|green|yellow|purple|black)", li.inner_text()), (
            li.inner_text()
        )
