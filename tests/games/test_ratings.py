"""Ratings and reliability: a finished game changes its players' ratings once, from the final
ranking; games with bots are not rated; the recompute command gives the same ratings; the
player page shows rating and reliability; the lobby shows ratings."""

from __future__ import annotations

import pytest
from apihelpers import play_to_end

pytestmark = pytest.mark.django_db


def _finish(gid: int, ps) -> None:
    play_to_end(gid, ps)


def test_a_finished_game_rates_its_players_once_by_rank(new_game):
    import powergrid
    from games import ratings
    from games.models import Game, RatedGame, Rating, Seat

    gid, ps = new_game(players=3)
    _finish(gid, ps)
    game = Game.objects.get(pk=gid)
    rated = RatedGame.objects.get(game=game)
    assert rated.rated
    result = powergrid.from_json(game.state_json).result
    by_rank = sorted(Seat.objects.filter(game=game), key=lambda s: result[s.seat][3])
    mus = [Rating.objects.get(user_id=s.user_id).mu for s in by_rank]
    assert mus[0] > 25 > mus[-1]  # the winner up, the last down (all started at 25)
    assert all(r.games == 1 for r in Rating.objects.all())
    # Rating it again changes nothing.
    seats = list(Seat.objects.filter(game=game).select_related("user__profile"))
    assert ratings.game_rate(game, seats) is None
    assert [Rating.objects.get(user_id=s.user_id).mu for s in by_rank] == mus


def test_recompute_equals_incremental(new_game):
    from games import ratings
    from games.models import Rating

    for _ in range(2):
        gid, ps = new_game(players=3)
        _finish(gid, ps)
    before = {r.user_id: (round(r.mu, 9), round(r.sigma, 9), r.games) for r in Rating.objects.all()}
    assert ratings.ratings_recompute() == 2
    after = {r.user_id: (round(r.mu, 9), round(r.sigma, 9), r.games) for r in Rating.objects.all()}
    assert after == before


def test_a_game_with_a_bot_is_not_rated(make_player):
    from games import services
    from games.models import Game, RatedGame, Rating
    from games.ratings import game_rate

    p = make_player()
    game = services.game_create(creator=p.user, map="germany", max_players=2)
    services.game_bot_add(game_id=game.pk, user=p.user)
    game = Game.objects.get(pk=game.pk)
    game.status = Game.Status.FINISHED  # as if it ended
    made = game_rate(game, list(game.seats.select_related("user__profile")))
    assert made is not None
    assert not made.rated
    assert RatedGame.objects.get(game=game).rated is False
    assert not Rating.objects.exists()


def test_reliability_counts_timeouts(new_game):
    from apihelpers import seat_players

    from games.models import Game, Seat
    from games.players import reliability
    from games.services.moves import move_apply_system

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    import powergrid

    g = Game.objects.get(pk=gid)
    seat = g.to_act[0]
    action = powergrid.default_action(powergrid.from_json(g.state_json), seat)
    move_apply_system(game=gid, seat=seat, action=action, source="timeout")
    rel = reliability(seats[seat].user)
    assert (rel.turns, rel.timed_out, rel.on_time) == (1, 1, 0)
    assert rel.percent == 0
    other = next(s for s in seats if s != seat)
    assert reliability(seats[other].user).turns == 0
    assert Seat.objects.filter(game_id=gid).count() == 3


def test_the_player_page_and_the_lobby_show_ratings(new_game, make_player, client):
    from games import services

    gid, ps = new_game(players=3)
    _finish(gid, ps)
    user = ps[0].user
    page = client.get(f"/players/{user.username}/").content.decode()
    assert "Rating" in page
    assert "Reliability" in page
    assert client.get("/players/nobody-here/").status_code == 404
    services.game_create(creator=user, map="germany", max_players=3)
    home = client.get("/").content.decode()
    assert f"/players/{user.username}/" in home
    assert f"({user.rating.display})" in home
