"""The log's card: each move in a sentence, its mover's name a link, the newest first; the
sentence of the move a take-back would undo written into the offer."""

from __future__ import annotations

import pytest
from cardhelpers import render_card, view_for

from games.web.cards.log import log_card
from games.web.cards.takeback import takeback_card
from tests.games.web.webhelpers import play

pytestmark = pytest.mark.django_db


def test_the_moves_in_sentences_newest_first(started_game):
    game, users = started_game(3, options={"takebacks_rated": True})
    first = game.to_act[0]
    play(game, users[first], {"type": "choose_plant", "plant": 6, "bid": 6})
    view = view_for(game, users[first])
    offer = takeback_card(view)["takeback"]
    card = log_card(view, offer)
    assert [e["seq"] for e in card["log"]][:1] == [1]
    assert card["log"][0]["takeback_here"]
    assert "put plant 6 up for auction" in card["log"][0]["text"]
    assert f'href="/players/{users[first].username}/"' in card["log"][0]["text"]
    assert offer is not None
    assert "plant 6" in offer.get("text", "")
    assert not card["log_more"]
    html = render_card("log", view, {**card, "takeback": offer})
    assert f'href="/games/{game.pk}/history/1/"' in html
