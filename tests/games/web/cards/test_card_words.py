"""The board in words card: on the game page and the history page, reached from the board's own
link, with a connections form that works without a script."""

from __future__ import annotations

import pytest
from cardhelpers import render_card, view_for

from games.web.cards.words import words_card

pytestmark = pytest.mark.django_db


def test_the_card_lists_every_city_in_play_and_one_citys_connections(started_game):
    game, users = started_game(3)
    view = view_for(game, users[0])
    card = words_card(view)
    cities = [c for r in card["words"]["regions"] for c in r["cities"]]
    assert len(cities) == len(view.state["cities"])
    html = render_card("words", view, card)
    assert 'id="board-words"' in html
    assert 'name="from"' in html
    slug = cities[0]["slug"]
    view = view_for(game, users[0], query=f"from={slug}")
    card = words_card(view)
    assert card["words"]["connections"]["city"] == slug
    html = render_card("words", view, card)
    assert '<details id="board-words" class="board-words" open>' in html
    assert all(n["name"] in html for n in card["words"]["connections"]["neighbours"])


def test_the_game_and_history_pages_carry_it(client, started_game):
    game, users = started_game(2)
    client.force_login(users[0])
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'href="#board-words"' in page
    assert 'id="board-words"' in page
    assert 'aria-describedby="board-words-hint"' in page
    history = client.get(f"/games/{game.pk}/history/0/").content.decode()
    assert 'id="board-words"' in history
