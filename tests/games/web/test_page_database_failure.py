"""A person whose move meets a lost database connection sees a plain page, not a server error."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import OperationalError
from webhelpers import actor, fresh, post_move

from games.models import Move

pytestmark = pytest.mark.django_db


def test_the_move_form_answers_503_and_applies_nothing(started_game, client_for):
    game, users = started_game(3)
    c = client_for(actor(game, users))
    with mock.patch("games.services.moves.rows.insert", side_effect=OperationalError("gone")):
        r = post_move(c, game, {"action": "choose_plant", "plant": "3", "bid": "3"})
    assert r.status_code == 503
    assert r["Retry-After"] == "5"
    assert "nothing was changed" in r.content.decode()
    assert fresh(game).seq == 0
    assert (
        post_move(c, game, {"action": "choose_plant", "plant": "3", "bid": "3"}).status_code == 302
    )
    assert Move.objects.filter(game=game).count() == 1
