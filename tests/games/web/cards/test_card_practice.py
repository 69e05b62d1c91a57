"""The practice card: a player of a running game may practise from now; a spectator may not."""

from __future__ import annotations

import pytest
from cardhelpers import render_card, view_for

from games.web.cards.practice import practice_card

pytestmark = pytest.mark.django_db


def test_a_player_may_practise_from_now_and_a_spectator_may_not(started_game, make_user):
    game, users = started_game(3)
    view = view_for(game, users[2])
    card = practice_card(view)
    form = card["practice_form"]
    assert form is not None
    assert form["seq"] is None
    assert form["mine"] == 2
    assert f'action="/games/{game.pk}/practice/"' in render_card("practice", view, card)
    assert practice_card(view_for(game, make_user()))["practice_form"] is None
