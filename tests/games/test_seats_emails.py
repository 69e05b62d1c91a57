"""Leaving and substitutes by email: a reply ``resign`` (``投了``), confirmed by a second ``resign``
to the answer (tests/games/inbox/test_resign_by_email.py), leaves the game and is answered;
the others' seat notices (left, joined) read in English and Japanese."""

from __future__ import annotations

import time

import pytest
from apihelpers import seat_players

pytestmark = pytest.mark.django_db


def _reply(to: str, sender: str, body: str) -> bytes:
    return (
        f"From: Player <{sender}>\r\nTo: {to}\r\nSubject: Re: your turn\r\n"
        f"Message-ID: <r{time.time_ns()}@client.example>\r\n"
        f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    ).encode()


def _turn_mail(gid: int, player):
    from games.models import Notification
    from games.notifications.emails import email_build

    n = Notification(recipient=player.user, game_id=gid, kind="turn", payload={})
    n.game.seats_read = None
    return email_build(n)


@pytest.mark.parametrize(
    ("language", "word", "answer", "told"),
    [
        ("en", "Resign", "You left game #", "left game #"),
        ("ja", "投了", "から退出しました", "退出しました"),
    ],
)
def test_a_reply_resign_leaves_the_game(new_game, language, word, answer, told):
    import powergrid
    from games.inbox.receive import mail_receive
    from games.models import Game, Notification, Seat
    from games.notifications.emails import email_build

    gid, ps = new_game(players=3)
    for p in ps:
        p.user.profile.language = language
        p.user.profile.save()
    seats = seat_players(gid, ps)
    me = powergrid.to_act(powergrid.from_json(Game.objects.get(pk=gid).state_json))[0]
    mail = _turn_mail(gid, seats[me])
    got = mail_receive(
        _reply(mail.extra_headers["Reply-To"], seats[me].user.email, word), via="pipe"
    )
    assert (got.status, got.code) == ("refused", "resign_confirm")  # asked to confirm first
    confirm = email_build(Notification.objects.get(game_id=gid, kind="reply"))
    got = mail_receive(
        _reply(confirm.extra_headers["Reply-To"], seats[me].user.email, word), via="pipe"
    )
    assert got.status == "applied"
    seat = Seat.objects.get(game_id=gid, seat=me)
    assert seat.offered == "left"
    assert seat.bot_controlled
    built = email_build(Notification.objects.filter(game_id=gid, kind="reply").last())
    assert answer in built.body
    assert "What you can do" not in built.body  # not asked to move: the bot plays the seat
    others = Notification.objects.filter(game_id=gid, kind="seat")
    assert others.count() == 2
    for n in others:
        body = email_build(n).body
        assert told in body
        assert seats[me].user.username in body


def test_a_reply_resign_with_more_words_is_refused(new_game):
    import powergrid
    from games.inbox.receive import mail_receive
    from games.models import Game, Seat

    gid, ps = new_game(players=2)
    seats = seat_players(gid, ps)
    me = powergrid.to_act(powergrid.from_json(Game.objects.get(pk=gid).state_json))[0]
    mail = _turn_mail(gid, seats[me])
    got = mail_receive(
        _reply(mail.extra_headers["Reply-To"], seats[me].user.email, "resign the auction"),
        via="pipe",
    )
    assert got.status == "refused"
    assert Seat.objects.get(game_id=gid, seat=me).offered == ""


@pytest.mark.parametrize(
    ("language", "joined"), [("en", "joined game #"), ("ja", "代わりに参加しました")]
)
def test_the_others_are_told_who_joined(new_game, make_player, language, joined):
    from games.models import Notification
    from games.notifications.emails import email_build

    gid, ps = new_game(players=3)
    for p in ps:
        p.user.profile.language = language
        p.user.profile.save()
    seats = seat_players(gid, ps)
    assert seats[2].post(f"/api/v1/games/{gid}/resign/").status_code == 200
    sub = make_player(display_name="Subby")
    assert sub.post(f"/api/v1/games/{gid}/substitute/", {"seat": 2}).status_code == 200
    rows = Notification.objects.filter(game_id=gid, kind="seat", payload__event="joined")
    assert {n.recipient_id for n in rows} == {seats[0].user.pk, seats[1].user.pk}
    for n in rows:
        mail = email_build(n)
        assert joined in mail.body
        assert "Subby" in mail.body
        assert "Subby" in mail.subject


@pytest.mark.parametrize(
    ("language", "subject", "body"),
    [
        ("en", "seeks a substitute in game #", "is looking for a substitute in game #"),
        ("ja", "の代わりのプレイヤーを探しています", "の代わりのプレイヤーを探しています（"),
    ],
)
def test_the_others_are_told_who_seeks_a_substitute(new_game, language, subject, body):
    """Seeking a substitute tells the other players (not the seeker), in their language."""
    from games.models import Notification
    from games.notifications.emails import email_build

    gid, ps = new_game(players=3)
    for p in ps:
        p.user.profile.language = language
        p.user.profile.display_name = f"Name{p.user.pk}"
        p.user.profile.save()
    seats = seat_players(gid, ps)
    assert seats[1].post(f"/api/v1/games/{gid}/seeking/", {"seeking": True}).status_code == 200
    rows = Notification.objects.filter(game_id=gid, kind="seat", payload__event="seeking")
    assert {n.recipient_id for n in rows} == {seats[0].user.pk, seats[2].user.pk}
    seeker = f"Name{seats[1].user.pk}"
    for n in rows:
        mail = email_build(n)
        assert subject in mail.subject
        assert seeker in mail.subject
        assert body in mail.body
        assert seeker in mail.body
