"""A reply with an old token from a player who no longer holds the seat (they resigned and the
bot plays it, or a substitute took it): refused with the API's code for it, ``seat_left``, and
answered to the account's address with a sentence saying so; nothing of the reply is read (a
``pass`` was answered "There is nothing to pass now." as though the seat were still theirs, and
a reply after a substitute came was ignored unanswered). The From check comes first: a stranger
holding the old email learns nothing."""

from __future__ import annotations

import pytest
from test_receive import _reply, _setup

pytestmark = pytest.mark.django_db

OTHER = "stranger@elsewhere.example"


@pytest.fixture(autouse=True)
def _catalogue():
    from tests.i18n_helpers import ensure_compiled

    ensure_compiled()


def _sentence(gid: int, lang: str) -> str:
    from django.utils import translation

    from games.models import Game
    from games.notifications.emails import map_name

    with translation.override(lang):
        ids = {"id": gid, "map": map_name(Game.objects.get(pk=gid).map)}
        return (
            translation.gettext(
                "You no longer hold a seat in game #%(id)s (%(map)s), so your reply was not taken; "
                "nothing was changed. You can still follow the game on its page."
            )
            % ids
        )


def _answer(gid: int, user):
    from games.models import Notification

    return Notification.objects.filter(game_id=gid, kind="reply", recipient=user).latest("id")


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("body", ["pass", "choose {plant}", "max {plant} 20", "ok", "resign"])
def test_a_reply_after_resigning_is_refused_seat_left(new_game, body, lang):
    from games.inbox.receive import mail_receive
    from games.models import Game, InboundMail, Move, Plan
    from games.notifications.emails import email_build
    from games.services.seats import seat_resign

    gid, _seats, seat, p, mail, s = _setup(new_game)
    p.user.profile.language = lang
    p.user.profile.save()
    seat_resign(game_id=gid, user=p.user)  # on the page: the turn email's token is still good
    seq = Game.objects.get(pk=gid).seq
    got = mail_receive(
        _reply(mail.extra_headers["Reply-To"], p.user.email, body.format(plant=s.market[0])),
        via="pipe",
    )
    assert (got.status, got.code, got.answered) == ("refused", "seat_left", True)
    row = InboundMail.objects.get()
    assert (row.status, row.code, row.seat, row.line) == ("refused", "seat_left", seat, "")
    assert Game.objects.get(pk=gid).seq == seq
    assert not Move.objects.filter(game_id=gid).exists()
    assert not Plan.objects.filter(game_id=gid).exists()
    built = email_build(_answer(gid, p.user))
    assert built is not None
    assert built.to == [p.user.email]
    sentence = _sentence(gid, lang)
    assert sentence in " ".join(built.body.split()), built.body
    assert sentence in " ".join(built.alternatives[0][0].split())
    for unwanted in ("nothing to pass", "What you can do", "Take back", "“"):
        assert unwanted not in built.body
    assert "Reply-To" not in built.extra_headers  # no move of theirs to reply with


def test_a_reply_after_a_substitute_took_the_seat_is_answered_to_the_old_player(
    new_game, make_player
):
    from games.inbox.receive import mail_receive
    from games.models import InboundMail, Move, Seat
    from games.notifications.emails import email_build
    from games.services.seats import seat_claim, seat_seek

    gid, _seats, seat, p, mail, s = _setup(new_game)
    sub = make_player()
    seat_seek(game_id=gid, user=p.user, seeking=True)
    seat_claim(game_id=gid, user=sub.user, seat_no=seat)
    assert Seat.objects.get(game_id=gid, seat=seat).user == sub.user
    to = mail.extra_headers["Reply-To"]
    # A stranger holding the old email, with any From: the wrong-sender notice, to the old
    # player's address (their token, their email); the stranger learns nothing of the seat.
    got = mail_receive(_reply(to, OTHER, "pass"), via="pipe")
    assert (got.status, got.code, got.answered) == ("refused", "wrong_sender", True)
    warned = email_build(_answer(gid, p.user))
    assert warned is not None
    assert warned.to == [p.user.email]
    got = mail_receive(_reply(to, p.user.email, f"choose {s.market[0]}"), via="pipe")
    assert (got.status, got.code, got.answered) == ("refused", "seat_left", True)
    assert InboundMail.objects.latest("id").code == "seat_left"
    assert not Move.objects.filter(game_id=gid).exists()
    built = email_build(_answer(gid, p.user))
    assert built is not None
    assert built.to == [p.user.email]
    assert _sentence(gid, "en") in " ".join(built.body.split())
    # Nothing of the seat's position, which is the substitute's now.
    assert "What you can do" not in built.body
    assert "Reply-To" not in built.extra_headers
    assert "Since that email" not in built.body


def test_a_token_of_a_seat_never_held_is_still_ignored(new_game, make_player):
    """The token names a player who never held the seat (a lobby left before the start, or a
    token signed for someone else): ignored, not answered, as before."""
    from games.inbox.receive import mail_receive
    from games.inbox.tokens import reply_address
    from games.models import Game, Notification

    gid, _seats, seat, _p, _mail, _s = _setup(new_game)
    outsider = make_player()
    game = Game.objects.get(pk=gid)
    to = reply_address(game_id=gid, seat=seat, seq=game.seq, user_id=outsider.user.pk, hours=24)
    assert to is not None
    got = mail_receive(_reply(to, outsider.user.email, "pass"), via="pipe")
    assert (got.status, got.code, got.answered) == ("ignored", "no_game", False)
    assert not Notification.objects.filter(game_id=gid, kind="reply").exists()


@pytest.mark.parametrize("sender", [OTHER, None])
def test_a_stranger_with_a_former_holders_email_is_told_of_as_no_longer_moving(new_game, sender):
    """A reply with a resigned player's old token from another address (``wrong_sender``) or with
    no From (``no_sender``): the account is told, as the sender checks come first, but not that
    a turn email "can move for you" nor how to move: nothing moves for them in this game."""
    from games.inbox.receive import mail_receive
    from games.notifications.emails import email_build
    from games.services.seats import seat_resign

    gid, _seats, _seat, p, mail, _s = _setup(new_game)
    seat_resign(game_id=gid, user=p.user)
    raw = _reply(mail.extra_headers["Reply-To"], sender or "x@x.example", "pass")
    if sender is None:
        raw = raw.replace(b"From: Player <x@x.example>\r\n", b"")
    got = mail_receive(raw, via="pipe")
    assert (got.status, got.code) == ("refused", "wrong_sender" if sender else "no_sender")
    built = email_build(_answer(gid, p.user))
    assert built is not None
    assert built.to == [p.user.email]
    for text in (" ".join(built.body.split()), " ".join(built.alternatives[0][0].split())):
        assert "You no longer hold a seat in this game" in text
        assert "can move for you" not in text
        assert "make your move on the game page" not in text
        assert "add it on your account page" not in text


def test_the_current_holder_is_still_warned_that_a_turn_email_moves_for_them(new_game):
    from games.inbox.receive import mail_receive
    from games.notifications.emails import email_build

    gid, _seats, _seat, p, mail, _s = _setup(new_game)
    got = mail_receive(_reply(mail.extra_headers["Reply-To"], OTHER, "pass"), via="pipe")
    assert got.code == "wrong_sender"
    body = " ".join(email_build(_answer(gid, p.user)).body.split())
    assert "can move for you" in body
    assert "You no longer hold a seat in this game" not in body
