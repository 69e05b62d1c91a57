"""The SMTP bytes ``wire`` writes mean what Django's ``message().as_bytes()`` means: the same
headers and values, the same parts and contents, decoded; and anything of another shape is left to
Django's backend."""

from __future__ import annotations

import email
import email.policy
import socket
from typing import Any

import pytest
from django.core.mail import BadHeaderError, EmailMultiAlternatives
from django.core.mail.message import sanitize_address

from games.fastpath import wire
from games.notifications import smtp

HEADERS = {
    "Message-ID": "<notification-7.0123456789abcdef@pg.example>",
    "Date": "Sun, 22 Nov 2026 10:00:00 -0000",
    "List-Unsubscribe": "<https://pg.example/mail/settings/" + "t" * 90 + "/>",
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    "Auto-Submitted": "auto-generated",
    "X-PowerGrid-Notification": "7",
    "X-PowerGrid-Kind": "turn",
}


def _message(
    subject: str = "[Power Grid] Your turn in game #12 (Germany)",
    body: str = "Hello alice,\n\nIt is your turn.\n.\n.. a line starting with dots\n",
    html: str = "<p>Hello alice,</p>\n<p>It is your turn.</p>\n",
    to: str = "alice@example.com",
    from_email: str = "Power Grid <noreply@localhost>",
    headers: dict[str, str] | None = None,
) -> EmailMultiAlternatives:
    m = EmailMultiAlternatives(
        subject=subject,
        body=body,
        from_email=from_email,
        to=[to],
        headers=dict(HEADERS if headers is None else headers),
    )
    m.attach_alternative(html, "text/html")
    return m


def _meaning(data: bytes) -> tuple[Any, ...]:
    msg = email.message_from_bytes(data, policy=email.policy.default)
    # (Stripped: Django folds a long header before its value, which leaves a leading space.)
    headers = [(k, str(v).strip()) for k, v in msg.items() if k.lower() != "content-type"]
    params = {k: v for k, v in msg["Content-Type"].params.items() if k != "boundary"}
    parts = [
        (
            p.get_content_type(),
            p.get_content_charset(),
            str(p["Content-Transfer-Encoding"]),
            p.get_content(),
        )
        for p in msg.iter_parts()
    ]
    assert not msg.defects
    assert all(not p.defects for p in msg.iter_parts())
    return msg.get_content_type(), params, headers, parts


def _same_as_django(m: EmailMultiAlternatives) -> bytes:
    payload = wire.smtp_payload(m)
    assert payload is not None
    sender, rcpts, data = payload
    assert sender == sanitize_address(m.from_email, "utf-8")
    assert rcpts == [sanitize_address(r, "utf-8") for r in m.recipients()]
    assert _meaning(data) == _meaning(m.message().as_bytes(linesep="\r\n"))
    assert b"\n" not in data.replace(b"\r\n", b"")  # CRLF line ends only
    assert max(len(line) for line in data.split(b"\r\n")) <= 998
    return data


def test_ascii_email_means_what_django_writes():
    data = _same_as_django(_message())
    assert b"Content-Transfer-Encoding: 7bit" in data


def test_japanese_email_means_what_django_writes():
    data = _same_as_django(
        _message(
            subject="[Power Grid] ゲーム #12（ドイツ）はあなたの番です — 締め切りは明日の朝です",
            body="alice さん、こんにちは\r\n\r\nあなたの番です。\n"
            "締め切り: 2026年11月23日 9:00 (JST, Asia/Tokyo)",
            html="<p>alice さん、こんにちは</p><p>あなたの番です。</p>",
        )
    )
    assert b"Content-Transfer-Encoding: 8bit" in data
    assert b"=?utf-8?" in data  # the subject as encoded words


def test_long_ascii_subject_and_header_are_fine():
    _same_as_django(_message(subject="[Power Grid] " + "very long subject words " * 8))
    _same_as_django(_message(to="Mixed.Case+tag@Example.COM"))


def test_a_bounce_address_as_envelope_sender_with_our_from_line():
    """An email whose envelope sender is its bounce address (games.mailevents.verp): the From
    header from ``extra_headers``, the envelope from ``from_email``, as Django writes them."""
    bounce = "bounce+12-3-abcdef12-0123456789abcdef@reply.pg.example"
    data = _same_as_django(
        _message(from_email=bounce, headers={**HEADERS, "From": "Power Grid <noreply@localhost>"})
    )
    assert (
        wire.smtp_payload(
            _message(
                from_email=bounce, headers={**HEADERS, "From": "Power Grid <noreply@localhost>"}
            )
        )[0]
        == bounce
    )
    assert data.count(b"\r\nFrom: ") == 1
    assert b"From: Power Grid <noreply@localhost>\r\n" in data
    assert bounce.encode() not in data


@pytest.mark.parametrize(
    "change",
    [
        {"body": "x" * 1200},  # quoted-printable needed
        {"html": "<p>" + "y" * 1200 + "</p>"},
        {"to": "Ålice <alice@example.com>"},  # a non-ASCII display name in an address header
        {"to": "alice@exämple.com"},  # IDN: punycode
        {"from_email": "電力会社 <noreply@example.com>"},
        {"headers": {"Message-ID": "<x@y>"}},  # no Date: Django adds it
        {"headers": {**HEADERS, "To": "someone@else.example"}},
    ],
)
def test_other_shapes_go_through_django(change):
    assert wire.smtp_payload(_message(**change)) is None


