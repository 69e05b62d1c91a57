"""The refusals' hourly cap (``INBOUND_REFUSALS_ANSWERED_PER_HOUR``) is counted by the account
answered and the game (``InboundMail.user``), not by the seat: after a substitute took a seat,
refusals of replies with the former holder's old token (theirs, or a stranger's with a forwarded
email) used up the substitute's answers for the hour, and the other way round. The safety net
(``receive._answer_failed``) answered every crashing message, without the cap and without the
DMARC check: a message resent with new Message-IDs got an answer each time, and a forged From
that DMARC failed got "not understood" sent to the player it named."""

from __future__ import annotations

import pytest
from test_receive import _reply, _setup

pytestmark = pytest.mark.django_db

STRANGER = "stranger@elsewhere.example"
AUTHSERV = "mx.pg.example"


def _send(to: str, sender: str, body: str, tag: str, *, headers: str = ""):
    from games.inbox.receive import mail_receive

    raw = _reply(to, sender, body, mid=f"<{tag}@x.example>", headers=headers)
    return mail_receive(raw, via="pipe")


def _answers(gid: int, user) -> int:
    from games.models import Notification

    return Notification.objects.filter(game_id=gid, kind="reply", recipient=user).count()


def _substituted(new_game, make_player):
    """A game whose awaited seat a substitute took: (game id, seat, former holder, the former
    holder's turn email's reply address, substitute, a reply address of the substitute's)."""
    from games.inbox.tokens import reply_address
    from games.models import Game, Seat
    from games.services.seats import seat_claim, seat_seek

    gid, _seats, seat, p, mail, _s = _setup(new_game)
    sub = make_player()
    seat_seek(game_id=gid, user=p.user, seeking=True)
    seat_claim(game_id=gid, user=sub.user, seat_no=seat)
    assert Seat.objects.get(game_id=gid, seat=seat).user == sub.user
    seq = Game.objects.get(pk=gid).seq
    sub_to = reply_address(game_id=gid, seat=seat, seq=seq, user_id=sub.user.pk, hours=24)
    assert sub_to is not None
    return gid, seat, p, mail.extra_headers["Reply-To"], sub, sub_to


def test_a_former_holders_refusals_do_not_use_up_the_substitutes_answers(
    new_game, make_player, settings
):
    """The former holder's old token, written to by a stranger (a forwarded email) and by the
    former holder: their answers run out; the substitute's own refusals, at the same seat in
    the same hour, are still answered, and then theirs run out too."""
    from games.models import InboundMail

    settings.INBOUND_REFUSALS_ANSWERED_PER_HOUR = 2
    gid, seat, p, old_to, sub, sub_to = _substituted(new_game, make_player)
    former = [
        _send(old_to, STRANGER, "pass", "s0"),  # wrong_sender, told to the former holder
        _send(old_to, p.user.email, "pass", "p0"),  # seat_left
        _send(old_to, p.user.email, "pass", "p1"),
    ]
    assert [(g.code, g.answered) for g in former] == [
        ("wrong_sender", True),
        ("seat_left", True),
        ("seat_left", False),
    ]
    assert _answers(gid, p.user) == 2
    assert _answers(gid, sub.user) == 0
    substitute = [_send(sub_to, sub.user.email, "I am away", f"u{i}") for i in range(3)]
    assert [(g.status, g.answered) for g in substitute] == [
        ("refused", True),
        ("refused", True),
        ("refused", False),
    ]
    assert _answers(gid, sub.user) == 2
    # And the other way round: the substitute's spent cap leaves the former holder's as it was.
    assert _answers(gid, p.user) == 2
    rows = InboundMail.objects.filter(game_id=gid, seat=seat, status="refused")
    assert rows.count() == 6
    assert rows.filter(user=p.user).count() == 3
    assert rows.filter(user=sub.user).count() == 3


