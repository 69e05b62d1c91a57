"""The chat's card: a player reads and may write; a history page has no chat."""

from __future__ import annotations

import pytest
from cardhelpers import render_card, view_for

from games.chat import services as chat
from games.web.cards.chat import chat_card
from tests.games.web.webhelpers import play

pytestmark = pytest.mark.django_db


def test_a_player_reads_and_writes_and_a_history_page_has_no_chat(started_game):
    game, users = started_game(3)
    chat.chat_post(game_id=game.pk, user=users[1], text="Good luck <all>")
    view = view_for(game, users[0])
    card = chat_card(view)
    panel = card["chat"]
    assert panel is not None
    assert panel["can_post"]
    assert [m["text"] for m in panel["messages"]] == ["Good luck <all>"]
    assert not panel["messages"][0]["mine"]
    html = render_card("chat", view, card)
    assert "Good luck &lt;all&gt;" in html
    assert "Mute this player" in html
    first = game.to_act[0]
    play(game, users[first], {"type": "choose_plant", "plant": 6, "bid": 6})
    assert chat_card(view_for(game, users[0], history_seq=0))["chat"] is None
