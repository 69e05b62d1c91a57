"""The round sheet by email: the turn email carries it as text, a reply ``ok`` accepts it, edited
lines (English and Japanese) change it, the answer says what will happen, a bad line is refused
and changes nothing, and the one-tap link accepts the suggestions."""

from __future__ import annotations

import time

import pytest
from apihelpers import seat_players

pytestmark = pytest.mark.django_db


def _turn_email(gid, player):
    from games.models import Notification
    from games.notifications.emails import email_build

    n = Notification(recipient=player.user, game_id=gid, kind="turn", payload={})
    mail = email_build(n)
    assert mail is not None
    return mail


def _reply(to: str, sender: str, body: str) -> bytes:
    return (
        f"From: P <{sender}>\r\nTo: {to}\r\nSubject: Re: your turn\r\n"
        f"Message-ID: <r{time.time_ns()}@c.example>\r\n"
        f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    ).encode()


def _awaited(new_game):
    from games.models import Game

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    seat = Game.objects.get(pk=gid).to_act[0]
    return gid, seats, seat, seats[seat]


def test_the_turn_email_carries_the_sheet_and_ok_accepts_it(new_game):
    from games.inbox.receive import mail_receive
    from games.models import Move, Notification, SheetAnswer
    from games.notifications.emails import email_build

    gid, _seats, seat, p = _awaited(new_game)
    mail = _turn_email(gid, p)
    assert "Your round sheet for round 1" in mail.body
    assert "open " in mail.body
    assert "Reply ok to accept it" in mail.body
    got = mail_receive(_reply(mail.extra_headers["Reply-To"], p.user.email, "ok\n\n> quoted"),
                       via="pipe")  # fmt: skip
    assert got.status == "applied", got
    assert SheetAnswer.objects.filter(game_id=gid, seat=seat, source="email").exists()
    assert Move.objects.filter(game_id=gid, seat=seat, source="sheet").exists()
    answer = email_build(Notification.objects.get(game_id=gid, kind="reply"))
    assert "what will happen" in answer.body
    assert "power" in answer.body


def test_edited_lines_in_english_and_japanese_change_the_sheet(new_game):
    from games.inbox.receive import mail_receive
    from games.models import Game, Plan

    gid, seats, _seat, _p = _awaited(new_game)
    waiting = next(s for s in seats if s not in Game.objects.get(pk=gid).to_act)
    q = seats[waiting]
    a, b = _two_cities(gid)
    to = _turn_email_for_waiting(gid, q)
    body = f"open 13 max 25\nbuild {a.name_en}, {b.slug} max 30\nfuel max 7\n"
    assert mail_receive(_reply(to, q.user.email, body), via="pipe").status == "applied"
    plans = {pl.kind: pl.data for pl in Plan.objects.filter(game_id=gid, seat=waiting)}
    assert plans["open"]["choices"] == [[13, 25]]
    assert plans["build"]["cities"] == [a.slug, b.slug]
    assert plans["fuel"]["max_price"] == 7
    to = _turn_email_for_waiting(gid, q, hours=25)  # another email: another token
    body = f"開く 20 上限 30\n建設 {a.name_ja}、{b.name_ja} 上限 40\n"
    assert mail_receive(_reply(to, q.user.email, body), via="pipe").status == "applied"
    plans = {pl.kind: pl.data for pl in Plan.objects.filter(game_id=gid, seat=waiting)}
    assert plans["open"]["choices"] == [[20, 30]]
    assert plans["build"]["max_total"] == 40


def _two_cities(gid):
    import powergrid
    from games import engine
    from games.models import Game

    s = powergrid.from_json(Game.objects.get(pk=gid).state_json)
    gmap = engine.map_load(s.map)
    slugs = sorted(gmap.cities_in(s.areas))
    return gmap.cities[slugs[0]], gmap.cities[slugs[1]]


def _turn_email_for_waiting(gid, player, hours: float = 24) -> str:
    """A reply address for a seat not awaited (the sheet is asked of every seat at once)."""
    from games.inbox.tokens import reply_address
    from games.models import Game, Seat

    game = Game.objects.get(pk=gid)
    seat = Seat.objects.get(game=game, user=player.user)
    return reply_address(
        game_id=game.pk, seat=seat.seat, seq=game.seq, user_id=player.user.pk, hours=hours
    )


@pytest.mark.parametrize(
    "line", ["open 13 max lots", "open 13 max ²", "open ① max 25", "open 13 max ٣"]
)
def test_a_line_that_cannot_be_read_is_refused_and_nothing_changes(new_game, line):
    """A word that is no ASCII number is refused like any other (``"²".isdigit()`` is true and
    ``int("²")`` raised: the reply's handling failed instead of answering)."""
    from games.inbox.receive import mail_receive
    from games.models import Plan, SheetAnswer

    gid, _seats, _seat, p = _awaited(new_game)
    mail = _turn_email(gid, p)
    got = mail_receive(_reply(mail.extra_headers["Reply-To"], p.user.email, line), via="pipe")
    assert got.status == "refused"
    assert not Plan.objects.filter(game_id=gid).exists()
    assert not SheetAnswer.objects.exists()


def test_the_one_tap_link_accepts_the_suggestions(new_game, client):
    from games.models import Move, SheetAnswer

    gid, _seats, seat, p = _awaited(new_game)
    mail = _turn_email(gid, p)
    line = next(x for x in mail.body.splitlines() if "Accept the suggestions (one tap):" in x)
    url = line.split(":", 1)[1].strip()
    url = url[url.index("/", url.index("//") + 2) :]
    assert client.get(url).status_code == 200
    assert not SheetAnswer.objects.exists()  # a GET never acts
    assert client.post(url).status_code == 200
    assert SheetAnswer.objects.filter(game_id=gid, seat=seat).exists()
    assert Move.objects.filter(game_id=gid, source="sheet").exists()
    assert client.post(url).status_code == 410
