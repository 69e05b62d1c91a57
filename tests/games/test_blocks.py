"""The block list: a block stands between two players whoever made it: no joining a game the
other sits in, nor taking an offered seat there, no invitation, no chat message where a blocker
reads (API, and the pages in English and Japanese); the list through the API
(/api/v1/me/blocks/) and the profile page, in English and Japanese, with clear 4xx codes that
change nothing; ``blocked_between`` and ``blocked_ids`` (the tournaments' seating:
tests/tournaments)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def _block(p, username):
    return p.post("/api/v1/me/blocks/", {"username": username})


def test_the_selectors_read_both_ways(make_player):
    from accounts.blocks import blocked_between, blocked_ids

    a, b, c = make_player(), make_player(), make_player()
    assert _block(a, b.user.username).status_code == 201
    assert blocked_between(a.user, b.user)
    assert blocked_between(b.user, a.user)
    assert not blocked_between(a.user, c.user)
    assert blocked_ids(a.user) == {b.user.pk}
    assert blocked_ids(b.user) == {a.user.pk}
    assert blocked_ids(c.user) == set()


@pytest.mark.parametrize("who_blocks", ["creator", "joiner"])
def test_no_joining_a_game_across_a_block(make_player, client, who_blocks):
    from games.models import Seat

    creator, joiner = make_player(), make_player()
    gid = creator.post("/api/v1/games/", {"map": "germany", "max_players": 3}).json()["id"]
    a, b = (creator, joiner) if who_blocks == "creator" else (joiner, creator)
    assert _block(a, b.user.username).status_code == 201
    r = joiner.post(f"/api/v1/games/{gid}/join/")
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "blocked"
    # the message names no one: nobody learns who blocked whom
    assert creator.user.username not in r.json()["error"]["message"]
    client.force_login(joiner.user)
    page = client.post(f"/games/{gid}/join/")
    assert page.status_code in (302, 403, 400)
    assert not Seat.objects.filter(game_id=gid, user=joiner.user).exists()
    # a third player is not concerned
    third = make_player()
    assert third.post(f"/api/v1/games/{gid}/join/").status_code == 200


def test_no_joining_when_any_seated_player_blocked_you(make_player):
    creator, seated, late = make_player(), make_player(), make_player()
    gid = creator.post("/api/v1/games/", {"map": "germany", "max_players": 4}).json()["id"]
    assert seated.post(f"/api/v1/games/{gid}/join/").status_code == 200
    _block(seated, late.user.username)
    assert late.post(f"/api/v1/games/{gid}/join/").json()["error"]["code"] == "blocked"


def test_no_invitation_across_a_block(make_player):
    from games.models import Invitation, Notification

    creator, guest = make_player(), make_player()
    gid = creator.post("/api/v1/games/", {"map": "germany", "max_players": 3}).json()["id"]
    _block(guest, creator.user.username)
    r = creator.post(f"/api/v1/games/{gid}/invitations/", {"username": guest.user.username})
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "blocked"
    assert not Invitation.objects.filter(game_id=gid).exists()
    assert not Notification.objects.filter(kind="invited").exists()


def test_no_chat_message_where_a_blocker_reads(new_game):
    from games.models import ChatMessage

    gid, ps = new_game(players=3)
    assert ps[1].post(f"/api/v1/games/{gid}/chat/", {"text": "hello"}).status_code == 201
    _block(ps[0], ps[1].user.username)  # blocked after they sat down together
    r = ps[1].post(f"/api/v1/games/{gid}/chat/", {"text": "still here?"})
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "blocked"
    assert ps[0].post(f"/api/v1/games/{gid}/chat/", {"text": "gg"}).status_code == 201
    assert ps[2].post(f"/api/v1/games/{gid}/chat/", {"text": "hi"}).status_code == 201
    assert ChatMessage.objects.filter(game_id=gid, text="still here?").count() == 0


def test_the_api_lists_adds_and_lifts(make_player):
    a, b = make_player(), make_player(display_name="Bee")
    r = _block(a, b.user.username.upper())  # usernames match whatever their case
    assert r.status_code == 201
    assert r.json()["username"] == b.user.username
    assert r.json()["name"] == "Bee"
    assert _block(a, b.user.username).status_code == 200  # already: no change
    listed = a.get("/api/v1/me/blocks/").json()
    assert [x["username"] for x in listed] == [b.user.username]
    assert a.client.delete(f"/api/v1/me/blocks/{b.user.username}/").status_code == 204
    assert a.get("/api/v1/me/blocks/").json() == []
    r = a.client.delete(f"/api/v1/me/blocks/{b.user.username}/")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "user_not_found"


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"username": "nobody-here"}, 404, "user_not_found"),
        ({"username": ""}, 400, "invalid_block"),
        ({"username": 5}, 400, "invalid_field"),
        ({}, 400, "invalid_block"),
        ({"username": "x", "more": 1}, 400, "invalid_field"),
    ],
)
def test_bad_blocks_are_clear_4xx_and_change_nothing(make_player, body, status, code):
    from accounts.models import Block

    a = make_player()
    r = a.post("/api/v1/me/blocks/", body)
    assert r.status_code == status
    assert r.json()["error"]["code"] == code
    assert not Block.objects.exists()


def test_blocking_yourself_is_refused(make_player):
    a = make_player()
    r = _block(a, a.user.username)
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "invalid_block"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_profile_page_blocks_and_unblocks(make_player, client, lang):
    from accounts.models import Block

    a, b = make_player(), make_player()
    a.user.profile.language = lang
    a.user.profile.save()
    client.force_login(a.user)
    page = client.get("/accounts/profile/")
    assert page.status_code == 200
    assert 'id="blocks"' in page.text
    r = client.post("/accounts/profile/blocks/", {"op": "block", "username": b.user.username})
    assert r.status_code == 302
    assert Block.objects.filter(blocker=a.user, blocked=b.user).exists()
    assert b.user.username in client.get("/accounts/profile/").text
    r = client.post("/accounts/profile/blocks/", {"op": "block", "username": "nobody-here"})
    assert r.status_code == 404
    assert 'data-code="user_not_found"' in r.text
    if lang == "ja":
        assert "そのユーザー名のプレイヤーはいません。" in r.text
        assert "ブロックしたプレイヤー" in r.text
    r = client.post("/accounts/profile/blocks/", {"op": "unblock", "username": b.user.username})
    assert r.status_code == 302
    assert not Block.objects.exists()


@pytest.mark.parametrize("who_blocks", ["seated", "claimer"])
def test_no_taking_an_offered_seat_across_a_block(new_game, make_player, who_blocks):
    """A substitute is a newcomer to a running game: a block with a player who stays keeps
    them out as it keeps them from joining (either made it), and nothing changes."""
    from apihelpers import seat_players

    from games.models import Seat, Tenure

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    assert seats[2].post(f"/api/v1/games/{gid}/resign/").status_code == 200
    claimer = make_player()
    a, b = (seats[0], claimer) if who_blocks == "seated" else (claimer, seats[0])
    assert _block(a, b.user.username).status_code == 201
    r = claimer.post(f"/api/v1/games/{gid}/substitute/", {"seat": 2})
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "blocked"
    assert seats[0].user.username not in r.json()["error"]["message"]
    seat = Seat.objects.get(game_id=gid, seat=2)
    assert (seat.user_id, seat.offered) == (seats[2].user.pk, "left")
    assert not Tenure.objects.filter(game_id=gid, user=claimer.user).exists()
    # someone with no block takes it
    assert make_player().post(f"/api/v1/games/{gid}/substitute/", {"seat": 2}).status_code == 200


def test_a_block_with_the_seats_own_holder_does_not_stop_a_substitute(new_game, make_player):
    """The seat's holder leaves it as the substitute sits down: they never sit together."""
    from apihelpers import seat_players

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    claimer = make_player()
    assert seats[2].post(f"/api/v1/games/{gid}/seeking/", {"seeking": True}).status_code == 200
    _block(seats[2], claimer.user.username)
    assert claimer.post(f"/api/v1/games/{gid}/substitute/", {"seat": 2}).status_code == 200


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "A block stands between you and a player there: this cannot be done."),
        ("ja", "あなたとそのプレイヤーの間にブロックがあるため、これはできません。"),
    ],
)
def test_the_pages_say_why_joining_or_taking_a_seat_is_refused(
    new_game, make_player, client, lang, said
):
    from apihelpers import seat_players

    from games.models import Seat

    late = make_player()
    late.user.profile.language = lang
    late.user.profile.save()
    client.force_login(late.user)
    creator = make_player()
    _block(creator, late.user.username)
    gid = creator.post("/api/v1/games/", {"map": "germany", "max_players": 3}).json()["id"]
    page = client.post(f"/games/{gid}/join/", follow=True)
    assert said in page.content.decode()
    assert not Seat.objects.filter(game_id=gid, user=late.user).exists()
    running, ps = new_game(players=3)
    seats = seat_players(running, ps)
    assert seats[1].post(f"/api/v1/games/{running}/resign/").status_code == 200
    _block(seats[0], late.user.username)
    page = client.post(f"/games/{running}/substitute/", {"seat": "1"}, follow=True)
    assert said in page.content.decode()
    assert Seat.objects.get(game_id=running, seat=1).user_id == seats[1].user.pk


