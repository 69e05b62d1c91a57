"""axe-core's WCAG 2.2 A/AA rules (``axehelpers.TAGS``) on every page a player meets, at a
phone's width (390 CSS px) and a desktop's (1280), in English and Japanese: no violation.

The pages: signed out (home, log in, sign up), signed in (home, new game, a lobby, the game page
in an auction with its forms, the game page while building with the board in words open and one
city's connections shown, the history page, the round plans, a player's page, the bots' levels,
the profile, API tokens, webhooks), and a finished game's page and result."""

from __future__ import annotations

import re

import pytest
from axehelpers import axe_version, axe_violations
from e2ehelpers import game_played_until, users

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-axe-123456"
WIDTHS = (390, 1280)


def _login(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/$"))


def _pages(base: str, lobby, auction, building, finished) -> list[str]:
    from powergrid.maps import load_map

    gmap = load_map(building.map)
    state_city = next(iter(gmap.cities_in(building.areas)))
    return [
        f"{base}/",
        f"{base}/games/new/",
        f"{base}/games/{lobby.pk}/",
        f"{base}/games/{auction.pk}/",
        f"{base}/games/{building.pk}/?from={state_city}",
        f"{base}/games/{building.pk}/history/3/",
        f"{base}/games/{auction.pk}/plans/",
        f"{base}/games/{finished.pk}/",
        f"{base}/games/{finished.pk}/result/",
        f"{base}/players/axe0/",
        f"{base}/bots/",
        f"{base}/accounts/profile/",
        f"{base}/accounts/tokens/",
        f"{base}/webhooks/",
    ]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_axe_finds_no_violation_on_any_page(live_server, browser, lang):
    import powergrid
    from games import services
    from powergrid.legal import build_costs

    people = users("axe", 3, PASSWORD)
    if lang == "ja":
        people[0].profile.language = "ja"
        people[0].profile.save(update_fields=["language"])
    lobby = services.game_create(creator=people[0], map="germany", max_players=3)
    # The pages of the player whose turn it is (axe0), with their move forms: in the build phase,
    # with a city they can pay for, the board's cities are buttons (a picture holding buttons is
    # what axe found here in the runs where the seat order made axe0 the builder).
    auction = game_played_until(people[:2], lambda s: 0 in powergrid.to_act(s))
    building = game_played_until(
        people[:2],
        lambda s: (
            s.phase == "build"
            and s.round >= 2
            and 0 in powergrid.to_act(s)
            and bool(build_costs(s, 0))
        ),
    )
    finished = game_played_until(
        people[:2], lambda s: s.phase == "finished", map="italy", max_moves=3000
    )
    base = live_server.url
    found: dict[str, list[str]] = {}
    checked = 0
    for width in WIDTHS:
        ctx = browser.new_context(
            viewport={"width": width, "height": 900}, locale="ja-JP" if lang == "ja" else "en-GB"
        )
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        for url in (f"{base}/", f"{base}/accounts/login/", f"{base}/accounts/signup/"):
            page.goto(url)
            found[f"{width} {url} (signed out)"] = axe_violations(page)
            checked += 1
        _login(page, base, "axe0")
        for url in _pages(base, lobby, auction, building, finished):
            page.goto(url)
            if "from=" in url:
                assert page.locator("#board-words").get_attribute("open") is not None
                assert page.locator("svg.board [role=button]").count() > 0
            if url.endswith(f"/games/{auction.pk}/"):
                assert page.locator("form.move-form").count() > 0
            found[f"{width} {url}"] = axe_violations(page)
            checked += 1
        assert page.locator("html").get_attribute("lang") == lang
        version = axe_version(page)
        # The audit can fail: a picture without a text alternative is found.
        page.evaluate("() => document.body.append(Object.assign(new Image(), {src: '/x.png'}))")
        assert any(v.startswith("image-alt") for v in axe_violations(page))
    bad = {k: v for k, v in found.items() if v}
    print(f"axe {version}, {lang}: {checked} pages checked, violations per page:")
    for k, v in found.items():
        print(f"  {len(v)}  {k}")
    assert bad == {}, "\n".join(f"{k}:\n  " + "\n  ".join(v) for k, v in bad.items())
