"""Three users play round 1 and the second round's auction through the pages only, in Chromium."""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-e2e-123456"


def _users():
    from django.contrib.auth import get_user_model

    out = []
    for name in ("anna", "bob", "carla"):
        u = get_user_model().objects.create_user(
            username=name, email=f"{name}@example.com", password=PASSWORD
        )
        u.profile.display_name = name.capitalize()
        u.profile.timezone = "Europe/Berlin"
        u.profile.save()
        out.append(u)
    return out


def _login(browser, base, name, *, width=1280, height=900):
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", name)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/$"))
    return page


def _game():
    from games.models import Game

    return Game.objects.latest("id")


def _page_to_move(pages, users):
    g = _game()
    seat = g.to_act[0]
    user = g.seats.get(seat=seat).user
    page = pages[user.username]
    page.goto(f"{pages['base']}/games/{g.pk}/")
    return page, g


def _labels_ok(page) -> list[str]:
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('input:not([type=hidden]), select, textarea'))
          .filter(el => !(el.labels && el.labels.length) && !el.getAttribute('aria-label'))
          .map(el => el.name)"""
    )


def test_three_players_round_one_and_second_auction(live_server, browser, shots):
    users = _users()
    base = live_server.url
    pages = {"base": base}
    for u in users:
        pages[u.username] = _login(browser, base, u.username)
    anna = pages["anna"]
    gid = _create_and_join(pages, shots)
    _round_one_auction(pages, users, shots)
    anna.goto(f"{base}/games/{gid}/")
    log = anna.locator("#log").inner_text()
    assert re.search(r"bought plant \d+ for \d+\.", log), log
    _round_one_resources(pages, users, shots)
    _round_one_build(pages, users, shots)
    _round_one_power(pages, users, shots)
    _round_two_auction(pages, users, shots)
    _phone_spectator_and_history(browser, anna, base, gid, shots)


def _create_and_join(pages, shots) -> int:
    """Anna creates the game; Bob and Carla join; it starts when full: its id."""
    base = pages["base"]
    anna, bob, carla = (pages[n] for n in ("anna", "bob", "carla"))
    anna.goto(f"{base}/games/new/")
    anna.select_option("select[name=map]", "germany")
    anna.select_option("select[name=max_players]", "3")
    anna.fill("input[name=turn_hours]", "24")
    anna.get_by_role("button", name="Create").click()
    anna.wait_for_url(re.compile(r"/games/\d+/$"))
    gid = _game().pk
    anna.screenshot(path=str(shots / "00-lobby.png"), full_page=True)
    for p in (bob, carla):
        p.goto(f"{base}/games/{gid}/")
        p.get_by_role("button", name="Join").click()
        p.wait_for_url(re.compile(rf"/games/{gid}/$"))
    # The last seat filled: the game started by itself (the create form's default).
    assert _game().status == "running"
    anna.goto(f"{base}/games/{gid}/")
    assert anna.get_by_role("button", name="Start the game").count() == 0
    return gid


def _round_one_auction(pages, users, shots) -> None:
    """Round 1's auction through the forms, reached by keyboard, every field labelled."""
    # Round 1 auction: the first auction is contested, then everyone buys at the minimum.
    contested = False
    shot_auction = shot_bid = False
    for _ in range(30):
        if _game().to_act == [] or _state_phase() != "auction":
            break
        page, _g = _page_to_move(pages, users)
        if not shot_auction:
            page.screenshot(path=str(shots / "01-auction.png"), full_page=True)
            # keyboard: Tab from the top reaches the move form
            page.keyboard.press("Tab")
            reached = False
            for _ in range(25):
                page.keyboard.press("Tab")
                inside = page.evaluate(
                    "() => !!document.activeElement.closest('form[data-action]')"
                )
                if inside:
                    reached = True
                    break
            assert reached, "the move form is not reachable by keyboard"
            assert _labels_ok(page) == []
            shot_auction = True
        action = page.locator("form[data-action]").first.get_attribute("data-action")
        if action == "choose_plant":
            page.locator('form[data-action="choose_plant"] input[name="plant"]').first.check()
            page.get_by_role("button", name="Open the auction").click()
        elif action == "bid" and not contested:
            page.fill("#bid-raise", str(int(page.input_value("#bid-raise")) + 1))
            if not shot_bid:
                page.screenshot(path=str(shots / "02-auction-bid.png"), full_page=True)
                shot_bid = True
            page.get_by_role("button", name="Raise").click()
            contested = True
        elif action in ("bid", "pass_bid"):
            page.get_by_role("button", name="Pass (leave this auction)").click()
        else:
            raise AssertionError(f"unexpected form {action}")
        page.wait_for_load_state()
    assert contested
    assert _state_phase() == "resources"


