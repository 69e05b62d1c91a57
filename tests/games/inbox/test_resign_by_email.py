"""Leaving a game by email is two steps: a ``resign`` reply to any email of the game (a turn email,
the game-started email, an old one) changes nothing and asks the ACCOUNT's address to confirm;
only ``resign`` sent back to that answer (a reply token of kind ``RESIGN``, good 24 hours) leaves
the game, once. Anyone holding a forwarded email, or writing a forged From line, never sees the
confirmation. The confirming token does nothing else: a move sent to it is refused."""

from __future__ import annotations

import pytest
from test_receive import _reply, _setup

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _catalogue():
    from tests.i18n_helpers import ensure_compiled

    ensure_compiled()


def _seat(gid, seat):
    from games.models import Seat

    return Seat.objects.get(game_id=gid, seat=seat)


def _answers(gid):
    from games.models import Notification

    return list(Notification.objects.filter(game_id=gid, kind="reply").order_by("pk"))


def _token_of(address: str):
    from games.inbox.receive import _token
    from games.inbox.tokens import read_token

    msg = __import__("email").message_from_string(f"To: {address}\n\n")
    token = _token(msg, None)
    assert token is not None
    return read_token(token)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_first_resign_changes_nothing_and_asks_the_account_to_confirm(new_game, lang):
    from django.utils import translation

    from games.inbox.receive import mail_receive
    from games.inbox.tokens import ORDINARY, RESIGN
    from games.models import Game
    from games.notifications.emails import email_build, map_name

    gid, _seats, seat, p, mail, _s = _setup(new_game)
    p.user.profile.language = lang
    p.user.profile.save()
    before = Game.objects.get(pk=gid).seq
    assert _token_of(mail.extra_headers["Reply-To"]).kind == ORDINARY
    got = mail_receive(_reply(mail.extra_headers["Reply-To"], p.user.email, "resign"), via="pipe")
    assert (got.status, got.code, got.answered) == ("refused", "resign_confirm", True)
    me = _seat(gid, seat)
    assert (me.offered, me.bot_controlled) == ("", False)
    assert Game.objects.get(pk=gid).seq == before
    (answer,) = _answers(gid)
    assert answer.recipient_id == p.user.pk  # the account, never the sender
    built = email_build(answer)
    assert built.to == [p.user.email]
    token = _token_of(built.extra_headers["Reply-To"])
    assert (token.kind, token.game_id, token.seat, token.user_id) == (
        RESIGN,
        gid,
        seat,
        p.user.pk,
    )
    with translation.override(lang):
        ids = {"id": gid, "map": map_name(Game.objects.get(pk=gid).map)}
        text = translation.gettext(
            "To leave game #%(id)s (%(map)s) for good, reply resign to this email within "
            "%(hours)s hours; the %(bot)s then plays your seat. If you did not ask, do nothing: "
            "nothing was changed."
        ) % {**ids, "hours": 24, "bot": translation.gettext("Heuristic bot")}
        subject = translation.gettext("[Power Grid] Confirm leaving game #%(id)s (%(map)s)")
    assert text in " ".join(built.body.split()), built.body
    assert subject % ids in built.subject
    assert "What you can do" not in built.body  # no moves offered: this address confirms only


def test_the_confirming_reply_resigns_once(new_game):
    from games.inbox.receive import mail_receive
    from games.models import Notification
    from games.notifications.emails import email_build

    gid, seats, seat, p, mail, _s = _setup(new_game)
    mail_receive(_reply(mail.extra_headers["Reply-To"], p.user.email, "resign"), via="pipe")
    confirm = email_build(_answers(gid)[0]).extra_headers["Reply-To"]
    got = mail_receive(_reply(confirm, p.user.email, "投了"), via="pipe")
    assert got.status == "applied", got
    me = _seat(gid, seat)
    assert (me.offered, me.bot_controlled) == ("left", True)
    assert "You left game #" in email_build(_answers(gid)[-1]).body
    told = Notification.objects.filter(game_id=gid, kind="seat").count()
    assert told == len(seats) - 1  # the others told once
    again = mail_receive(_reply(confirm, p.user.email, "resign"), via="pipe")
    assert (again.status, again.code) == ("refused", "seat_left")  # said before "used"
    assert Notification.objects.filter(game_id=gid, kind="seat").count() == told


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_answer_to_a_completed_resignation_is_titled_for_leaving(new_game, lang):
    """The answer to the confirming ``resign`` says in its subject that the player left, not
    that a move was recorded (it was titled "Move recorded": leaving is no move of the log's)."""
    from django.utils import translation

    from games.inbox.receive import mail_receive
    from games.models import Game
    from games.notifications.emails import email_build, map_name

    gid, _seats, _seat, p, mail, _s = _setup(new_game)
    p.user.profile.language = lang
    p.user.profile.save()
    mail_receive(_reply(mail.extra_headers["Reply-To"], p.user.email, "resign"), via="pipe")
    confirm = email_build(_answers(gid)[0]).extra_headers["Reply-To"]
    assert mail_receive(_reply(confirm, p.user.email, "resign"), via="pipe").status == "applied"
    built = email_build(_answers(gid)[-1])
    with translation.override(lang):
        ids = {"id": gid, "map": map_name(Game.objects.get(pk=gid).map)}
        left = translation.gettext("[Power Grid] You have left game #%(id)s (%(map)s)") % ids
        recorded = translation.gettext("[Power Grid] Move recorded in game #%(id)s (%(map)s)")
    assert built.subject == left
    assert built.subject != recorded % ids
    assert "Move recorded" not in built.subject
    assert "Take back" not in built.body  # leaving is not a move to take back


