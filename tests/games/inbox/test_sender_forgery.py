"""Who a reply is from, read strictly (``games.inbox.sender``), and what our MTA's DMARC check
says of it (``games.inbox.authres``, ``INBOUND_AUTHSERV_ID``): every From trick an outside
attacker tried with a player's token moves nothing for that player; a confirmed UTF-8 address
moves; an unreadable message is logged, not lost."""

from __future__ import annotations

import pytest
from test_receive import _reply, _setup

pytestmark = pytest.mark.django_db

EVIL = "mallory@evil.test"


def _with_from(to: str, from_lines: bytes, body: str, *, headers: bytes = b"") -> bytes:
    """A reply to ``to`` whose ``From:`` line(s) are exactly ``from_lines`` (raw bytes)."""
    raw = _reply(to, "placeholder@x.test", body)
    return raw.replace(b"From: Player <placeholder@x.test>\r\n", from_lines + headers)


def _attacks(victim: str) -> list[tuple[str, bytes, bytes]]:
    """(what, From lines, other headers): each with the victim's token, none the victim's."""
    v, e = victim.encode(), EVIL.encode()
    return [
        ("CVE-2023-27043 parenthesis", b"From: " + v + b")<" + EVIL.encode() + b">\r\n", b""),
        ("two mailboxes", b"From: " + v + b", " + EVIL.encode() + b"\r\n", b""),
        ("two mailboxes, victim second", b"From: " + EVIL.encode() + b", " + v + b"\r\n", b""),
        ("address after address", b"From: " + v + b" <" + EVIL.encode() + b">\r\n", b""),
        ("address as display name", b'From: "' + v + b'" <' + EVIL.encode() + b">\r\n", b""),
        ("address in a comment", b"From: " + EVIL.encode() + b" (" + v + b")\r\n", b""),
        (
            "encoded word as display name",
            b"From: =?utf-8?q?" + v.replace(b"@", b"=40") + b"?= <" + EVIL.encode() + b">\r\n",
            b"",
        ),
        ("encoded word alone", b"From: =?utf-8?q?" + v.replace(b"@", b"=40") + b"?=\r\n", b""),
        ("two From fields", b"From: " + v + b"\r\nFrom: " + EVIL.encode() + b"\r\n", b""),
        ("two From fields, victim second", b"From: " + e + b"\r\nFrom: " + v + b"\r\n", b""),
        ("group syntax", b"From: friends: " + v + b";\r\n", b""),
        ("group with two", b"From: friends: " + v + b", " + EVIL.encode() + b";\r\n", b""),
        ("Sender names the victim", b"From: " + e + b"\r\n", b"Sender: " + v + b"\r\n"),
        ("Reply-To names the victim", b"From: " + e + b"\r\n", b"Reply-To: " + v + b"\r\n"),
        ("no From, Sender names the victim", b"", b"Sender: " + v + b"\r\n"),
        ("folded trick", b"From: " + v + b",\r\n " + EVIL.encode() + b"\r\n", b""),
        ("8-bit garbage then victim", b"From: \xff\xfe, " + v + b"\r\n", b""),
        # A space before the colon: Python's parser drops the line as an mbox envelope line
        # (or keeps the first line's as the "unix from"); MTAs and DMARC read a From field.
        ("victim, then From space colon", b"From: " + v + b"\r\nFrom : " + e + b"\r\n", b""),
        ("From space colon first", b"From : " + e + b"\r\nFrom: " + v + b"\r\n", b""),
        ("after Received", b"Received: x\r\nFrom : " + e + b"\r\nFrom: " + v + b"\r\n", b""),
    ]


def test_every_from_trick_moves_nothing_for_the_victim(new_game):
    """Each message carries the victim's own token (as a stranger who saw a turn email has): no
    From trick makes it read as the victim's address, so none moves; the victim's own plain
    reply afterwards still does (the tricks used no token up)."""
    from games.inbox.receive import mail_receive
    from games.models import InboundMail, Move

    gid, _seats, seat, p, mail, s = _setup(new_game)
    to = mail.extra_headers["Reply-To"]
    victim = p.user.email
    for i, (what, lines, headers) in enumerate(_attacks(victim)):
        raw = _with_from(to, lines, f"choose {s.market[0]}", headers=headers)
        raw = raw.replace(b"Message-ID: <", f"Message-ID: <a{i}.".encode(), 1)
        got = mail_receive(raw, via="pipe")
        assert got.status != "applied", what
        assert got.code in ("wrong_sender", "no_sender"), (what, got)
        assert not Move.objects.filter(game_id=gid).exists(), what
        row = InboundMail.objects.latest("id")
        assert row.sender != victim, what
    own = mail_receive(_reply(to, victim, f"choose {s.market[0]}"), via="pipe")
    assert own.status == "applied", own
    assert Move.objects.filter(game_id=gid, seat=seat, source="email").count() == 1