def _round_one_resources(pages, users, shots) -> None:
    """Each player buys one token of a fuel their plant burns."""
    # Resources: each buys one token of a fuel their plant burns (the total updates as they type).
    shot = False
    for _ in range(3):
        page, _g = _page_to_move(pages, users)
        form = page.locator('form[data-action="buy_resources"]')
        enabled = form.locator("input[type=number]:not([disabled])")
        if enabled.count():
            enabled.first.fill("1")
            total = form.locator("[data-total]").inner_text()
            assert int(total) > 0
        if not shot:
            page.screenshot(path=str(shots / "03-resources.png"), full_page=True)
            shot = True
        page.get_by_role("button", name="Buy", exact=True).click()
        page.wait_for_load_state()
    assert _state_phase() == "build"


def _round_one_build(pages, users, shots) -> None:
    """Each player builds a city clicked on the map, after the engine's quote."""
    # Build: click a city on the map; the engine's quote shows 10 and the money left.
    shot = False
    for i in range(3):
        page, _g = _page_to_move(pages, users)
        city = page.locator("svg.board g.buildable").nth(i * 5)
        slug = city.get_attribute("data-city")
        # The disc, not the group's middle: a name drawn beside its city widens the group's box.
        city.locator("circle.disc").click()
        assert page.locator(f"#build-{slug}").is_checked()
        page.wait_for_function(
            "() => document.querySelector('[data-quote] [data-cost]') &&"
            " document.querySelector('[data-quote] [data-cost]').textContent === '10'"
        )
        if not shot:
            page.screenshot(path=str(shots / "04-build.png"), full_page=True)
            shot = True
        page.get_by_role("button", name="Build the selected cities").click()
        page.wait_for_load_state()
        assert slug in _game().moves.last().action["cities"]
    assert _state_phase() == "bureaucracy"


def _round_one_power(pages, users, shots) -> None:
    """Each player powers with the preselected best choice."""
    # Power: the best choice is preselected.
    shot = False
    for _ in range(3):
        page, _g = _page_to_move(pages, users)
        if not shot:
            page.screenshot(path=str(shots / "05-bureaucracy.png"), full_page=True)
            shot = True
        page.get_by_role("button", name="Power", exact=True).click()
        page.wait_for_load_state()
    assert _state_phase() == "auction"


def _round_two_auction(pages, users, shots) -> None:
    """Round 2's auction: the first opener buys at the minimum, the others pass."""
    # Round 2 auction: the first opener buys at the minimum, the others pass.
    shot = False
    for _ in range(30):
        if _state_phase() != "auction":
            break
        page, _g = _page_to_move(pages, users)
        if not shot:
            page.screenshot(path=str(shots / "06-round2-auction.png"), full_page=True)
            shot = True
        forms = page.locator("form[data-action]")
        kinds = [forms.nth(i).get_attribute("data-action") for i in range(forms.count())]
        if "choose_plant" in kinds and _bought_in_round(2) == 0:
            page.get_by_role("button", name="Open the auction").click()
        elif "pass_bid" in kinds:
            page.get_by_role("button", name="Pass (leave this auction)").click()
        elif "pass_auction" in kinds:
            page.get_by_role("button", name="Pass: buy no plant this round").click()
        elif "discard_plant" in kinds:
            page.get_by_role("button", name="Discard").click()
        else:
            page.get_by_role("button", name="Open the auction").click()
        page.wait_for_load_state()
    assert _state_phase() == "resources"


def _phone_spectator_and_history(browser, anna, base, gid, shots) -> None:
    """A phone-sized spectator's page in Japanese and a history page: no move form on either."""
    # A phone-sized screenshot, a spectator-free history page, and Japanese.
    phone = browser.new_context(viewport={"width": 390, "height": 844}, locale="ja-JP")
    pp = phone.new_page()
    pp.goto(f"{base}/games/{gid}/")
    assert pp.locator("html").get_attribute("lang") == "ja"
    pp.screenshot(path=str(shots / "07-phone-spectator-ja.png"), full_page=True)
    assert pp.locator("form[data-action]").count() == 0
    anna.goto(f"{base}/games/{gid}/history/3/")
    anna.screenshot(path=str(shots / "08-history.png"), full_page=True)
    assert anna.locator("form[data-action]").count() == 0
    phone.close()


def _state_phase() -> str:
    from games import selectors

    return selectors.game_engine_state(_game()).phase


def _bought_in_round(r: int) -> int:
    from games import selectors

    state = selectors.game_engine_state(_game())
    return sum(1 for d in state.done if d) if state.round == r else 0
