"""The fair shuffle's card: the seed's fingerprint while the game runs, never the seed."""

from __future__ import annotations

import pytest
from cardhelpers import render_card, view_for

from games.web.cards.shuffle import shuffle_card

pytestmark = pytest.mark.django_db


def test_the_fingerprint_and_not_the_seed_while_the_game_runs(started_game):
    game, users = started_game(3)
    view = view_for(game, users[0])
    card = shuffle_card(view)
    assert card["seed_commitment"]
    assert len(card["seed_commitment"]) == 64
    assert card["seed_revealed"] is None
    html = render_card("shuffle", view, card)
    assert card["seed_commitment"] in html
    assert f"seed is shown: {view.game.seed}" not in html
