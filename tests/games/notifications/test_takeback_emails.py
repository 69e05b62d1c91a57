"""The emails of take-backs, in order, through the outbox: the player a cancelled move told it
was their turn gets ONE "X took back their move, it is not your turn yet" (none if that turn
email never went); asked players get the request with one-tap agree/refuse; the asker hears a
refusal, and gets their turn again when everyone agreed; the answer to a move sent by email
carries a one-tap take-back. One-tap links act only on their POST, once."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from apihelpers import by_moves, seat_players
from django.core import mail

from games.models import Game, Notification
from games.notifications import sending

pytestmark = pytest.mark.django_db


@pytest.fixture
def new_game(new_game):
    """Games played move by move here: a turn email and a deadline per turn (round sheets':
    tests/games/sheets/)."""
    return by_moves(new_game)


ALLOWED = {"takebacks_rated": True}


def send_all() -> dict[str, int]:
    ids = list(Notification.objects.filter(status="pending").values_list("id", flat=True))
    return sending.notifications_send(ids=ids)


def _state(gid):
    import powergrid

    return powergrid.from_json(Game.objects.get(pk=gid).state_json)


def _move(p, gid, action):
    seq = Game.objects.get(pk=gid).seq
    r = p.post(f"/api/v1/games/{gid}/moves/", {"action": action, "expected_seq": seq})
    assert r.status_code == 201, r.json()


def _mails_to(user, word: str) -> list:
    return [m for m in mail.outbox if m.to == [user.email] and word in m.subject]


def _turn_email(gid, player):
    """The turn email ``player`` gets now, built as the outbox builds it."""
    from games.notifications.emails import email_build

    built = email_build(Notification(recipient=player.user, game_id=gid, kind="turn", payload={}))
    assert built is not None
    return built


def _reply(to: str, sender: str, body: str) -> bytes:
    return (
        f"From: Player <{sender}>\r\nTo: {to}\r\nSubject: Re: your turn\r\n"
        f"Message-ID: <r{id(body)}{len(mail.outbox)}@client.example>\r\n"
        f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    ).encode()


def _start(new_game, players=3):
    gid, ps = new_game(players=players, options=ALLOWED)
    seats = seat_players(gid, ps)
    send_all()
    mail.outbox.clear()
    return gid, seats, _state(gid)


def test_the_player_told_it_was_their_turn_hears_once_that_it_is_not(new_game):
    gid, seats, s = _start(new_game)
    a = s.order[0]
    _move(seats[a], gid, {"type": "choose_plant", "plant": 6, "bid": 6})
    b = _state(gid).auction.turn
    assert send_all() == {"sent": 1}
    assert len(_mails_to(seats[b].user, "Your turn")) == 1
    r = seats[a].post(f"/api/v1/games/{gid}/takeback/", {"expected_seq": 1})
    assert r.status_code == 201
    rows = Notification.objects.filter(game_id=gid, kind="takeback")
    assert [n.recipient_id for n in rows] == [seats[b].user.pk]
    send_all()
    notice = _mails_to(seats[b].user, "took back their move")
    assert len(notice) == 1
    body = notice[0].body
    assert "put plant 6 up for auction" in body
    assert "it is not your turn yet" in body
    # Nobody else hears of it: the third player was never told it was their turn, and the one
    # who took the move back did it on the page.
    assert all(m.to == [seats[b].user.email] for m in mail.outbox if "took back" in m.subject)
    # Sending again sends nothing more.
    assert send_all() == {}
    assert len(_mails_to(seats[b].user, "took back their move")) == 1


def test_a_turn_email_not_sent_yet_is_skipped_and_no_notice_follows(new_game):
    gid, seats, s = _start(new_game)
    a = s.order[0]
    _move(seats[a], gid, {"type": "choose_plant", "plant": 6, "bid": 6})
    b = _state(gid).auction.turn
    assert seats[a].post(f"/api/v1/games/{gid}/takeback/", {"expected_seq": 1}).status_code == 201
    assert not Notification.objects.filter(game_id=gid, kind="takeback").exists()
    assert send_all() == {"skipped": 1}  # the turn email: its turn is gone
    assert mail.outbox == []
    del b


def test_a_notice_whose_turn_email_was_skipped_meanwhile_is_not_sent(new_game):
    gid, seats, s = _start(new_game)
    a = s.order[0]
    _move(seats[a], gid, {"type": "choose_plant", "plant": 6, "bid": 6})
    turn = Notification.objects.get(game_id=gid, kind="turn")
    # Being sent when the take-back comes (claimed), then found stale and skipped.
    Notification.objects.filter(pk=turn.pk).update(status="sending", claimed_at=turn.created_at)
    assert seats[a].post(f"/api/v1/games/{gid}/takeback/", {"expected_seq": 1}).status_code == 201
    notice = Notification.objects.get(game_id=gid, kind="takeback")
    assert notice.payload["told"] == [turn.pk]
    Notification.objects.filter(pk=turn.pk).update(
        status="sent", last_error="skipped: no longer relevant"
    )
    assert send_all() == {"skipped": 1}
    assert mail.outbox == []


def test_asked_players_answer_with_one_tap_and_the_asker_moves_again(new_game, client):
    gid, seats, s = _start(new_game)
    a = s.order[0]
    _move(seats[a], gid, {"type": "choose_plant", "plant": 6, "bid": 6})
    b = _state(gid).auction.turn
    send_all()  # b's turn email
    _move(seats[b], gid, {"type": "bid", "amount": 7})
    c = _state(gid).auction.turn
    send_all()  # c's turn email
    mail.outbox.clear()
    r = seats[a].post(f"/api/v1/games/{gid}/takeback/requests/", {"expected_seq": 2})
    assert r.status_code == 201
    assert send_all() == {"sent": 2}
    asked = {}
    for seat in (b, c):
        (m,) = _mails_to(seats[seat].user, "asks to take back")
        assert "put plant 6 up for auction" in m.body
        assert "another player has moved since" in m.body
        links = dict(re.findall(r"  (Agree|Refuse): (\S+)", m.body))
        assert set(links) == {"Agree", "Refuse"}
        asked[seat] = links
    # A GET only shows the question; the POST answers.
    path = urlsplit(asked[b]["Agree"]).path
    page = client.get(path)
    assert page.status_code == 200
    assert "Agree:" in page.content.decode()
    assert Game.objects.get(pk=gid).seq == 2
    assert client.post(path).status_code == 200
    assert client.post(path).status_code == 410  # once
    client.logout()
    done = client.post(urlsplit(asked[c]["Agree"]).path)
    assert done.status_code == 200, done.content.decode()
    game = Game.objects.get(pk=gid)
    assert game.seq == 3
    assert game.to_act == [a]
    mail.outbox.clear()
    send_all()
    # The asker's turn again; b and c had turn emails for cancelled moves: each one notice.
    assert len(_mails_to(seats[a].user, "Your turn")) == 1
    for seat in (b, c):
        assert len(_mails_to(seats[seat].user, "took back")) == 1, seat


def test_a_refusal_is_told_to_the_asker(new_game):
    gid, seats, s = _start(new_game)
    a = s.order[0]
    _move(seats[a], gid, {"type": "choose_plant", "plant": 6, "bid": 6})
    b = _state(gid).auction.turn
    _move(seats[b], gid, {"type": "bid", "amount": 7})
    rid = (
        seats[a]
        .post(f"/api/v1/games/{gid}/takeback/requests/", {"expected_seq": 2})
        .json()["request"]["id"]
    )
    seats[b].post(f"/api/v1/games/{gid}/takeback/requests/{rid}/decline/")
    mail.outbox.clear()
    send_all()
    (m,) = _mails_to(seats[a].user, "refused your take-back")
    assert "the move stands" in m.body
    # The request closed: the other asked player's email is not sent any more.
    assert not [x for x in mail.outbox if "asks to take back" in x.subject]


def test_the_answer_to_an_emailed_move_offers_a_one_tap_takeback(new_game, client):
    from games.inbox.receive import mail_receive

    gid, seats, s = _start(new_game)
    a = s.order[0]
    turn = _turn_email(gid, seats[a])
    got = mail_receive(
        _reply(turn.extra_headers["Reply-To"], seats[a].user.email, "choose 6 bid 6"), via="pipe"
    )
    assert got.status == "applied"
    mail.outbox.clear()
    send_all()
    (answer,) = [m for m in mail.outbox if m.to == [seats[a].user.email]]
    assert "A mistake? Take it back" in answer.body
    link = re.search(r"Take it back \(one tap, while nobody has moved since\):\n(\S+)", answer.body)
    assert link
    path = urlsplit(link.group(1)).path
    assert "Take back my move" in client.get(path).content.decode()
    assert client.post(path).status_code == 200
    game = Game.objects.get(pk=gid)
    assert game.seq == 2
    from games.models import Move

    assert Move.objects.get(game=game, seq=2).source == "email"
    assert client.post(path).status_code == 410


def test_no_takeback_link_once_another_player_has_moved(new_game):
    from games.inbox.receive import mail_receive

    gid, seats, s = _start(new_game)
    a = s.order[0]
    turn = _turn_email(gid, seats[a])
    mail_receive(
        _reply(turn.extra_headers["Reply-To"], seats[a].user.email, "choose 6 bid 6"), via="pipe"
    )
    b = _state(gid).auction.turn
    _move(seats[b], gid, {"type": "bid", "amount": 7})
    mail.outbox.clear()
    send_all()
    answer = next(m for m in mail.outbox if m.to == [seats[a].user.email])
    assert "Take it back" not in answer.body
