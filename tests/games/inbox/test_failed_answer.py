"""The safety net (``receive._failed``): a message whose handling raises is kept, and the token's
player is answered when it came from their address, found as the normal path finds them
(``receive._holder``). A player a substitute replaced (whom the seat's row no longer names) got
no answer at all; now they are told they no longer hold the seat, as a reply after leaving is,
with nothing of the seat's position. A current player is answered "not understood"; a stranger
writing with the token is answered nothing."""

from __future__ import annotations

import pytest
from test_receive import _reply, _setup

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _catalogue():
    from tests.i18n_helpers import ensure_compiled

    ensure_compiled()


@pytest.fixture
def broken(monkeypatch):
    """The handler raises whatever the message (a bug), after the safety net is in place."""
    from games.inbox import receive

    def boom(*args, **kwargs):
        raise RuntimeError("a bug in the handler")

    monkeypatch.setattr(receive, "_handle", boom)


def _seat_left_sentence(gid: int, lang: str) -> str:
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


def _not_understood(lang: str) -> str:
    from django.utils import translation

    from games.inbox.receive import NOT_UNDERSTOOD
    from games.web.errors import error_text

    with translation.override(lang):
        text = str(error_text("not_understood", NOT_UNDERSTOOD))
    assert text
    return text


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("how", ["substitute", "resigned"])
def test_a_player_who_left_the_seat_is_answered_when_the_handler_fails(
    new_game, make_player, broken, how, lang
):
    from games.inbox.receive import mail_receive
    from games.models import Game, InboundMail, Notification, Seat
    from games.notifications.emails import email_build
    from games.services.seats import seat_claim, seat_resign, seat_seek

    gid, _seats, seat, p, mail, s = _setup(new_game)
    p.user.profile.language = lang
    p.user.profile.save()
    sub = make_player()
    if how == "substitute":
        seat_seek(game_id=gid, user=p.user, seeking=True)
        seat_claim(game_id=gid, user=sub.user, seat_no=seat)
        assert Seat.objects.get(game_id=gid, seat=seat).user == sub.user
    else:
        seat_resign(game_id=gid, user=p.user)
    seq = Game.objects.get(pk=gid).seq
    raw = _reply(mail.extra_headers["Reply-To"], p.user.email, f"choose {s.market[0]}")
    got = mail_receive(raw, via="pipe")
    assert (got.status, got.code, got.answered) == ("failed", "not_understood", True)
    row = InboundMail.objects.get()
    assert (row.status, row.code, row.seat, row.game_id) == ("failed", "not_understood", seat, gid)
    assert bytes(row.raw) == raw
    assert Game.objects.get(pk=gid).seq == seq
    answer = Notification.objects.get(kind="reply")
    assert answer.recipient == p.user
    assert not Notification.objects.filter(kind="reply", recipient=sub.user).exists()
    built = email_build(answer)
    assert built is not None
    assert built.to == [p.user.email]
    sentence = _seat_left_sentence(gid, lang)
    assert sentence in " ".join(built.body.split()), built.body
    assert sentence in " ".join(built.alternatives[0][0].split())
    assert _not_understood(lang) not in built.body  # "reply with one move": not theirs to make
    for unwanted in ("What you can do", "Since that email", "“"):
        assert unwanted not in built.body
    assert "Reply-To" not in built.extra_headers


def test_a_current_player_is_answered_not_understood_when_the_handler_fails(new_game, broken):
    from games.inbox.receive import mail_receive
    from games.models import InboundMail, Notification
    from games.notifications.emails import email_build

    gid, _seats, seat, p, mail, _s = _setup(new_game)
    got = mail_receive(_reply(mail.extra_headers["Reply-To"], p.user.email, "pass"), via="pipe")
    assert (got.status, got.code, got.answered) == ("failed", "not_understood", True)
    assert InboundMail.objects.get().seat == seat
    answer = Notification.objects.get(kind="reply")
    assert answer.recipient == p.user
    assert "left" not in answer.payload
    built = email_build(answer)
    assert built is not None
    assert built.to == [p.user.email]
    assert _not_understood("en") in " ".join(built.body.split())
    assert _seat_left_sentence(gid, "en") not in " ".join(built.body.split())
    assert "What you can do" in built.body  # still their turn: the answer asks it


def test_a_stranger_gets_nothing_when_the_handler_fails(new_game, make_player, broken):
    from games.inbox.receive import mail_receive
    from games.models import InboundMail, Notification
    from games.services.seats import seat_claim, seat_seek

    gid, _seats, seat, p, mail, _s = _setup(new_game)
    sub = make_player()
    seat_seek(game_id=gid, user=p.user, seeking=True)
    seat_claim(game_id=gid, user=sub.user, seat_no=seat)
    to = mail.extra_headers["Reply-To"]
    # Neither a stranger's address nor the substitute's speaks for the token's player.
    for i, sender in enumerate(("stranger@elsewhere.example", sub.user.email)):
        got = mail_receive(_reply(to, sender, "pass", mid=f"<f{i}@x>"), via="pipe")
        assert (got.status, got.answered) == ("failed", False), sender
    assert InboundMail.objects.filter(status="failed").count() == 2
    assert not Notification.objects.filter(kind="reply").exists()