def test_attachments_and_copies_go_through_django():
    m = _message()
    m.cc = ["bob@example.com"]
    assert wire.smtp_payload(m) is None
    m = _message()
    m.attach("a.txt", "x", "text/plain")
    assert wire.smtp_payload(m) is None
    m = EmailMultiAlternatives(subject="s", body="b", to=["a@example.com"], headers=HEADERS)
    assert wire.smtp_payload(m) is None  # no HTML alternative


def test_a_newline_in_a_header_is_refused_as_django_does():
    with pytest.raises(BadHeaderError):
        wire.smtp_payload(_message(subject="two\nlines"))


def test_deliver_sends_the_wire_bytes_on_the_open_connection(settings, monkeypatch):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    sent: list[tuple[str, list[str], bytes]] = []

    server = object()

    def sendmail(conn: Any, sender: str, rcpts: list[str], data: bytes) -> None:
        assert conn is server
        sent.append((sender, rcpts, data))

    class Backend:
        connection = server

        def send_messages(self, messages: list[Any]) -> int:  # pragma: no cover - not reached
            raise AssertionError("the fast path should be taken")

    monkeypatch.setattr(smtp, "_connection", lambda: Backend())
    monkeypatch.setattr(wire, "sendmail", sendmail)
    m = _message()
    smtp.deliver(m)
    assert len(sent) == 1
    assert sent[0][:2] == ("Power Grid <noreply@localhost>", ["alice@example.com"])
    assert _meaning(sent[0][2]) == _meaning(m.message().as_bytes(linesep="\r\n"))


class _Sink:
    def __init__(self, pipelining: bool = False) -> None:
        self.got: list[tuple[str, list[str], bytes]] = []
        self.refuse: set[str] = set()
        self.refuse_sender = False
        self.pipelining = pipelining

    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        session.host_name = hostname
        if self.pipelining:
            responses.insert(-1, "250-PIPELINING")
        return responses

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        if self.refuse_sender:
            return "550 sender refused"
        envelope.mail_from = address
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return "550 no such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.got.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.content))
        return "250 OK"


@pytest.fixture(params=[False, True], ids=["one-by-one", "pipelining"])
def sink(request):
    import smtplib

    from aiosmtpd.controller import Controller

    handler = _Sink(pipelining=request.param)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    smtp = smtplib.SMTP("127.0.0.1", port, timeout=10)
    yield handler, smtp
    smtp.close()
    controller.stop()


def test_sendmail_says_what_smtplib_says(sink):
    import smtplib

    handler, smtp = sink
    m = _message()
    sender, rcpts, data = wire.smtp_payload(m)  # type: ignore[misc]
    smtp.sendmail(sender, rcpts, data)
    wire.sendmail(smtp, sender, rcpts, data)
    wire.sendmail(smtp, sender, rcpts, data)  # the same connection, again
    assert len(handler.got) == 3
    assert handler.got[1] == handler.got[0] == handler.got[2]
    assert handler.got[0][:2] == ("noreply@localhost", ["alice@example.com"])
    # Refusals raise what smtplib raises, and leave the connection usable.
    handler.refuse = {"alice@example.com"}
    with pytest.raises(smtplib.SMTPRecipientsRefused):
        wire.sendmail(smtp, sender, rcpts, data)
    wire.sendmail(smtp, sender, ["bob@example.com", "alice@example.com"], data)
    assert handler.got[-1][1] == ["bob@example.com"]
    handler.refuse_sender = True
    with pytest.raises(smtplib.SMTPSenderRefused):
        wire.sendmail(smtp, sender, rcpts, data)
    handler.refuse_sender, handler.refuse = False, set()
    wire.sendmail(smtp, sender, rcpts, data)
    assert len(handler.got) == 5
    assert handler.got[-1] == handler.got[0]


def test_lines_starting_with_a_dot_arrive_intact(sink):
    handler, smtp = sink
    m = _message(body=".hidden\n..two\nplain\n.")
    wire.sendmail(smtp, *wire.smtp_payload(m))  # type: ignore[misc]
    assert b"\r\n.hidden\r\n..two\r\nplain\r\n.\r\n" in handler.got[0][2]


def test_pipelining_server_gets_the_envelope_in_one_write(sink, monkeypatch):
    """Two round trips a message where the server allows it (RFC 2920), one per command where
    it does not."""
    handler, smtp = sink
    writes: list[bytes | str] = []
    send = smtp.send
    monkeypatch.setattr(smtp, "send", lambda s: (writes.append(s), send(s))[1])
    smtp.ehlo()
    writes.clear()
    wire.sendmail(smtp, *wire.smtp_payload(_message()))  # type: ignore[misc]
    commands = [w if isinstance(w, str) else w.decode("ascii", "replace") for w in writes]
    if handler.pipelining:
        assert len(writes) == 2
        assert commands[0].startswith("MAIL FROM:")
        assert commands[0].endswith("DATA\r\n")
        assert "RCPT TO:<alice@example.com>" in commands[0]
    else:
        assert len(writes) >= 4  # MAIL, RCPT, DATA, then the message
    assert len(handler.got) == 1
