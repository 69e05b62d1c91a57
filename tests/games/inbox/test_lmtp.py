"""The inbound mail service at the protocol level: a real LMTP client (``smtplib.LMTP``) against
the running service (aiosmtpd on a loopback port): 550 for nobody, 552 over the size limit, 250
only once the row is committed, a duplicate stored once, 451 with the database away (the
``manage.py lmtp_server`` command pointed at a closed port), the worker's task and the sweep."""

from __future__ import annotations

import asyncio
import os
import smtplib
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from apihelpers import seat_players

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[3]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def published(monkeypatch):
    """The task ids the service queued (the broker stands aside; the test is the worker)."""
    from games import queue

    ids: list[int] = []
    real = queue.publish

    def publish(name, *args, **kw):
        if name == queue.INBOUND_PROCESS:
            ids.append(args[0])
        else:
            real(name, *args, **kw)

    monkeypatch.setattr(queue, "publish", publish)
    return ids


@pytest.fixture
def service(settings, published):
    """The service on a loopback port, in a thread of this process (its database threads use
    the test database); yields the port."""
    from games.inbox.lmtp import InboundHandler, make_server

    settings.INBOUND_MAX_BYTES = 20_000
    loop = asyncio.new_event_loop()
    handler = InboundHandler(threads=1)
    port = _free_port()
    servers: list[asyncio.AbstractServer] = []

    def run() -> None:
        # The loop is made to run in its own thread only: this test's thread may already run
        # one (a Playwright test earlier in the same xdist worker leaves its loop running).
        asyncio.set_event_loop(loop)
        servers.append(
            loop.run_until_complete(
                loop.create_server(lambda: make_server(handler), host="127.0.0.1", port=port)
            )
        )
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not servers and time.monotonic() < deadline:
        time.sleep(0.01)
    assert servers, "the LMTP service did not start"
    yield port
    loop.call_soon_threadsafe(servers[0].close)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)
    from django.db import connections

    handler.pool.submit(connections.close_all).result(10)  # its database thread's connection
    handler.pool.shutdown(wait=True)


def _game(new_game):
    import powergrid
    from games.inbox.tokens import reply_address
    from games.models import Game

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    game = Game.objects.get(pk=gid)
    s = powergrid.from_json(game.state_json)
    seat = powergrid.to_act(s)[0]
    p = seats[seat]
    to = reply_address(game_id=gid, seat=seat, seq=game.seq, user_id=p.user.pk, hours=24)
    assert to is not None
    return gid, p, to, s


def _reply(to: str, sender: str, body: str, mid: str | None = "<m1@client.example>") -> bytes:
    head = f"From: <{sender}>\r\nTo: {to}\r\nSubject: Re: turn\r\n"
    if mid:
        head += f"Message-ID: {mid}\r\n"
    return (head + f"Content-Type: text/plain\r\n\r\n{body}\r\n").encode()


def _lmtp(port: int) -> smtplib.LMTP:
    client = smtplib.LMTP("127.0.0.1", port, timeout=10)
    client.ehlo_or_helo_if_needed()
    return client


def test_an_address_of_nobody_is_refused_at_rcpt(service):
    from games.inbox.tokens import make_token

    forged = make_token(game_id=1, seat=0, seq=0, user_id=1, expires=2**31, key=b"not ours")
    with _lmtp(service) as c:
        c.mail("player@example.com")
        for nobody in (
            "someone@reply.localhost",
            f"turn+{forged}@reply.localhost",
            "bounce+1-2-0123abcd-0123456789abcdef@reply.localhost",
        ):
            code, _msg = c.rcpt(nobody)
            assert code == 550, nobody


def test_a_second_recipient_in_one_transaction_is_deferred_never_told_250(service, new_game):
    """One reply address a transaction: a second RCPT gets 452 (the MTA delivers it apart),
    so no recipient is ever answered 250 for a message stored for another (an outsider's
    finding: the second of two recipients was told 250 and its move was lost)."""
    _gid, _p, to, _s = _game(new_game)
    with _lmtp(service) as c:
        c.mail("player@example.com")
        assert c.rcpt(to)[0] == 250
        code, msg = c.rcpt(to.upper())  # the same address again, as a second recipient
        assert code == 452, msg