@pytest.mark.parametrize(
    ("what", "lines"),
    [
        ("no From", b""),
        ("two mailboxes", b"From: someone@x.test, mallory@evil.test\r\n"),
        ("CVE-2023-27043 parenthesis", b"From: someone@x.test)<mallory@evil.test>\r\n"),
        ("two From fields", b"From: someone@x.test\r\nFrom: mallory@evil.test\r\n"),
    ],
)
def test_a_missing_or_doubtful_from_is_logged_no_sender_not_bounce(new_game, what, lines):
    """No sender to check: refused with a code of its own (it was logged ``bounce``, among the
    delivery reports, where an operator would not look for it), and only the token's account is
    told (tests/games/inbox/test_no_sender.py)."""
    from games.inbox.receive import mail_receive
    from games.models import InboundMail, Move, Notification

    gid, _seats, _seat, p, mail, s = _setup(new_game)
    raw = _with_from(mail.extra_headers["Reply-To"], lines, f"choose {s.market[0]}")
    got = mail_receive(raw, via="pipe")
    assert (got.status, got.code, got.answered) == ("refused", "no_sender", True), what
    row = InboundMail.objects.get()
    assert (row.status, row.code, row.sender) == ("refused", "no_sender", ""), what
    assert not Move.objects.filter(game_id=gid).exists()
    answer = Notification.objects.get(game_id=gid, kind="reply")
    assert answer.recipient == p.user


def test_a_bounce_without_a_readable_from_is_still_a_bounce(new_game):
    """An empty envelope sender (``Return-Path: <>``) or a delivery report says bounce first."""
    from games.inbox.receive import mail_receive

    _gid, _seats, _seat, _p, mail, _s = _setup(new_game)
    raw = _with_from(mail.extra_headers["Reply-To"], b"", "pass", headers=b"Return-Path: <>\r\n")
    assert mail_receive(raw, via="pipe").code == "bounce"


@pytest.mark.parametrize("address", ["太郎@例え.jp", "ｂob@x.test"])
def test_a_confirmed_utf8_address_moves_and_is_logged_as_written(new_game, address):
    """Sent as raw UTF-8 (RFC 6532; the LMTP service announces SMTPUTF8): read as UTF-8, not as
    U+FFFD, so a confirmed internationalised address speaks for its player and the log shows it."""
    from allauth.account.models import EmailAddress

    from games.inbox.receive import mail_receive
    from games.models import InboundMail, Move

    gid, _seats, seat, p, mail, s = _setup(new_game)
    EmailAddress.objects.create(user=p.user, email=address, verified=True, primary=False)
    lines = f"From: =?utf-8?b?5aSq6YOO?= <{address}>\r\n".encode()
    got = mail_receive(_with_from(mail.extra_headers["Reply-To"], lines, f"choose {s.market[0]}"),
                       via="lmtp")  # fmt: skip
    assert got.status == "applied", got
    assert Move.objects.filter(game_id=gid, seat=seat, source="email").count() == 1
    assert InboundMail.objects.get().sender == address


def test_an_unconfirmed_utf8_address_is_shown_as_written(new_game):
    from games.inbox.receive import mail_receive
    from games.models import InboundMail, Notification

    gid, _seats, _seat, _p, mail, _s = _setup(new_game)
    lines = "From: ｂob@x.test\r\n".encode()
    got = mail_receive(_with_from(mail.extra_headers["Reply-To"], lines, "pass"), via="lmtp")
    assert (got.status, got.code) == ("refused", "wrong_sender")
    assert InboundMail.objects.get().sender == "ｂob@x.test"
    payload = Notification.objects.get(game_id=gid, kind="reply").payload
    assert payload["sender"] == "ｂob@x.test"


AUTHSERV = "mx.pg.example"


def _authres(*values: str) -> bytes:
    return b"".join(f"Authentication-Results: {v}\r\n".encode() for v in values)