def test_resign_to_an_ordinary_email_twice_still_changes_nothing(new_game):
    from games.inbox.receive import mail_receive
    from games.inbox.tokens import reply_address
    from games.models import Game

    gid, _seats, seat, p, mail, _s = _setup(new_game)
    game = Game.objects.get(pk=gid)
    # The turn email, and an older one (the game-started email's kind of token)
    older = reply_address(game_id=gid, seat=seat, seq=0, user_id=p.user.pk, hours=48)
    for to in (mail.extra_headers["Reply-To"], mail.extra_headers["Reply-To"], older):
        got = mail_receive(_reply(to, p.user.email, "Resign."), via="pipe")
        assert (got.status, got.code) == ("refused", "resign_confirm")
    me = _seat(gid, seat)
    assert (me.offered, me.bot_controlled) == ("", False)
    assert Game.objects.get(pk=gid).seq == game.seq
    assert len(_answers(gid)) == 3  # each answered to the account (under the refusals' cap)
    # A reply from another address gets no confirmation at all: only the wrong-sender notice.
    got = mail_receive(_reply(older, "forger@evil.example", "resign"), via="pipe")
    assert got.code == "wrong_sender"
    assert _seat(gid, seat).offered == ""


@pytest.mark.parametrize("body", ["pass", "ok", "resign now", "choose {plant}"])
def test_the_confirming_token_used_for_anything_else_is_refused(new_game, body):
    from games.inbox.receive import mail_receive
    from games.models import Game, Move, SheetAnswer
    from games.notifications.emails import email_build

    gid, _seats, seat, p, mail, s = _setup(new_game)
    mail_receive(_reply(mail.extra_headers["Reply-To"], p.user.email, "resign"), via="pipe")
    confirm = email_build(_answers(gid)[0]).extra_headers["Reply-To"]
    text = body.format(plant=s.market[0])
    got = mail_receive(_reply(confirm, p.user.email, text), via="pipe")
    assert got.status == "refused", got
    assert got.code in ("resign_only", "unknown_command"), got
    assert _seat(gid, seat).offered == ""
    assert Game.objects.get(pk=gid).seq == 0
    assert not Move.objects.filter(game_id=gid).exists()
    assert not SheetAnswer.objects.exists()
    # and the token is not spent: a resign to it still confirms
    assert mail_receive(_reply(confirm, p.user.email, "resign"), via="pipe").status == "applied"


def test_an_expired_confirming_token_is_refused(new_game, monkeypatch):
    import time

    from games.inbox import receive
    from games.notifications.emails import email_build

    gid, _seats, seat, p, mail, _s = _setup(new_game)
    receive.mail_receive(_reply(mail.extra_headers["Reply-To"], p.user.email, "resign"), via="pipe")
    confirm = email_build(_answers(gid)[0]).extra_headers["Reply-To"]
    monkeypatch.setattr(receive, "_now", lambda: time.time() + 24 * 3600 + 60)
    got = receive.mail_receive(_reply(confirm, p.user.email, "resign"), via="pipe")
    assert (got.status, got.code) == ("refused", "token_expired")
    assert _seat(gid, seat).offered == ""


def test_old_tokens_stay_good_and_a_kind_cannot_be_forged():
    from games.inbox.tokens import ORDINARY, RESIGN, BadToken, make_token, read_token

    old = make_token(game_id=7, seat=2, seq=41, user_id=3, expires=2_000_000_000, key=b"k")
    assert read_token(old, key=b"k", now=1).kind == ORDINARY
    confirm = make_token(
        game_id=7, seat=2, seq=41, user_id=3, expires=2_000_000_000, key=b"k", kind=RESIGN
    )
    assert read_token(confirm, key=b"k", now=1).kind == RESIGN
    # an ordinary token with a kind byte glued on, or the kind byte changed: forged
    raw = __import__("base64").b32decode(old.upper() + "=" * (-len(old) % 8))
    glued = __import__("base64").b32encode(raw[:17] + b"\x01" + raw[17:]).decode()
    with pytest.raises(BadToken):
        read_token(glued.rstrip("=").lower(), key=b"k", now=1)
    zero = make_token(
        game_id=7, seat=2, seq=41, user_id=3, expires=2_000_000_000, key=b"k", kind=ORDINARY
    )
    assert zero == old