def test_a_reply_is_250_after_commit_and_the_worker_makes_the_move(service, published, new_game):
    from games.inbox import intake
    from games.models import Game, InboundMail, Move

    gid, p, to, s = _game(new_game)
    with _lmtp(service) as c:
        refused = c.sendmail(p.user.email, [to], _reply(to, p.user.email, f"choose {s.market[0]}"))
    assert refused == {}
    # 250 was said: the row is committed (read from this test's own connection).
    row = InboundMail.objects.get()
    assert (row.status, row.via, row.recipient) == ("queued", "lmtp", to)
    assert published == [row.pk]
    assert Move.objects.filter(game_id=gid).count() == 0
    assert intake.inbound_process(row.pk) == "applied"
    assert Game.objects.get(pk=gid).seq == 1
    assert Move.objects.get(game_id=gid).source == "email"
    assert list(InboundMail.objects.values_list("status", flat=True)) == ["applied"]
    assert intake.inbound_process(row.pk) == "gone"  # a redelivered task does nothing


def test_a_reply_in_utf8_with_smtputf8_is_taken_and_read(service, published, new_game):
    """An MTA with SMTPUTF8 on hands a message with raw UTF-8 headers with the SMTPUTF8
    parameter (a mail administrator's finding: the service did not announce it, so Postfix
    would have bounced every such reply). It is announced, taken, and the move is made."""
    from games.inbox import intake
    from games.models import Game, Move

    gid, p, to, s = _game(new_game)
    raw = (
        f"From: =?utf-8?q?Player?= <{p.user.email}>\r\nTo: {to}\r\n"
        "Subject: Re: 手番です\r\nMessage-ID: <utf8@client.example>\r\n"
        "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
        f"choose {s.market[0]}\r\n\r\nよろしく\r\n"
    ).encode()
    with _lmtp(service) as c:
        assert c.has_extn("smtputf8")
        assert c.sendmail(p.user.email, [to], raw, mail_options=["SMTPUTF8"]) == {}
    assert intake.inbound_process(published[0]) == "applied"
    assert Game.objects.get(pk=gid).seq == 1
    assert Move.objects.get(game_id=gid).source == "email"


def test_a_confirmed_utf8_address_moves_over_smtputf8(service, published, new_game):
    """A confirmed internationalised address (RFC 6532) written as raw UTF-8 in From and in the
    envelope: read as written (it was read as U+FFFD and refused), so the move is made."""
    from allauth.account.models import EmailAddress

    from games.inbox import intake
    from games.models import Game, InboundMail

    gid, p, to, s = _game(new_game)
    EmailAddress.objects.create(user=p.user, email="太郎@例え.jp", verified=True, primary=False)
    raw = (
        f"From: 太郎 <太郎@例え.jp>\r\nTo: {to}\r\nSubject: Re: 手番です\r\n"
        "Message-ID: <idn@client.example>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        f"choose {s.market[0]}\r\n"
    ).encode()
    with _lmtp(service) as c:
        assert c.sendmail("太郎@例え.jp", [to], raw, mail_options=["SMTPUTF8"]) == {}
    assert intake.inbound_process(published[0]) == "applied"
    assert Game.objects.get(pk=gid).seq == 1
    assert InboundMail.objects.get().sender == "太郎@例え.jp"


def test_the_same_message_delivered_twice_makes_one_move(service, published, new_game):
    from games.inbox import intake
    from games.models import InboundMail, Move

    gid, p, to, s = _game(new_game)
    raw = _reply(to, p.user.email, f"choose {s.market[0]}")
    for _ in range(2):  # the MTA retries (its 250 was lost): stored once
        with _lmtp(service) as c:
            assert c.sendmail(p.user.email, [to], raw) == {}
    assert InboundMail.objects.count() == 1
    assert len(published) == 1
    intake.inbound_process(published[0])
    with _lmtp(service) as c:  # and once more after it was handled
        assert c.sendmail(p.user.email, [to], raw) == {}
    assert len(published) == 1
    assert Move.objects.filter(game_id=gid).count() == 1


