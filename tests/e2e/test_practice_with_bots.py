"""Practice against the bots, in Chromium: Anna creates a game, fills two seats with bots (it
starts by itself), plays round 1 through the pages while the bots answer, writes in the chat, and
once the game is over reads its result page with the score table and the charts.

The bots' moves are made by the worker's task (``game_play_due``), called here in the test's
process where the worker would run: tests/integration/test_bot_seats_live.py runs them through a
real Celery worker.
"""

from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-e2e-123456"


def _game():
    from games.models import Game

    return Game.objects.latest("id")


def _bots_play(gid: int, human_seat: int) -> None:
    """What the worker does when a bot's turn comes: play every due bot seat."""
    from games.tasks import game_play_due

    for _ in range(50):
        g = _game()
        if g.status == "finished" or not g.to_act or human_seat in g.to_act:
            return
        game_play_due(gid)


def _round_and_phase() -> tuple[int, str]:
    import powergrid

    state = powergrid.from_json(_game().state_json)
    return state.round, str(state.phase)


def test_practice_against_two_bots(live_server, browser, shots):
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user(
        username="anna", email="anna@example.com", password=PASSWORD
    )
    base = live_server.url
    page = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB").new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", "anna")
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/$"))

    # A 3-player game with two bot seats: full, so it starts by itself.
    page.goto(f"{base}/games/new/")
    page.select_option("select[name=map]", "germany")
    page.select_option("select[name=max_players]", "3")
    page.get_by_role("button", name="Create").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    gid = _game().pk
    for kind in ("heuristic", "random"):
        page.select_option("#bot-kind", kind)
        page.get_by_role("button", name="Add a bot").click()
        page.wait_for_url(re.compile(rf"/games/{gid}/$"))
    game = _game()
    assert game.status == "running"
    me = game.seats.get(user__username="anna").seat
    bots = game.seats.exclude(seat=me)
    assert {b.user.profile.bot_kind for b in bots} == {"heuristic", "random"}
    page.screenshot(path=str(shots / "10-practice-start.png"), full_page=True)

    # Round 1 through the page; the bots answer between Anna's moves.
    moves_by_anna = 0
    for _ in range(40):
        _bots_play(gid, me)
        rnd, phase = _round_and_phase()
        if rnd > 1:
            break
        page.goto(f"{base}/games/{gid}/")
        kinds = page.locator("form[data-action]").evaluate_all(
            "forms => forms.map(f => f.dataset.action)"
        )
        if "choose_plant" in kinds:
            page.locator('form[data-action="choose_plant"] input[name="plant"]').first.check()
            page.get_by_role("button", name="Open the auction").click()
        elif "pass_bid" in kinds:
            page.get_by_role("button", name="Pass (leave this auction)").click()
        elif "buy_resources" in kinds:
            page.get_by_role("button", name="Buy", exact=True).click()
        elif "build" in kinds:
            # "Build nothing" alone when no city can be paid for.
            page.locator('form[data-action="build"] button.primary').click()
        elif "power" in kinds:
            page.get_by_role("button", name="Power", exact=True).click()
        else:
            raise AssertionError(f"phase {phase}: no form for Anna ({kinds})")
        page.wait_for_load_state()
        moves_by_anna += 1
    assert _round_and_phase()[0] == 2
    assert moves_by_anna >= 4  # an auction, resources, building, power at least
    sources = set(game.moves.exclude(seat=me).values_list("source", flat=True))
    assert sources == {"bot"}
    assert set(game.moves.filter(seat=me).values_list("source", flat=True)) == {"web"}

    # The chat, on the game page, without JavaScript's help.
    page.goto(f"{base}/games/{gid}/")
    page.fill("#chat-text", "Good game, bots <b>!</b>")
    page.get_by_role("button", name="Send").click()
    page.wait_for_load_state()
    assert "Good game, bots <b>!</b>" in page.locator("#chat").inner_text()
    page.screenshot(path=str(shots / "11-practice-chat.png"), full_page=True)

    # Play on to the end (Anna's seat by the engine's heuristic, as if she had), then the result.
    import powergrid
    from games.services.moves import move_submit
    from powergrid.heuristic import HeuristicBot

    anna = get_user_model().objects.get(username="anna")
    bot = HeuristicBot()
    for _ in range(3000):
        _bots_play(gid, me)
        g = _game()
        if g.status == "finished":
            break
        state = powergrid.from_json(g.state_json)
        move_submit(game_id=gid, user=anna, action=bot.choose(state, me), expected_seq=g.seq,
                    source="web")  # fmt: skip
    assert _game().status == "finished"
    page.goto(f"{base}/games/{gid}/")
    page.get_by_role("link", name="The result, with charts of the game").click()
    page.wait_for_url(re.compile(rf"/games/{gid}/result/$"))
    assert page.locator("table.result-table tbody tr").count() == 3
    assert page.locator("svg.chart").count() == 3
    assert page.locator("svg.chart polyline").count() == 9
    page.screenshot(path=str(shots / "12-practice-result.png"), full_page=True)
