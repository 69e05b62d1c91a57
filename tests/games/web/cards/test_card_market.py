"""The market's card: four plants in the current and four in the future market; the auction
under way, with the bidder named."""

from __future__ import annotations

import pytest
from cardhelpers import render_card, view_for

from games.web.cards.market import market_card
from tests.games.web.webhelpers import play

pytestmark = pytest.mark.django_db


def test_the_markets_and_the_auction(started_game):
    game, users = started_game(3)
    first = game.to_act[0]
    view = view_for(game, users[first])
    card = market_card(view)
    assert [c["number"] for c in card["current"]] == [3, 4, 5, 6]
    assert [c["number"] for c in card["future"]] == [7, 8, 9, 10]
    assert card["auction"] is None
    assert card["sealed_last"] is None
    play(game, users[first], {"type": "choose_plant", "plant": 6, "bid": 6})
    view = view_for(game, users[first])
    card = market_card(view)
    auction = card["auction"]
    assert auction is not None
    assert auction["plant"]["number"] == 6
    assert auction["high_bid"] == 6
    assert auction["high_bidder_person"] == view.person(first)
    assert "Auction for plant 6" in render_card("market", view, card)