@pytest.mark.parametrize(
    ("setting", "fields", "refused"),
    [
        (AUTHSERV, [f"{AUTHSERV}; dkim=none; dmarc=fail (p=reject dis=none) header.from=x"], True),
        (
            AUTHSERV,
            [f"{AUTHSERV.upper()} 1;\r\n\tspf=fail smtp.mailfrom=e.test;\r\n\tdmarc = fail"],
            True,
        ),
        # A forged pass from anyone next to our fail gains nothing.
        (AUTHSERV, [f"{AUTHSERV}; dmarc=pass", f"{AUTHSERV}; dmarc=fail"], True),
        (AUTHSERV, ["other.example; dmarc=fail header.from=x"], False),
        (AUTHSERV, [f"{AUTHSERV}; dmarc=pass header.from=x"], False),
        (AUTHSERV, [f"{AUTHSERV}; dmarc=none header.from=x"], False),
        (AUTHSERV, [f"{AUTHSERV}; none"], False),
        (AUTHSERV, [f'{AUTHSERV} (says "dmarc=fail"); dmarc=none reason="x; dmarc=fail"'], False),
        (AUTHSERV, [], False),
        ("", [f"{AUTHSERV}; dmarc=fail"], False),
    ],
)
def test_our_mtas_dmarc_fail_refuses_and_tells_the_account(new_game, settings, setting, fields,
                                                            refused):  # fmt: skip
    """``MAIL FROM:<mallory@evil.test>`` with ``From:`` the player's address and the player's
    token: our milter's ``dmarc=fail`` refuses it (the account told, as for wrong_sender, never
    the sender); anyone else's fail, a pass, none, no field, or the setting empty: the reply is
    taken as before."""
    from games.inbox.receive import mail_receive
    from games.models import InboundMail, Move, Notification
    from games.notifications.emails import email_build

    settings.INBOUND_AUTHSERV_ID = setting
    gid, _seats, seat, p, mail, s = _setup(new_game)
    victim = p.user.email
    headers = b"Return-Path: <" + EVIL.encode() + b">\r\n" + _authres(*fields)
    raw = _with_from(mail.extra_headers["Reply-To"], f"From: {victim}\r\n".encode(),
                     f"choose {s.market[0]}", headers=headers)  # fmt: skip
    got = mail_receive(raw, via="lmtp")
    if not refused:
        assert got.status == "applied", got
        assert Move.objects.filter(game_id=gid, seat=seat).count() == 1
        return
    assert (got.status, got.code, got.answered) == ("refused", "sender_not_authenticated", True)
    assert not Move.objects.filter(game_id=gid).exists()
    assert InboundMail.objects.get().code == "sender_not_authenticated"
    answer = Notification.objects.get(game_id=gid, kind="reply")
    built = email_build(answer)
    assert built.to == [victim]
    assert EVIL not in " ".join(built.to + built.cc + built.bcc)
    assert built.subject.startswith("[Power Grid] A reply in your name was not taken"), built
    assert "signature did not confirm it" in built.body
    # Honest about what a holder of a turn email can do, and never "you need do nothing".
    # Its own advice: the From was the player's, "add your other address" does not fit.
    assert "your mail provider's own service" in " ".join(built.body.split())
    assert "If you wrote from another address" not in built.body
    assert "someone else has one of your turn emails" in built.body
    assert "Do not forward your turn emails" in " ".join(built.body.split())
    assert "need do nothing" not in built.body
    assert "signature did not confirm it" in built.alternatives[0][0]


def test_dmarc_refusals_share_the_cap(new_game, settings):
    from games.inbox.receive import mail_receive
    from games.models import Notification

    settings.INBOUND_AUTHSERV_ID = AUTHSERV
    settings.INBOUND_REFUSALS_ANSWERED_PER_HOUR = 2
    gid, _seats, _seat, p, mail, _s = _setup(new_game)
    lines = f"From: {p.user.email}\r\n".encode()
    got = [
        mail_receive(
            _with_from(mail.extra_headers["Reply-To"], lines, "pass",
                       headers=_authres(f"{AUTHSERV}; dmarc=fail")).replace(
                b"Message-ID: <", f"Message-ID: <d{i}.".encode(), 1
            ),
            via="lmtp",
        )
        for i in range(4)
    ]  # fmt: skip
    assert [g.answered for g in got] == [True, True, False, False]
    assert Notification.objects.filter(game_id=gid, kind="reply").count() == 2


def _nested(depth: int) -> bytes:
    """A message of ``depth`` multiparts, each inside the last (built as bytes: the email
    package cannot write what it cannot read)."""
    head = b"From: someone@x.test\r\nTo: turn+x@reply.localhost\r\nMessage-ID: <deep@x.test>\r\n"
    opening = b"".join(
        b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i)
        for i in range(depth)
    )
    closing = b"".join(b"\r\n--b%d--\r\n" % i for i in reversed(range(depth)))
    return head + opening + b"Content-Type: text/plain\r\n\r\npass" + closing


def test_an_unreadable_message_is_logged_and_kept_by_every_path():
    """3,000 nested multiparts: the parser gives up; the message is an ``ignored``/``unreadable``
    row with its bytes, whether handed straight (pipe) or stored first (LMTP): not lost."""
    from games.inbox.intake import inbound_process, intake_store
    from games.inbox.receive import mail_receive
    from games.models import InboundMail

    raw = _nested(3000)
    got = mail_receive(raw, via="pipe")
    assert (got.status, got.code) == ("ignored", "unreadable")
    row = InboundMail.objects.get()
    assert (row.status, row.code, row.sender, row.message_id) == (
        "ignored", "unreadable", "someone@x.test", "<deep@x.test>"
    )  # fmt: skip
    assert bytes(row.raw) == raw
    assert mail_receive(raw, via="pipe").code == "duplicate"
    row.delete()
    stored = intake_store(raw, recipient="turn+x@reply.localhost")
    assert inbound_process(stored.row_id) == "ignored unreadable"
    kept = InboundMail.objects.get()
    assert (kept.status, kept.code, bytes(kept.raw)) == ("ignored", "unreadable", raw)
