"""The round sheet card: a seated player of a running game sees their sheet as a form (filled in
with the suggestion, posting to the sheet's page); a spectator, and a past board, show none."""

from __future__ import annotations

import pytest
from cardhelpers import render_card, view_for

from games.web.cards.sheet import sheet_card

pytestmark = pytest.mark.django_db


def test_a_player_sees_their_sheet_and_a_spectator_none(started_game, make_user):
    game, users = started_game(3)
    view = view_for(game, users[1])
    card = sheet_card(view)
    form = card["sheet_form"]
    assert form is not None
    assert form["sheet"]["round"] == 1
    assert form["sheet"]["open"]
    html = render_card("sheet", view, card)
    assert f'action="/games/{game.pk}/sheet/"' in html
    assert 'name="open_plant_0"' in html
    assert sheet_card(view_for(game, make_user()))["sheet_form"] is None
