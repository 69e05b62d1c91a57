"""Bot seats: the creator fills seats with the engine's bots (marked as bots), removes seats
before the start; the bots move through the move service (source ``bot``), never in a request."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_bot_seats_fill_the_game_and_start_it(make_player):
    from games import services
    from games.models import Game, Move, Seat

    p = make_player()
    game = services.game_create(creator=p.user, map="germany", max_players=3)
    services.game_bot_add(game_id=game.pk, user=p.user, kind="heuristic")
    seat = services.game_bot_add(game_id=game.pk, user=p.user, kind="random")
    game = Game.objects.get(pk=game.pk)
    assert game.status == "running"  # full: it started by itself
    bots = Seat.objects.filter(game=game, bot_controlled=True).select_related("user__profile")
    assert sorted(s.user.profile.bot_kind for s in bots) == ["heuristic", "random"]
    assert all(not s.user.email and not s.user.has_usable_password() for s in bots)
    assert seat.user.profile.bot_kind == "random"
    assert not Move.objects.filter(game=game).exists()  # no bot moved inside the request


def test_only_the_creator_adds_bots_or_removes_seats_and_only_before_the_start(make_player):
    from games import services
    from games.services.errors import GameAlreadyStarted, InvalidSetup, NotCreator

    a, b = make_player(), make_player()
    game = services.game_create(creator=a.user, map="germany", max_players=3)
    services.game_join(game_id=game.pk, user=b.user)
    with pytest.raises(NotCreator):
        services.game_bot_add(game_id=game.pk, user=b.user)
    with pytest.raises(InvalidSetup):
        services.game_bot_add(game_id=game.pk, user=a.user, kind="genius")
    bot = services.game_bot_add(game_id=game.pk, user=a.user)
    with pytest.raises(GameAlreadyStarted):
        services.game_seat_remove(game_id=game.pk, user=a.user, seat_no=bot.seat)


def test_the_creator_removes_a_bot_and_a_player(make_player):
    from games import services
    from games.models import Seat

    a, b = make_player(), make_player()
    game = services.game_create(creator=a.user, map="germany", max_players=4)
    services.game_bot_add(game_id=game.pk, user=a.user)
    services.game_join(game_id=game.pk, user=b.user)
    services.game_seat_remove(game_id=game.pk, user=a.user, seat_no=1)  # the bot
    assert [s.user_id for s in Seat.objects.filter(game=game).order_by("seat")] == [
        a.user.pk,
        b.user.pk,
    ]
    services.game_seat_remove(game_id=game.pk, user=a.user, seat_no=1)  # the player
    assert Seat.objects.filter(game=game).count() == 1


def test_a_bot_plays_its_turn_through_the_worker_path(make_player):
    from games import services
    from games.deadlines.sweep import game_handle_due
    from games.models import Game, Move

    p = make_player()
    game = services.game_create(
        creator=p.user, map="germany", max_players=2, options={"auto_start": False}
    )
    services.game_bot_add(game_id=game.pk, user=p.user, kind="random")
    services.game_start(game_id=game.pk, user=p.user)
    game = Game.objects.get(pk=game.pk)
    bot_seat = 1 - next(s.seat for s in game.seats.all() if s.user_id == p.user.pk)
    # Play until the bot is awaited (the human plays the default), then run the worker's task.
    import powergrid
    from games.services.moves import move_submit

    for _ in range(10):
        game = Game.objects.get(pk=game.pk)
        if bot_seat in game.to_act:
            break
        seat = game.to_act[0]
        action = powergrid.default_action(powergrid.from_json(game.state_json), seat)
        move_submit(
            game_id=game.pk, user=p.user, expected_seq=game.seq, source="api", action=action
        )
    game_handle_due(game_id=game.pk, wait=True)
    assert Move.objects.filter(game=game, seat=bot_seat, source="bot").exists()


def test_the_lobby_page_adds_and_removes_bots_and_names_them_as_bots(make_player, client):
    from games import services
    from games.models import Seat

    p = make_player()
    game = services.game_create(creator=p.user, map="germany", max_players=4)
    client.force_login(p.user)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Add a bot" in page
    client.post(f"/games/{game.pk}/bot/", {"kind": "random"})
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Random bot 2" in page
    assert ", bot)" in page
    client.post(f"/games/{game.pk}/remove/", {"seat": "1"})
    assert Seat.objects.filter(game=game).count() == 1
