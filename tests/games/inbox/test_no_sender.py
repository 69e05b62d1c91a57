"""A reply with a good token whose ``From`` cannot be read (missing, two mailboxes, the
``alice@x)<mallory@y>`` pattern, a ``From :`` line the parser hides: ``games.inbox.sender``):
refused ``no_sender`` and the ACCOUNT's address is told, in its owner's language, that the reply
was not taken because its sender could not be read and what to do instead, under the refusals'
hourly cap; no address the message names ever gets a word or appears in the answer. A bounce, a
delivery report or any other automatic message without a readable From stays unanswered, as does
one whose token is missing or forged. And a reply our MTA's DMARC check failed
(``sender_not_authenticated``) is told what fits it: the From was the player's address, so the
advice is about how it was sent, not about adding an address."""

from __future__ import annotations

import pytest
from test_receive import _reply, _setup

pytestmark = pytest.mark.django_db

EVIL = "mallory@evil.test"
OTHER = "taro.work+pg@elsewhere.example"
AUTHSERV = "mx.pg.example"


@pytest.fixture(autouse=True)
def _catalogue():
    from tests.i18n_helpers import ensure_compiled

    ensure_compiled()


def _with_from(to: str, from_lines: bytes, body: str, *, headers: bytes = b"", n: int = 0) -> bytes:
    """A reply to ``to`` whose ``From:`` line(s) are exactly ``from_lines`` (raw bytes)."""
    raw = _reply(to, "placeholder@x.test", body, mid=f"<ns{n}.{id(from_lines)}@client.example>")
    return raw.replace(b"From: Player <placeholder@x.test>\r\n", from_lines + headers)


def _odd_froms(player: str) -> list[tuple[str, bytes]]:
    p, e = player.encode(), EVIL.encode()
    return [
        ("no From", b""),
        ("two mailboxes", b"From: " + p + b", " + e + b"\r\n"),
        ("CVE-2023-27043 parenthesis", b"From: " + p + b")<" + e + b">\r\n"),
        ("From space colon", b"From : " + e + b"\r\nFrom: " + p + b"\r\n"),
        ("From space colon alone", b"From : " + p + b"\r\n"),
    ]


def _words(gid: int, account: str, lang: str) -> dict[str, str]:
    """The no_sender answer's subject and sentences as the catalogue has them in ``lang``."""
    from django.utils import translation

    from games.models import Game
    from games.notifications.emails import map_name

    with translation.override(lang):
        ids = {"id": gid, "map": map_name(Game.objects.get(pk=gid).map)}
        g = translation.gettext
        return {
            "subject": g(
                "[Power Grid] A reply without a readable sender was not taken in game "
                "#%(id)s (%(map)s)"
            )
            % ids,
            "head": g(
                "A reply to your turn email for game #%(id)s (%(map)s) was not taken because "
                "its sender could not be read; nothing was changed."
            )
            % ids,
            "only": g(
                "Moves by email are taken only from %(account)s and the other addresses you "
                "have confirmed on your account page."
            )
            % {"account": account},
            "advice": g(
                "If you wrote it, reply from your own address with an ordinary mail program, "
                "or make your move on the game page."
            ),
            "not_you": g(
                "If you did not write it, someone else has one of your turn emails. That reply "
                "changed nothing, but whoever holds a turn email can move for you with its "
                "one-tap links, and perhaps by a reply that gives your address as its sender. "
                "Do not forward your turn emails: their reply address and links are your key to "
                "the game."
            ),
            "add": g(
                "If you wrote from another address of your own, add it on your account page and "
                "confirm it:"
            ),
            "label": g("Open the game (this link logs you in; it expires):"),
            "dmarc": g(
                "If you wrote it, send your reply from your mail provider's own service (its "
                "website, its app, or a mail program set up with its server), not through a "
                "third-party sending service, or make your move on the game page."
            ),
        }


