"""The board on a 390 px wide phone, measured by Chromium: city names are at least 11 CSS px and
houses 8 px across, each seat's houses have a shape of their own that the players' list repeats,
the board scrolls inside its card (the page itself does not scroll sideways), and the zoom button
fits the whole board on the screen and back. Screenshots go to
test-artifacts/screenshots/board-phone-*.png."""

from __future__ import annotations

import pytest
from e2ehelpers import game_played_until, users

from games.models import Game

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

MEASURE = """() => {
  const svg = document.querySelector('main svg.board');
  const ctm = svg.getScreenCTM();
  const names = Array.from(svg.querySelectorAll('text.name')).map(
    t => ctm.a * parseFloat(getComputedStyle(t).fontSize));
  const houses = Array.from(svg.querySelectorAll('.mark[data-seat]')).map(m => {
    const r = m.getBoundingClientRect();
    return {seat: m.dataset.seat, shape: m.dataset.shape, w: r.width, h: r.height};
  });
  const legend = Object.fromEntries(Array.from(document.querySelectorAll('.players .player')).map(
    p => [p.dataset.seat, p.querySelector('.p-head .mark').dataset.shape]));
  const box = document.querySelector('.board-scroll');
  return {names, houses, legend,
          pageWidth: document.documentElement.scrollWidth,
          boxWidth: box.clientWidth, boardWidth: svg.getBoundingClientRect().width,
          scrolls: box.scrollWidth > box.clientWidth};
}"""


def _six_player_game_with_houses() -> Game:
    return game_played_until(
        users("phone", 6, "pw-phone-123"),
        lambda s: s.round >= 2 and all(p.cities for p in s.players),
    )


def test_the_board_is_legible_on_a_phone(live_server, browser, shots):
    game = _six_player_game_with_houses()
    page = browser.new_page(viewport={"width": 390, "height": 844}, locale="en-GB")
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.locator(".board-scroll").first.screenshot(path=str(shots / "board-phone-natural.png"))
    m = page.evaluate(MEASURE)

    assert m["names"]
    assert min(m["names"]) >= 11
    assert len({h["seat"] for h in m["houses"]}) == 6
    assert min(min(h["w"], h["h"]) for h in m["houses"]) >= 8
    shape_of = {h["seat"]: h["shape"] for h in m["houses"]}
    assert all(shape_of[h["seat"]] == h["shape"] for h in m["houses"])  # one shape per seat
    assert len(set(shape_of.values())) == 6  # and no two seats alike
    assert m["legend"] == shape_of  # the players' list is the board's legend
    assert m["scrolls"]
    assert m["pageWidth"] <= 390

    zoom = page.locator(".board-zoom").first
    zoom.click()
    page.locator(".board-scroll").first.screenshot(path=str(shots / "board-phone-fit.png"))
    fit = page.evaluate(MEASURE)
    assert fit["boardWidth"] <= fit["boxWidth"] + 1
    assert not fit["scrolls"]
    assert zoom.inner_text() == "Zoom in to read the names"
    zoom.click()
    assert min(page.evaluate(MEASURE)["names"]) >= 11


TOP_ROW = """() => {
  const box = document.querySelector('.board-scroll').getBoundingClientRect();
  const btn = document.querySelector('.board-zoom').getBoundingClientRect();
  const names = Array.from(document.querySelectorAll('main svg.board text.name'))
    .map(t => t.getBoundingClientRect());
  const top = names.reduce((a, r) => (r.top < a.top ? r : a));
  return {inBox: top.top >= box.top - 1 && top.bottom <= box.bottom + 1,
          belowButton: top.top >= btn.bottom - 1 || btn.height === 0};
}"""


