"""The resource market's card: a track per resource, its tokens counted."""

from __future__ import annotations

import pytest
from cardhelpers import render_card, view_for

from games.web.cards.resources import resources_card

pytestmark = pytest.mark.django_db


def test_a_track_per_resource(started_game):
    game, users = started_game(3)
    view = view_for(game, users[0])
    card = resources_card(view)
    assert [r["resource"] for r in card["track"]] == ["coal", "oil", "garbage", "uranium"]
    market = view.state["resource_market"]
    assert [r["count"] for r in card["track"]] == [len(market[r]) for r in market]
    html = render_card("resources", view, card)
    assert html.count('class="track-row"') == 4