def _answers(gid: int):
    from games.models import Notification

    return Notification.objects.filter(game_id=gid, kind="reply")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_unreadable_from_is_told_to_the_account_and_never_to_the_message(new_game, lang):
    """Each odd From, with the player's good token: nothing moves, and the account's address
    (only it) is told why and what to do; no address of the message reaches the answer."""
    from games.inbox.receive import mail_receive
    from games.models import Game, InboundMail, Move
    from games.notifications.emails import email_build

    gid, seats, seat, p, mail, s = _setup(new_game)
    p.user.profile.language = lang
    p.user.profile.save()
    to = mail.extra_headers["Reply-To"]
    words = _words(gid, p.user.email, lang)
    others = [x.user.email for x in seats.values() if x is not p]
    for i, (what, lines) in enumerate(_odd_froms(p.user.email)):
        raw = _with_from(to, lines, f"choose {s.market[0]}\n\nSECRET-WORDS-7731", n=i)
        got = mail_receive(raw, via="pipe")
        assert (got.status, got.code, got.answered) == ("refused", "no_sender", True), what
        row = InboundMail.objects.latest("id")
        assert (row.status, row.code, row.sender, row.seat, row.line) == (
            "refused", "no_sender", "", seat, ""
        ), what  # fmt: skip
        assert not Move.objects.filter(game_id=gid).exists(), what
        assert Game.objects.get(pk=gid).seq == 0
        answer = _answers(gid).latest("id")
        assert answer.recipient == p.user, what
        built = email_build(answer)
        assert built is not None, what
        assert built.to == [p.user.email], what
        assert not built.cc
        assert not built.bcc
        assert "Reply-To" not in built.extra_headers  # nothing to answer with
        assert built.subject == words["subject"], what
        html = " ".join(built.alternatives[0][0].split())
        lines_ = [x for x in built.body.split("\n-- \n")[0].splitlines()[1:] if x]
        assert lines_[:-1] == [
            words["head"], words["only"], words["advice"], words["not_you"], words["label"]
        ], (what, built.body)  # fmt: skip
        assert lines_[-1].startswith("http")
        for key in ("head", "advice", "not_you"):
            assert words[key] in html, (what, key)
        for part in (built.body, html):
            for unwanted in (EVIL, "SECRET-WORDS", "choose", words["add"], *others):
                assert unwanted not in part, (what, unwanted)
    assert _answers(gid).count() == len(_odd_froms(p.user.email))


def test_a_former_seat_holder_without_a_readable_from_is_told_too(new_game, make_player):
    """A substitute took the seat: the token's player (whom the seat's row no longer names) is
    the one told; the substitute hears nothing."""
    from games.inbox.receive import mail_receive
    from games.notifications.emails import email_build
    from games.services.seats import seat_claim, seat_seek

    gid, _seats, seat, p, mail, _s = _setup(new_game)
    sub = make_player()
    seat_seek(game_id=gid, user=p.user, seeking=True)
    seat_claim(game_id=gid, user=sub.user, seat_no=seat)
    lines = b"From: " + p.user.email.encode() + b", " + EVIL.encode() + b"\r\n"
    got = mail_receive(_with_from(mail.extra_headers["Reply-To"], lines, "pass"), via="pipe")
    assert (got.status, got.code, got.answered) == ("refused", "no_sender", True)
    answer = _answers(gid).get()
    assert answer.recipient == p.user
    built = email_build(answer)
    assert built is not None
    assert built.to == [p.user.email]
    assert _words(gid, p.user.email, "en")["head"] in built.body
    assert "What you can do" not in built.body


def test_no_sender_answers_share_the_cap_with_wrong_sender(new_game, settings):
    from games.inbox.receive import mail_receive
    from games.models import InboundMail

    settings.INBOUND_REFUSALS_ANSWERED_PER_HOUR = 2
    gid, _seats, _seat, _p, mail, _s = _setup(new_game)
    to = mail.extra_headers["Reply-To"]
    got = [mail_receive(_reply(to, OTHER, "pass", mid="<w0@x>"), via="pipe")]
    got += [mail_receive(_with_from(to, b"", "pass", n=100 + i), via="pipe") for i in range(3)]
    assert [(g.code, g.answered) for g in got] == [
        ("wrong_sender", True), ("no_sender", True), ("no_sender", False), ("no_sender", False)
    ]  # fmt: skip
    assert _answers(gid).count() == 2
    assert InboundMail.objects.filter(code="no_sender", status="refused").count() == 3