def test_a_laptop_draws_the_board_at_natural_size_with_its_top_row_in_view(live_server, browser):
    """At 1280 x 800 the board is drawn at its natural size (names 11 px, as on a phone: it was
    8.5 px until "Zoom in"), its top row in view below the button, and the page does not scroll
    sideways; the button fits the whole board in view and back. On a tall screen the whole
    board is in view at natural size already, and the button is not offered."""
    game = _six_player_game_with_houses()
    page = browser.new_page(viewport={"width": 1280, "height": 800}, locale="en-GB")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    m = page.evaluate(MEASURE)
    assert min(m["names"]) >= 11
    assert m["pageWidth"] <= 1280
    assert page.evaluate(TOP_ROW) == {"inBox": True, "belowButton": True}
    zoom = page.locator(".board-zoom").first
    assert zoom.inner_text() == "Show the whole board"
    zoom.click()
    fit = page.evaluate(MEASURE)
    assert fit["boardWidth"] <= fit["boxWidth"] + 1
    assert not fit["scrolls"]
    assert zoom.inner_text() == "Zoom in to read the names"
    zoom.click()
    assert min(page.evaluate(MEASURE)["names"]) >= 11
    assert page.evaluate(TOP_ROW) == {"inBox": True, "belowButton": True}

    tall = browser.new_page(viewport={"width": 1600, "height": 1600}, locale="en-GB")
    tall.goto(f"{live_server.url}/games/{game.pk}/")
    assert min(tall.evaluate(MEASURE)["names"]) >= 11
    assert not tall.locator(".board-zoom").first.is_visible()


def test_a_visitor_on_a_phone_opens_the_board_on_its_top_row(live_server, browser):
    game = _six_player_game_with_houses()
    page = browser.new_page(viewport={"width": 390, "height": 844}, locale="en-GB")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.evaluate(TOP_ROW) == {"inBox": True, "belowButton": True}


def test_without_script_a_phone_still_scrolls_the_board_and_offers_no_dead_button(
    live_server, browser
):
    game = _six_player_game_with_houses()
    page = browser.new_page(
        viewport={"width": 390, "height": 844}, locale="en-GB", java_script_enabled=False
    )
    page.goto(f"{live_server.url}/games/{game.pk}/")
    m = page.evaluate(MEASURE)
    assert min(m["names"]) >= 11
    assert m["scrolls"]
    assert not page.locator(".board-zoom").first.is_visible()


SEATS_IN_VIEW = """() => {
  const box = document.querySelector('.board-scroll');
  const r = box.getBoundingClientRect();
  const sums = {};
  box.querySelectorAll('.mark[data-seat]').forEach(m => {
    const b = m.getBoundingClientRect();
    const s = sums[m.dataset.seat] || (sums[m.dataset.seat] = [0, 0, 0]);
    s[0] += b.left + b.width / 2; s[1] += b.top + b.height / 2; s[2]++;
  });
  return Object.fromEntries(Object.entries(sums).map(([seat, [x, y, n]]) => {
    x /= n; y /= n;
    return [seat, x >= r.left && x <= r.right && y >= r.top && y <= r.bottom];
  }));
}"""


def test_a_player_on_a_phone_sees_their_own_cities_first(live_server, browser):
    """Away from their build turn, a player's zoomed board opens on their own cities, not on the
    board's middle (which is where a visitor's opens)."""
    players = users("mine", 6, "pw-mine-123")
    game = game_played_until(
        players,
        lambda s: s.round >= 2 and s.phase == "auction" and all(p.cities for p in s.players),
    )
    page = browser.new_page(viewport={"width": 390, "height": 844}, locale="en-GB")
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    as_visitor = page.evaluate(SEATS_IN_VIEW)
    away = [int(seat) for seat, seen in as_visitor.items() if not seen]
    assert away, "some seat's cities lie outside the middle's view (else this proves nothing)"
    seat = away[0]
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", players[seat].username)
    page.fill("input[name=password]", "pw-mine-123")
    page.locator("main form button[type=submit]").click()
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.locator(".board-scroll").first.get_attribute("data-you") == str(seat)
    assert page.locator("svg.board .buildable").count() == 0
    assert page.evaluate(SEATS_IN_VIEW)[str(seat)]