def test_the_admin_lists_whose_token_a_message_carried(new_game, admin_client):
    """The admin's list of received mail has the account column the cap counts by."""
    _gid, _seats, _seat, p, mail, _s = _setup(new_game)
    _send(mail.extra_headers["Reply-To"], STRANGER, "pass", "adm")
    page = admin_client.get("/admin/games/inboundmail/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "column-user" in html
    assert str(p.user) in html


def test_the_cap_still_holds_for_one_account(new_game, settings):
    """Every refusal told to the same account counts, whoever wrote the message: the cap's
    number are answered, the next one is logged, not answered."""
    from games.models import InboundMail

    settings.INBOUND_REFUSALS_ANSWERED_PER_HOUR = 3
    gid, _seats, _seat, p, mail, _s = _setup(new_game)
    to = mail.extra_headers["Reply-To"]
    got = [
        _send(to, p.user.email, "I am away", "a0"),
        _send(to, STRANGER, "pass", "a1"),
        _send(to, p.user.email, "plese wait", "a2"),
        _send(to, p.user.email, "I am away", "a3"),
    ]
    assert [g.answered for g in got] == [True, True, True, False]
    assert all(g.status == "refused" for g in got)
    assert _answers(gid, p.user) == 3
    assert InboundMail.objects.filter(game_id=gid, user=p.user, status="refused").count() == 4


def test_rows_without_a_user_do_not_count(new_game, settings):
    """Rows logged before ``InboundMail.user`` was kept name no account: the cap is not held
    against anyone for them (as the docstring of ``receive._refused_lately`` says)."""
    from games.models import InboundMail

    settings.INBOUND_REFUSALS_ANSWERED_PER_HOUR = 2
    gid, _seats, seat, p, mail, _s = _setup(new_game)
    for i in range(3):
        InboundMail.objects.create(
            message_id=f"<old{i}@x>", game_id=gid, seat=seat, status="refused", code="x"
        )
    got = _send(mail.extra_headers["Reply-To"], p.user.email, "I am away", "n0")
    assert (got.status, got.answered) == ("refused", True)


@pytest.fixture
def breakable(monkeypatch):
    """``breakable.on = True``: the handler raises whatever the message (a bug), so the safety
    net (``receive._failed``) handles it; off, the handler works as it does."""
    from games.inbox import receive

    real = receive._handle

    class Switch:
        on = False

    def handle(*args, **kwargs):
        if Switch.on:
            raise RuntimeError("a bug in the handler")
        return real(*args, **kwargs)

    monkeypatch.setattr(receive, "_handle", handle)
    return Switch


def test_a_crashing_message_resent_is_answered_at_most_the_cap(new_game, settings, breakable):
    from games.models import InboundMail

    settings.INBOUND_REFUSALS_ANSWERED_PER_HOUR = 3
    breakable.on = True
    gid, _seats, _seat, p, mail, _s = _setup(new_game)
    to = mail.extra_headers["Reply-To"]
    got = [_send(to, p.user.email, "pass", f"crash{i}") for i in range(20)]
    assert all((g.status, g.code) == ("failed", "not_understood") for g in got)
    assert [g.answered for g in got] == [True] * 3 + [False] * 17
    assert _answers(gid, p.user) == 3
    rows = InboundMail.objects.filter(status="failed")
    assert rows.count() == 20
    assert rows.filter(user=p.user, game_id=gid).count() == 20


def test_refusals_and_failed_messages_share_the_cap(new_game, settings, breakable):
    settings.INBOUND_REFUSALS_ANSWERED_PER_HOUR = 2
    gid, _seats, _seat, p, mail, _s = _setup(new_game)
    to = mail.extra_headers["Reply-To"]
    assert _send(to, p.user.email, "I am away", "m0").answered
    breakable.on = True
    assert [_send(to, p.user.email, "pass", f"m{i}").answered for i in (1, 2)] == [True, False]
    breakable.on = False
    got = _send(to, p.user.email, "I am away", "m3")
    assert (got.status, got.answered) == ("refused", False)
    assert _answers(gid, p.user) == 2


@pytest.mark.parametrize(
    ("headers", "answered"),
    [
        (f"Authentication-Results: {AUTHSERV}; dmarc=pass header.from=x\r\n", True),
        (f"Authentication-Results: {AUTHSERV}; dmarc=fail (p=reject) header.from=x\r\n", False),
        ("Authentication-Results: other.example; dmarc=fail header.from=x\r\n", True),
        ("Auto-Submitted: auto-replied\r\n", False),
    ],
    ids=["dmarc-pass", "dmarc-fail", "someone-elses-fail", "automatic"],
)
def test_the_safety_net_obeys_the_normal_paths_sender_rules(
    new_game, settings, breakable, headers, answered
):
    """A message our MTA's DMARC check failed (the From is the player's, forged) or an automatic
    one gets no "not understood" when its handling crashes, as the normal path would answer
    neither with anything of it; a DMARC pass, or a fail from an authserv-id not ours, is."""
    from games.models import InboundMail

    settings.INBOUND_AUTHSERV_ID = AUTHSERV
    breakable.on = True
    gid, _seats, _seat, p, mail, _s = _setup(new_game)
    got = _send(mail.extra_headers["Reply-To"], p.user.email, "pass", "d0", headers=headers)
    assert (got.status, got.answered) == ("failed", answered)
    assert _answers(gid, p.user) == (1 if answered else 0)
    row = InboundMail.objects.get()
    assert (row.status, row.user, row.game_id) == ("failed", p.user, gid)