def test_a_message_without_message_id_is_deduplicated_by_its_bytes(service, published, new_game):
    from games.models import InboundMail

    _gid, p, to, s = _game(new_game)
    raw = _reply(to, p.user.email, f"choose {s.market[0]}", mid=None)
    for _ in range(2):
        with _lmtp(service) as c:
            assert c.sendmail(p.user.email, [to], raw) == {}
    assert InboundMail.objects.get().message_id.startswith("sha256:")


def test_a_message_over_the_size_limit_is_552(service, published, new_game):
    from games.models import InboundMail

    _gid, p, to, _s = _game(new_game)
    big = _reply(to, p.user.email, ("x" * 70 + "\r\n") * 400)
    with _lmtp(service) as c, pytest.raises(smtplib.SMTPSenderRefused) as err:
        c.sendmail(p.user.email, [to], big)  # SIZE= announced: refused at MAIL
    assert err.value.smtp_code == 552
    with _lmtp(service) as c:  # no SIZE=: refused once the data passes the limit
        assert c.mail(p.user.email)[0] == 250
        assert c.rcpt(to)[0] == 250
        assert c.data(big)[0] == 552
    assert InboundMail.objects.count() == 0
    assert published == []


def test_a_line_over_1000_characters_is_stored_and_the_move_made(service, published, new_game):
    """RFC 5322 caps a line at 998 octets, but senders exceed it (an HTML part written as one
    line, a long header) and an MTA may pass such lines on: aiosmtpd's own cap (1,001 with the
    CRLF) answered the whole message with a permanent 500, so the MTA bounced the player's
    reply. A 5,000-character line in a header and in the body is taken as it came, and read."""
    from games.inbox import intake
    from games.models import Game, InboundMail, Move

    gid, p, to, s = _game(new_game)
    long_header = "X-Long: " + "h" * 5_000
    long_body = "y" * 5_000
    raw = _reply(to, p.user.email, f"choose {s.market[0]}\r\n\r\n{long_body}").replace(
        b"Subject: Re: turn\r\n", f"Subject: Re: turn\r\n{long_header}\r\n".encode()
    )
    with _lmtp(service) as c:
        # A command line is still held to aiosmtpd's command limit (512 octets, a little more
        # for MAIL's parameters): only a message's lines are longer.
        assert c.docmd("MAIL", f"FROM:<{'a' * 2_000}@x.test>")[0] == 500
        assert c.mail(p.user.email)[0] == 250
        assert c.rcpt(to)[0] == 250
        code, msg = c.data(raw)
    assert code == 250, msg
    row = InboundMail.objects.get()
    stored = bytes(row.raw)
    assert f"\r\n{long_header}\r\n".encode() in stored
    assert f"\r\n{long_body}\r\n".encode() in stored
    assert published == [row.pk]
    assert intake.inbound_process(row.pk) == "applied"
    assert Game.objects.get(pk=gid).seq == 1
    assert Move.objects.get(game_id=gid).source == "email"


def test_long_lines_do_not_get_past_the_size_limit(service, published, new_game):
    """The total still holds (``INBOUND_MAX_BYTES``, 20,000 here): five 5,000-character lines
    are 552, announced SIZE or not, and nothing is stored."""
    from games.models import InboundMail

    _gid, p, to, _s = _game(new_game)
    big = _reply(to, p.user.email, ("z" * 5_000 + "\r\n") * 5)
    with _lmtp(service) as c, pytest.raises(smtplib.SMTPSenderRefused) as err:
        c.sendmail(p.user.email, [to], big)
    assert err.value.smtp_code == 552
    with _lmtp(service) as c:
        assert c.mail(p.user.email)[0] == 250
        assert c.rcpt(to)[0] == 250
        assert c.data(big)[0] == 552
    assert InboundMail.objects.count() == 0
    assert published == []