@pytest.mark.parametrize(
    ("what", "headers", "subject", "code"),
    [
        ("Return-Path <>", b"Return-Path: <>\r\n", "", "bounce"),
        ("delivery report", b"", "", "bounce"),
        ("Auto-Submitted", b"Auto-Submitted: auto-replied\r\n", "", "auto_submitted"),
        ("Precedence", b"Precedence: junk\r\n", "", "bulk"),
        ("X-Autoreply", b"X-Autoreply: yes\r\n", "", "auto_reply"),
        # Read after the From before: an out-of-office without a From was logged no_sender; now
        # it must be known automatic before a From-less reply is answered.
        ("out-of-office subject", b"", "Out of Office: your turn", "auto_reply"),
        ("returned mail subject", b"", "Undelivered Mail Returned to Sender", "auto_reply"),
    ],
)
def test_automatic_mail_without_a_readable_from_is_never_answered(
    new_game, what, headers, subject, code
):
    from games.inbox.receive import mail_receive
    from games.models import InboundMail

    gid, _seats, _seat, p, mail, _s = _setup(new_game)
    lines = b"From: " + p.user.email.encode() + b", " + EVIL.encode() + b"\r\n"
    raw = _with_from(mail.extra_headers["Reply-To"], lines, "pass", headers=headers)
    if subject:
        raw = raw.replace(b"Subject: Re: your turn", f"Subject: {subject}".encode())
    if what == "delivery report":
        raw = raw.replace(
            b"Content-Type: text/plain; charset=utf-8",
            b'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
        )
    got = mail_receive(raw, via="pipe")
    assert (got.status, got.code, got.answered) == ("ignored", code, False), what
    assert InboundMail.objects.get().code == code
    assert not _answers(gid).exists()


def test_an_empty_envelope_sender_by_lmtp_is_a_bounce(new_game):
    """``MAIL FROM:<>`` through the LMTP service (its ``Return-Path: <>``), no From at all."""
    from games.inbox.intake import inbound_process, intake_store
    from games.inbox.lmtp import return_path

    gid, _seats, _seat, _p, mail, _s = _setup(new_game)
    to = mail.extra_headers["Reply-To"]
    stored = intake_store(return_path("") + _with_from(to, b"", "pass"), recipient=to)
    assert inbound_process(stored.row_id) == "ignored bounce"
    assert not _answers(gid).exists()


def test_no_readable_from_and_no_good_token_is_ignored_unanswered(new_game, make_player):
    """Nobody to tell: no token, a forged one, a seat never held; and an account with no
    address. Logged ``no_sender`` (the reason an operator looks for), not answered."""
    from games.inbox.receive import mail_receive
    from games.inbox.tokens import reply_address
    from games.models import Game, InboundMail, Notification

    gid, _seats, seat, p, mail, _s = _setup(new_game)
    to = mail.extra_headers["Reply-To"]
    token = to.split("+", 1)[1].split("@")[0]
    forged = to.replace(token, token[:10] + ("a" if token[10] != "a" else "b") + token[11:])
    outsider = make_player()
    never = reply_address(
        game_id=gid, seat=seat, seq=Game.objects.get(pk=gid).seq, user_id=outsider.user.pk,
        hours=24,
    )  # fmt: skip
    assert never is not None
    for i, address in enumerate(("nobody@reply.localhost", forged, never)):
        got = mail_receive(_with_from(address, b"", "pass", n=200 + i), via="pipe")
        assert (got.status, got.code, got.answered) == ("ignored", "no_sender", False), address
    type(p.user).objects.filter(pk=p.user.pk).update(email="")
    got = mail_receive(_with_from(to, b"", "pass", n=300), via="pipe")
    assert (got.status, got.code, got.answered) == ("ignored", "no_sender", False)
    assert InboundMail.objects.filter(code="no_sender", status="ignored").count() == 4
    assert not Notification.objects.filter(kind="reply").exists()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_dmarc_failure_is_told_how_to_send_not_to_add_an_address(new_game, settings, lang):
    """The From was the account's own address: "add your other address" does not fit. The
    answer says to send from the mail provider's own service or play on the page, and keeps the
    warning that someone may hold a turn email."""
    from games.inbox.receive import mail_receive
    from games.notifications.emails import email_build

    settings.INBOUND_AUTHSERV_ID = AUTHSERV
    gid, _seats, _seat, p, mail, s = _setup(new_game)
    p.user.profile.language = lang
    p.user.profile.save()
    headers = (
        b"Return-Path: <" + EVIL.encode() + b">\r\n"
        b"Authentication-Results: " + AUTHSERV.encode() + b"; dmarc=fail header.from=x\r\n"
    )
    lines = f"From: {p.user.email}\r\n".encode()
    raw = _with_from(mail.extra_headers["Reply-To"], lines, f"choose {s.market[0]}",
                     headers=headers)  # fmt: skip
    got = mail_receive(raw, via="lmtp")
    assert (got.status, got.code, got.answered) == ("refused", "sender_not_authenticated", True)
    built = email_build(_answers(gid).get())
    assert built is not None
    assert built.to == [p.user.email]
    words = _words(gid, p.user.email, lang)
    html = " ".join(built.alternatives[0][0].split())
    for part in (built.body, html):
        assert words["dmarc"] in part
        assert words["not_you"] in " ".join(part.split())
        assert words["add"] not in part
        assert words["advice"] not in part
        assert EVIL not in part
