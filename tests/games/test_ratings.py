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
    from games.ratings import game_rate, level_ratings

    p = make_player()
    game = services.game_create(creator=p.user, map="germany", max_players=2)
    services.game_bot_add(game_id=game.pk, user=p.user)
    game = Game.objects.get(pk=game.pk)
    game.status = Game.Status.FINISHED  # as if it ended
    made = game_rate(game, list(game.seats.select_related("user__profile")))
    assert made is not None
    assert not made.rated
    assert RatedGame.objects.get(game=game).rated is False
    # The person's rating does not move; the bot's level is rated as a player of its own.
    assert not Rating.objects.filter(user=p.user).exists()
    assert list(level_ratings()) == ["heuristic"]
    assert level_ratings()["heuristic"].games == 1


def test_each_level_is_rated_as_one_player_and_people_are_not(make_player):
    """Two games against bots of two levels: one rating identity per level, one game each, the
    people unrated; a recompute gives the same figures."""
    from games import services
    from games.models import Game, Rating
    from games.ratings import game_rate, level_ratings, ratings_recompute

    for level in ("expert", "beginner"):
        p = make_player()
        game = services.game_create(creator=p.user, map="germany", max_players=3)
        services.game_bot_add(game_id=game.pk, user=p.user, kind=level)
        services.game_bot_add(game_id=game.pk, user=p.user, kind=level)
        game = Game.objects.get(pk=game.pk)
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
        game.status = Game.Status.FINISHED
        game_rate(game, list(game.seats.select_related("user__profile")))
        assert not Rating.objects.filter(user=p.user).exists()
    got = {k: (r.mu, r.sigma, r.games) for k, r in level_ratings().items()}
    assert set(got) == {"expert", "beginner"}
    assert all(g == 1 for _, _, g in got.values())
    ratings_recompute()
    assert {k: (r.mu, r.sigma, r.games) for k, r in level_ratings().items()} == got


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


def test_a_retried_finishing_move_rates_the_game_once(new_game):
    """The move that ends the game sent again (a client that lost the answer): replayed with the
    same Idempotency-Key, refused (the game is over) without one; the ratings moved once."""
    from apihelpers import bot_action, seat_players

    from games.models import Game, RatedGame, Rating
    from powergrid.heuristic import HeuristicBot

    gid, ps = new_game(players=2)
    seats = seat_players(gid, ps)
    bot = HeuristicBot()
    url = f"/api/v1/games/{gid}/moves/"
    last = None
    for _ in range(3000):
        g = Game.objects.get(pk=gid)
        if g.status == "finished":
            break
        seat = g.to_act[0]
        last = (seat, {"action": bot_action(gid, seat, bot), "expected_seq": g.seq}, f"k{g.seq}")
        r = seats[seat].post(url, last[1], HTTP_IDEMPOTENCY_KEY=last[2])
        assert r.status_code == 201, r.content
    assert last is not None
    assert Game.objects.get(pk=gid).status == "finished"
    seat, body, key = last
    before = {r.user_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
    assert len(before) == 2
    assert all(g == 1 for _mu, _s, g in before.values())
    assert seats[seat].post(url, body, HTTP_IDEMPOTENCY_KEY=key).status_code == 201  # replayed
    retry = seats[seat].post(url, body)  # without the key: refused, the game is over
    assert retry.json()["error"]["code"] == "game_over"
    assert RatedGame.objects.filter(game_id=gid).count() == 1
    assert {r.user_id: (r.mu, r.sigma, r.games) for r in Rating.objects.all()} == before


def test_a_game_where_the_bot_moved_for_a_player_who_came_back_stays_rated(new_game):
    """The bot's move for a seat does not unrate the game (games.rating_rule): its player came
    back and played on, so everyone is rated by their places."""
    import powergrid
    from games.models import Game, RatedGame, Rating
    from games.services.moves import move_apply_system

    gid, ps = new_game(players=2)
    g = Game.objects.get(pk=gid)
    seat = g.to_act[0]
    action = powergrid.default_action(powergrid.from_json(g.state_json), seat)
    move_apply_system(game=gid, seat=seat, action=action, source="bot")
    _finish(gid, ps)
    assert RatedGame.objects.get(game_id=gid).rated is True
    assert Rating.objects.count() == 2


def test_reliability_counts_games_left_to_the_bot_and_the_median_reply(
    new_game, time_machine, client
):
    import datetime as dt

    from apihelpers import play_default, seat_players

    from games.models import Seat
    from games.players import reliability

    start = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)
    time_machine.move_to(start, tick=False)
    gid, ps = new_game(players=2)
    for i in range(1, 7):  # every move 5 hours after the one before
        time_machine.move_to(start + dt.timedelta(hours=5 * i), tick=False)
        play_default(gid, ps)
    seats = seat_players(gid, ps)
    Seat.objects.filter(game_id=gid, seat=0).update(bot_controlled=True)
    left = reliability(seats[0].user)
    assert left.abandoned == 1
    assert left.median_reply_hours == 5.0
    assert reliability(seats[1].user).abandoned == 0
    page = client.get(f"/players/{seats[0].user.username}/").content.decode()
    assert "1 game left to the bot." in page
    assert "Median reply: 5 hours." in page


def test_a_person_named_like_a_level_identity_is_never_rated_as_the_level(make_player):
    from games.ratings import level_identity

    person = make_player(username="bot-level-expert")
    identity = level_identity("expert")
    assert identity.pk != person.user.pk
    assert identity.profile.bot_kind == "expert"
    assert level_identity("expert").pk == identity.pk
