"""Bot accounts of third parties: a new account may become one (for good), an account with games
may not; a bot account is marked as a bot where its name is shown and its games are not rated."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_a_new_account_becomes_a_bot_once_and_for_good(make_player):
    p = make_player()
    r = p.post("/api/v1/me/bot/")
    assert r.status_code == 200
    assert r.json()["bot_account"] is True
    assert p.get("/api/v1/me/").json()["bot_account"] is True
    assert p.post("/api/v1/me/bot/").status_code == 200  # asking again changes nothing
    p.user.profile.refresh_from_db()
    assert p.user.profile.notification_mode == "none"  # a program reads the stream, not email


def test_an_account_with_games_stays_a_person(new_game):
    _gid, ps = new_game(players=2, start=False)
    r = ps[1].post("/api/v1/me/bot/")
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "bot_upgrade_refused"
    ps[1].user.profile.refresh_from_db()
    assert ps[1].user.profile.bot_account is False


def test_a_bot_account_is_named_as_a_bot_in_the_game(make_player, client):
    from games import selectors, services
    from games.models import Game

    person, program = make_player(), make_player(display_name="Deep Grid")
    program.post("/api/v1/me/bot/")
    game = services.game_create(creator=person.user, map="germany", max_players=2)
    services.game_join(game_id=game.pk, user=program.user)
    seat = Game.objects.get(pk=game.pk).seats.get(user=program.user)
    assert selectors.seat_name(seat) == "Deep Grid (bot)"
    client.force_login(person.user)
    assert "Deep Grid (bot)" in client.get(f"/games/{game.pk}/").content.decode()
    page = client.get(f"/players/{program.user.username}/").content.decode()
    assert "(bot)" in page


def test_games_with_a_bot_account_are_not_rated(make_player):
    from games import ratings
    from games.models import Seat

    person, program = make_player(), make_player()
    program.post("/api/v1/me/bot/")
    from games import services

    game = services.game_create(creator=person.user, map="germany", max_players=2)
    services.game_join(game_id=game.pk, user=program.user)
    seats = list(Seat.objects.filter(game=game).select_related("user__profile"))
    assert ratings.rated_so_far(game, seats) is False


def test_the_page_switches_with_a_confirmation(make_player, client):
    from apihelpers import PASSWORD

    p = make_player()
    client.force_login(p.user)
    client.post("/accounts/reauthenticate/", {"password": PASSWORD})  # one way: asks for it
    assert client.get("/account/bot/").status_code == 200
    r = client.post("/account/bot/", {})
    assert r.status_code == 400
    p.user.profile.refresh_from_db()
    assert not p.user.profile.bot_account
    r = client.post("/account/bot/", {"confirm": "yes"})
    assert r.status_code == 302
    p.user.profile.refresh_from_db()
    assert p.user.profile.bot_account


def test_a_bot_account_is_named_as_a_bot_in_the_chat(make_player, client):
    from django.urls import reverse

    from games import services

    person, program = make_player(), make_player(display_name="Deep Grid")
    program.post("/api/v1/me/bot/")
    game = services.game_create(creator=person.user, map="germany", max_players=2)
    services.game_join(game_id=game.pk, user=program.user)
    assert program.post(f"/api/v1/games/{game.pk}/chat/", {"text": "gl hf"}).status_code == 201
    assert [m["author"] for m in person.get(f"/api/v1/games/{game.pk}/chat/").json()] == [
        "Deep Grid (bot)"
    ]
    client.force_login(person.user)
    page = client.get(f"/games/{game.pk}/").content.decode()
    # The chat's author line: the name, "(bot)" and all, linking to the player page.
    href = reverse("player", args=[program.user.username])
    assert (
        f'<strong><a class="player-link" href="{href}" translate="no">'
        "<bdi>Deep Grid (bot)</bdi></a></strong>"
    ) in page