def test_a_bounce_address_is_taken_and_handled_by_the_bounce_code(service, published, settings):
    from games.inbox import intake
    from games.mailevents.verp import make_token
    from games.models import InboundMail

    bounce = f"bounce+{make_token(notification_id=99, user_id=1, address='a@b.c')}@reply.localhost"
    dsn = (
        "From: MAILER-DAEMON@example.com\r\nTo: " + bounce + "\r\nSubject: Undelivered\r\n"
        "Message-ID: <dsn1@example.com>\r\n\r\nfailed\r\n"
    ).encode()
    with _lmtp(service) as c:
        assert c.sendmail("", [bounce], dsn) == {}
    intake.inbound_process(published[0])
    row = InboundMail.objects.get()
    assert row.status == "ignored"
    assert row.token


def test_a_lost_task_is_handled_by_the_sweep(service, published, new_game):
    from games.inbox import intake
    from games.models import Move

    gid, p, to, s = _game(new_game)
    with _lmtp(service) as c:
        c.sendmail(p.user.email, [to], _reply(to, p.user.email, f"choose {s.market[0]}"))
    assert intake.inbound_sweep(older_than=3600) == 0  # too young: its task may be running
    assert intake.inbound_sweep(older_than=0) == 1
    assert Move.objects.filter(game_id=gid).count() == 1


def test_with_the_database_away_the_service_says_451(settings):
    """The command itself, its database on a closed port: 451 at RCPT for a valid address (the
    MTA keeps the message), 550 still for nobody (no database needed to know)."""
    from games.inbox.tokens import make_token

    port, dead = _free_port(), _free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{dead}/nothing",
        "SECRET_KEY": settings.SECRET_KEY,
        "INBOUND_EMAIL_DOMAIN": settings.INBOUND_EMAIL_DOMAIN,
    }
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "lmtp_server", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                client = _lmtp(port)
                break
            except OSError:
                assert time.monotonic() < deadline, "the service did not start"
                time.sleep(0.2)
        token = make_token(game_id=1, seat=0, seq=0, user_id=1, expires=2**31)
        with client as c:
            c.mail("player@example.com")
            code, _msg = c.rcpt(f"turn+{token}@{settings.INBOUND_EMAIL_DOMAIN}")
            assert code == 451
            assert c.rcpt("nobody@reply.localhost")[0] == 550
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_message_without_message_id_is_one_message_however_it_comes_again(
    service, published, new_game
):
    """Without a Message-ID a message is known by its bytes but for the fields the mail system
    adds on the way: delivered again after it was handled, or by a second MX with one more
    ``Received:`` line, it is the same message: one move, one answer, never a refusal."""
    from games.inbox import intake
    from games.models import InboundMail, Move, Notification

    gid, p, to, s = _game(new_game)
    raw = _reply(to, p.user.email, f"choose {s.market[0]}", mid=None)
    with _lmtp(service) as c:
        assert c.sendmail(p.user.email, [to], raw) == {}
    intake.inbound_process(published[0])
    for again in (raw, b"Received: from mx2.example by mx.example\r\n" + raw):
        with _lmtp(service) as c:
            assert c.sendmail(p.user.email, [to], again) == {}
    assert len(published) == 1  # nothing more to handle
    assert Move.objects.filter(game_id=gid).count() == 1
    assert InboundMail.objects.count() == 1
    assert Notification.objects.filter(kind="reply", recipient=p.user).count() == 1


def test_a_null_sender_is_never_answered(service, published, new_game):
    """``MAIL FROM:<>`` (a bounce, an auto-reply: RFC 5321, 4.5.5) is not answered, even with a
    person's From and a command: ignored, no move, no email."""
    from games.inbox import intake
    from games.models import InboundMail, Move, Notification

    gid, p, to, s = _game(new_game)
    raw = _reply(to, p.user.email, f"choose {s.market[0]}", mid="<null@client.example>")
    with _lmtp(service) as c:
        assert c.sendmail("<>", [to], raw) == {}
    assert intake.inbound_process(published[0]) == "ignored bounce"
    assert InboundMail.objects.get().status == "ignored"
    assert not Move.objects.filter(game_id=gid).exists()
    assert not Notification.objects.filter(kind="reply").exists()
