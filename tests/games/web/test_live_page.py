"""The open game page follows the game (static/js/live.js, measured in the browser by
tests/e2e/test_whole_game_walk_browser.py): here what the server gives it. The page names its
game's event stream (not on a history page, nor once the game is over), its tab's title says
when it is the reader's turn, and a seat the server's bot plays shows no deadline ("deadline 0
minutes ago" while the bot moved) but "a bot is thinking"."""

from __future__ import annotations

import re

import pytest
from django.test import Client

import powergrid
from games import selectors, services
from games.models import Game
from games.selectors.seats import game_deadline

pytestmark = pytest.mark.django_db

TITLE = re.compile(r"<title>(.*?)</title>", re.S)


def _title(html: str) -> str:
    m = TITLE.search(html)
    assert m is not None
    return " ".join(m.group(1).split())


def test_the_page_names_its_stream_and_the_title_says_whose_turn(started_game, client_for):
    game, _users = started_game(3)
    awaited = game.to_act[0]
    seats = {s.seat: s.user for s in game.seats.all()}
    mover = seats[awaited]
    other = next(u for s, u in seats.items() if s not in game.to_act)
    html = client_for(mover).get(f"/games/{game.pk}/").content.decode()
    assert f'data-live="/api/v1/stream/?game={game.pk}"' in html
    assert f'data-seq="{game.seq}"' in html
    assert f'data-seat="{awaited}"' in html
    assert _title(html).startswith("\u25b6 Your turn \u00b7 Game #")
    assert "js/live.js" in html
    assert not _title(client_for(other).get(f"/games/{game.pk}/").content.decode()).startswith(
        "\u25b6"
    )
    watcher = Client().get(f"/games/{game.pk}/").content.decode()
    assert 'data-live="' in watcher
    assert 'data-seat=""' in watcher
    # A page of the past does not change: it does not listen.
    services.move_submit(
        game_id=game.pk,
        user=mover,
        action=powergrid.default_action(selectors.game_engine_state(game), awaited),
        expected_seq=game.seq,
        source="web",
    )
    history = client_for(mover).get(f"/games/{game.pk}/history/0/").content.decode()
    assert "data-live=" not in history
    assert "\u25b6" not in _title(history)


def test_in_japanese_the_title_says_it_in_japanese(started_game, client_for):
    game, _users = started_game(3)
    seats = {s.seat: s.user for s in game.seats.all()}
    mover = seats[game.to_act[0]]
    mover.profile.language = "ja"
    mover.profile.save()
    html = client_for(mover).get(f"/games/{game.pk}/").content.decode()
    assert _title(html).startswith("\u25b6 あなたの手番 \u00b7 ")


def test_a_bots_turn_shows_no_deadline_but_a_bot_thinking(make_user, client_for):
    anna = make_user()
    game = services.game_create(creator=anna, map="germany", max_players=3)
    services.game_bot_add(game_id=game.pk, user=anna, kind="heuristic")
    services.game_bot_add(game_id=game.pk, user=anna, kind="random")
    game = Game.objects.get(pk=game.pk)
    if game.status == "open":
        game = services.game_start(game_id=game.pk, user=anna)
    me = game.seats.get(user=anna).seat
    # Until it is only the bots' turn, Anna plays what the heuristic would.
    from powergrid.heuristic import HeuristicBot

    bot = HeuristicBot()
    for _ in range(50):
        game = Game.objects.get(pk=game.pk)
        if me not in game.to_act:
            break
        state = selectors.game_engine_state(game)
        services.move_submit(
            game_id=game.pk,
            user=anna,
            action=bot.choose(state, me),
            expected_seq=game.seq,
            source="web",
        )
    game = Game.objects.get(pk=game.pk)
    assert game.to_act
    assert me not in game.to_act
    assert all(s.bot_controlled for s in game.seats.filter(seat__in=game.to_act))
    assert game.seats.filter(seat__in=game.to_act, deadline__isnull=False).exists()
    html = client_for(anna).get(f"/games/{game.pk}/").content.decode()
    status = html.split('<p class="status">', 1)[1].split("</p>", 1)[0]
    assert "a bot is thinking" in status
    assert "deadline" not in status
    assert " ago" not in status
    # The API says the same: no deadline while only the server's bots are awaited.
    assert game_deadline(game) is None
