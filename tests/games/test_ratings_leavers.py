"""Fair ratings when players leave (games.rating_rule, docs/RATINGS.md): a game stays rated; the
leaver is ranked last whatever the bot then did; the others are rated among themselves; a
substitute is rated over the share of the game and not under it; only the first of a player's
simultaneous timeouts counts; ``recompute_ratings`` gives the same figures."""

from __future__ import annotations

from datetime import timedelta

import pytest
from apihelpers import bot_action, seat_players

pytestmark = pytest.mark.django_db


def _play_out(gid: int, seats) -> None:
    """The players move (the heuristic bot's choice, through the API); a seat the server's bot
    plays gets its move as the sweeper makes it."""
    from games.models import Game, Seat
    from games.services.moves import move_apply_system
    from powergrid.heuristic import HeuristicBot

    bot = HeuristicBot()
    for _ in range(4000):
        g = Game.objects.get(pk=gid)
        if g.status == "finished":
            return
        seat_no = g.to_act[0]
        seat = Seat.objects.get(game_id=gid, seat=seat_no)
        action = bot_action(gid, seat_no, bot)
        if seat.bot_controlled:
            move_apply_system(game=gid, seat=seat_no, action=action, source="bot")
            continue
        player = next(p for p in seats if p.user.pk == seat.user_id)
        r = player.post(f"/api/v1/games/{gid}/moves/", {"action": action, "expected_seq": g.seq})
        assert r.status_code == 201, r.content
    raise AssertionError("the game did not end")


def _mu(user) -> float:
    from games.models import Rating

    return Rating.objects.get(user=user).mu


def test_leavers_last_substitute_over_the_share_rated_and_recompute_agrees(new_game, make_player):
    from games import ratings
    from games.models import RatedGame, Rating

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    leaver, seeker, stays = seats[0], seats[1], seats[2]
    assert leaver.post(f"/api/v1/games/{gid}/resign/").status_code == 200
    assert seeker.post(f"/api/v1/games/{gid}/seeking/", {"seeking": True}).status_code == 200
    sub = make_player()
    assert sub.post(f"/api/v1/games/{gid}/substitute/", {"seat": 1}).status_code == 200
    _play_out(gid, [*ps, sub])
    rated = RatedGame.objects.get(game_id=gid)
    assert rated.rated
    assert set(rated.changes) == {str(p.user.pk) for p in (leaver, seeker, stays, sub)}
    # The two who left are last (tied): both lose; of those who played on, one gains.
    assert _mu(leaver.user) < 25
    assert _mu(seeker.user) < 25
    assert _mu(leaver.user) == pytest.approx(_mu(seeker.user))
    assert max(_mu(stays.user), _mu(sub.user)) > 25
    before = {r.user_id: (round(r.mu, 9), round(r.sigma, 9), r.games) for r in Rating.objects.all()}
    assert ratings.ratings_recompute() == 1
    after = {r.user_id: (round(r.mu, 9), round(r.sigma, 9), r.games) for r in Rating.objects.all()}
    assert after == before


def _finished(gid: int, seq: int, places: dict[int, int], monkeypatch) -> object:
    """The game marked finished after ``seq`` moves with these places (the rule reads no more)."""
    from django.utils import timezone

    from games import ratings
    from games.models import Game

    Game.objects.filter(pk=gid).update(status="finished", seq=seq, finished_at=timezone.now())
    monkeypatch.setattr(ratings, "_ranks", lambda game: places)
    return Game.objects.get(pk=gid)


def _rate(game):
    from games import ratings
    from games.models import Seat

    return ratings.game_rate(
        game, list(Seat.objects.filter(game=game).select_related("user__profile"))
    )


def test_the_leaver_is_last_though_the_bot_won_with_their_seat(new_game, monkeypatch):
    from games.models import Tenure

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    assert seats[0].post(f"/api/v1/games/{gid}/resign/").status_code == 200
    game = _finished(gid, 120, {0: 1, 1: 2, 2: 3}, monkeypatch)  # the bot won with seat 0
    made = _rate(game)
    assert made.rated
    assert Tenure.objects.get(game_id=gid, seat=0).ended == "resigned"
    assert _mu(seats[0].user) < 25 < _mu(seats[1].user)
    assert _mu(seats[0].user) < _mu(seats[2].user) < _mu(seats[1].user)


def test_a_substitute_under_the_share_is_not_rated(new_game, make_player, monkeypatch):
    from games.models import Tenure

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    assert seats[2].post(f"/api/v1/games/{gid}/resign/").status_code == 200
    sub = make_player()
    assert sub.post(f"/api/v1/games/{gid}/substitute/", {"seat": 2}).status_code == 200
    # They took the seat after move 0; the game then lasted 100 moves: make it 70 before them.
    Tenure.objects.filter(game_id=gid, user=sub.user).update(from_seq=70)
    Tenure.objects.filter(game_id=gid, user=seats[2].user).update(to_seq=70)
    game = _finished(gid, 100, {0: 2, 1: 3, 2: 1}, monkeypatch)
    made = _rate(game)
    assert made.rated
    assert str(sub.user.pk) not in made.changes  # 30 % of the moves: neither win nor loss
    assert _mu(seats[2].user) < 25  # the leaver still pays
    # Over the share (from move 40 of 100: 60 %), the same substitute is rated by the place.
    from games.models import RatedGame, Rating

    RatedGame.objects.all().delete()
    Rating.objects.all().delete()
    Tenure.objects.filter(game_id=gid, user=sub.user).update(from_seq=40)
    made = _rate(game)
    assert str(sub.user.pk) in made.changes
    assert _mu(sub.user) > 25  # the seat won


def test_only_the_first_of_simultaneous_timeouts_counts(new_game, monkeypatch):
    """One player's seats taken over by the bot in three games: at 0 h and 5 h (one lapse: the
    second is excused) and at 30 h (a new lapse: it counts). The others are rated in each."""
    from django.utils import timezone

    from games import tenures
    from games.models import Game, Seat

    start = timezone.now() - timedelta(days=3)
    games = []
    vanisher = None
    for hours in (0, 5, 30):
        gid, ps = new_game(players=3)
        seats = seat_players(gid, ps)
        if vanisher is None:
            vanisher = seats[0]
        else:  # the same person holds seat 0 of every game
            Seat.objects.filter(game_id=gid, seat=0).update(user=vanisher.user)
        game = Game.objects.get(pk=gid)
        seat = Seat.objects.get(game_id=gid, seat=0)
        tenures.timed_out(game, seat, now=start + timedelta(hours=hours))
        Seat.objects.filter(pk=seat.pk).update(bot_controlled=True, offered="timed_out")
        games.append((gid, seats))
    from games import ratings

    assert ratings.timeouts_excused(vanisher.user.pk) == {games[1][0]}
    counted = []
    for gid, seats in games:
        made = _rate(_finished(gid, 90, {0: 1, 1: 2, 2: 3}, monkeypatch))
        assert made.rated
        assert str(seats[1].user.pk) in made.changes
        assert str(seats[2].user.pk) in made.changes
        counted.append(str(vanisher.user.pk) in made.changes)
    assert counted == [True, False, True]
    from games.models import Rating

    assert Rating.objects.get(user=vanisher.user).games == 2
    # recompute_ratings replays the three games through the same rule: the same figures.
    before = {r.user_id: (round(r.mu, 9), round(r.sigma, 9), r.games) for r in Rating.objects.all()}
    assert ratings.ratings_recompute() == 3
    after = {r.user_id: (round(r.mu, 9), round(r.sigma, 9), r.games) for r in Rating.objects.all()}
    assert after == before
