"""The move log's replay cache cannot hand one game's state to another game that got the same
id (SQLite reuses the ids of deleted rows; so does a test database): it is keyed by the seed too."""

from __future__ import annotations

import pytest
from apihelpers import play_default

from games.models import Game
from games.selectors import history

pytestmark = pytest.mark.django_db


def test_a_new_game_with_an_old_id_is_replayed_afresh(new_game):
    gid, ps = new_game(players=3)
    play_default(gid, ps)
    game = Game.objects.get(pk=gid)
    list(history.game_public_timeline(game))  # cached after move 1
    assert (gid, game.seed) in history._timeline_cache
    # Another game under the same id has another seed: nothing of the first one is found for it.
    assert (gid, game.seed + 1) not in history._timeline_cache
    assert not any(key == gid for key in history._timeline_cache)


def test_the_move_log_of_a_new_game_with_an_old_id_is_its_own(new_game):
    """The readable log is cached per game too: under a reused id it must be the new game's."""
    from games import log

    gid, ps = new_game(players=3)
    play_default(gid, ps)
    game = Game.objects.get(pk=gid)
    first = log.entries(game)
    assert first
    # Another game under the same id (a deleted one's), as far along, with moves of its own:
    # here none are stored, so its log is empty, and the first game's must not stand in for it.
    Game.objects.filter(pk=gid).update(seed=game.seed + 1)
    game.refresh_from_db()
    game.moves.all().delete()
    assert log.entries(game) == []
