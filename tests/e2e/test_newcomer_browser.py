"""What a newcomer sees, in Chromium at 390 px (issue 23): a bid typed for one plant is not kept
when the auction moved on to another before it arrived; in a practice game against two bots,
played through the forms, the create form speaks of practice, the move log's names are links to
the players' pages, and what the game did by itself ("Round 2 begins.") is not "played by a bot".
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from games import selectors, services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-newcomer-12345"
PHONE = {"width": 390, "height": 844}


def _login(browser, base, username):
    page = browser.new_page(viewport=PHONE, locale="en-GB")
    page.set_default_timeout(15_000)
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/$"))
    return page


def _play(game_id, user, action):
    g = selectors.game_get(game_id=game_id)
    services.move_submit(game_id=g.pk, user=user, action=action, expected_seq=g.seq, source="api")


def _asked(game_id, users):
    return users[selectors.game_get(game_id=game_id).to_act[0]]


def test_a_bid_for_a_plant_no_longer_auctioned_is_not_kept(live_server, browser, shots):
    users = [
        get_user_model().objects.create_user(f"stale{n}", f"stale{n}@example.com", PASSWORD)
        for n in range(4)
    ]
    game = services.game_create(creator=users[0], map="germany", max_players=4)
    for u in users[1:]:
        services.game_join(game_id=game.pk, user=u)
    gid = game.pk
    by_seat = {s.seat: s.user for s in selectors.game_seats(selectors.game_get(game_id=gid))}
    seats = [by_seat[i] for i in range(4)]
    state = selectors.game_engine_state(selectors.game_get(game_id=gid))
    plants = sorted(p for p in state.market[:4])
    opener = _asked(gid, seats)
    _play(gid, opener, {"type": "choose_plant", "plant": plants[0], "bid": plants[0]})
    first = _asked(gid, seats)
    _play(gid, first, {"type": "bid", "amount": plants[0] + 1})
    _play(gid, _asked(gid, seats), {"type": "pass_bid"})
    me = _asked(gid, seats)  # asked in the first auction: the page shows its bid box
    page = _login(browser, live_server.url, me.username)
    page.goto(f"{live_server.url}/games/{gid}/")
    box = page.locator("#bid-raise")
    assert box.is_visible()

    # Meanwhile (me by email, the others): the first auction ends, the next one opens.
    _play(gid, me, {"type": "pass_bid"})
    while selectors.game_engine_state(selectors.game_get(game_id=gid)).auction is not None:
        _play(gid, _asked(gid, seats), {"type": "pass_bid"})
    _play(gid, _asked(gid, seats), {"type": "choose_plant", "plant": plants[1], "bid": plants[1]})
    while _asked(gid, seats) != me:
        _play(gid, _asked(gid, seats), {"type": "pass_bid"})

    box.fill("42")
    page.locator('form[data-action="bid"] button[type="submit"]').click()
    page.wait_for_load_state()
    assert page.locator('[data-code="stale_state"]').is_visible()
    page.screenshot(path=str(shots / "23-stale-bid-390.png"), full_page=True)
    assert page.locator("#bid-raise").input_value() != "42"  # the new auction's least bid
    assert page.locator("#bid-raise").input_value() == page.locator("#bid-raise").get_attribute(
        "min"
    )


def test_a_practice_game_through_the_forms_on_a_phone(live_server, browser, shots):
    from games.models import Game
    from games.tasks import game_play_due

    get_user_model().objects.create_user("nora", "nora@example.com", PASSWORD)
    base = live_server.url
    page = _login(browser, base, "nora")
    page.goto(f"{base}/games/new/")
    assert page.get_by_text("Practise against bots").is_visible()
    page.select_option("select[name=map]", "germany")
    page.select_option("select[name=max_players]", "3")
    page.get_by_role("button", name="Create").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    gid = Game.objects.latest("id").pk
    for _ in range(2):
        page.select_option("#bot-kind", "heuristic")
        page.get_by_role("button", name="Add a bot").click()
        page.wait_for_url(re.compile(rf"/games/{gid}/$"))
    me = Game.objects.get(pk=gid).seats.get(user__username="nora").seat

    for _ in range(60):
        for _ in range(50):  # the worker's part: the bots answer
            g = Game.objects.get(pk=gid)
            if not g.to_act or me in g.to_act:
                break
            game_play_due(gid)
        if selectors.game_engine_state(Game.objects.get(pk=gid)).round > 1:
            break
        page.goto(f"{base}/games/{gid}/")
        kinds = page.locator("form[data-action]").evaluate_all(
            "forms => forms.map(f => f.dataset.action)"
        )
        if "choose_plant" in kinds:
            page.locator('form[data-action="choose_plant"] button.primary').first.click()
        elif "pass_bid" in kinds:
            page.locator('form[data-action="pass_bid"] button').first.click()
        else:
            page.locator(f'form[data-action="{kinds[0]}"] button.primary').first.click()
        page.wait_for_load_state()
    page.goto(f"{base}/games/{gid}/")
    page.screenshot(path=str(shots / "23-practice-round2-390.png"), full_page=True)
    assert page.locator(".log-text a.player-link").count() > 0
    round_line = page.locator("li", has_text="Round 2 begins.").first
    assert "played by a bot" not in round_line.inner_text()
    # A name leads to the player's page, with the rating and reliability.
    page.locator(".log-text a.player-link").first.click()
    page.wait_for_url(re.compile(r"/players/"))