@pytest.mark.parametrize(
    ("lang", "invite_said", "chat_said"),
    [
        (
            "en",
            "A block stands between you and that player.",
            "A block stands between you and a player of this game: no chat.",
        ),
        (
            "ja",
            "あなたとそのプレイヤーの間にブロックがあるため、これはできません。",
            "あなたとそのプレイヤーの間にブロックがあるため、これはできません。",
        ),
    ],
)
def test_the_pages_refuse_an_invitation_and_a_chat_message_across_a_block(
    new_game, make_player, client, lang, invite_said, chat_said
):
    from games.models import ChatMessage, Invitation

    creator, guest = make_player(), make_player()
    creator.user.profile.language = lang
    creator.user.profile.save()
    _block(guest, creator.user.username)
    gid = creator.post("/api/v1/games/", {"map": "germany", "max_players": 3}).json()["id"]
    client.force_login(creator.user)
    page = client.post(
        f"/games/{gid}/invite/", {"username": guest.user.username}, follow=True
    ).content.decode()
    assert invite_said in page
    assert not Invitation.objects.filter(game_id=gid).exists()
    running, ps = new_game(players=2)
    ps[1].user.profile.language = lang
    ps[1].user.profile.save()
    _block(ps[0], ps[1].user.username)
    client.force_login(ps[1].user)
    page = client.post(
        f"/games/{running}/chat/", {"text": "still here?"}, follow=True
    ).content.decode()
    assert chat_said in page
    assert not ChatMessage.objects.filter(game_id=running).exists()
