"""The move card: the awaited player gets the plant form with the first plant ticked at its
lowest bid; a refused form comes back as it was sent; a spectator gets no form."""

from __future__ import annotations

import pytest
from cardhelpers import render_card, view_for

from games.web.cards.move import move_card

pytestmark = pytest.mark.django_db


def test_the_awaited_player_gets_the_plant_form(started_game, make_user):
    game, users = started_game(3)
    first = game.to_act[0]
    view = view_for(game, users[first])
    card = move_card(view)
    choose = card["choose"]
    assert [c["checked"] for c in choose].count(True) == 1
    assert choose[0]["checked"]
    assert card["choose_bid"] == choose[0]["min_bid"]
    html = render_card("move", view, card)
    assert f'action="/games/{game.pk}/move/"' in html
    assert 'value="choose_plant"' in html
    # A refused form, sent again: the plant and the bid it chose.
    second = choose[1]
    posted = {"action": ["choose_plant"], "plant": [str(second["id"])], "bid": ["17"]}
    again = move_card(view_for(game, users[first], posted=posted))
    assert [c["id"] for c in again["choose"] if c["checked"]] == [second["id"]]
    assert again["choose_bid"] == "17"
    assert "choose" not in move_card(view_for(game, make_user()))
