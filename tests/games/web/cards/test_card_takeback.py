"""The take-back card: the mover is offered to take their move back at once; the others are
not; a practice game says where it began."""

from __future__ import annotations

import pytest
from cardhelpers import render_card, view_for

from games.web.cards.takeback import takeback_card
from tests.games.web.webhelpers import play

pytestmark = pytest.mark.django_db


def test_the_mover_may_take_their_move_back_and_the_others_may_not(started_game):
    game, users = started_game(3, options={"takebacks_rated": True})
    first = game.to_act[0]
    play(game, users[first], {"type": "choose_plant", "plant": 6, "bid": 6})
    view = view_for(game, users[first])
    card = takeback_card(view)
    assert card["takeback"] is not None
    assert card["takeback"]["how"] == "now"
    assert card["takeback"]["first"] == 1
    assert card["practice_info"] is None
    assert 'name="how" value="now"' in render_card("takeback", view, card)
    other = next(u for i, u in enumerate(users) if i != first)
    assert takeback_card(view_for(game, other))["takeback"] is None
