"""The board's card: the map drawn on the server and the game's thresholds."""

from __future__ import annotations

import pytest
from cardhelpers import render_card, view_for

from games.web.cards.board import board_card

pytestmark = pytest.mark.django_db


def test_the_board_is_drawn_with_its_thresholds(started_game):
    game, users = started_game(3)
    view = view_for(game, users[0])
    card = board_card(view)
    assert card["board"].lstrip().startswith("<svg")
    assert card["thresholds"]["end"] == 17
    html = render_card("board", view, card)
    assert "<svg" in html
    assert "17" in html
