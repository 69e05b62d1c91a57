"""Replies by email through the one handler: a move made with source ``email`` and answered once;
every refusal path, answered or ignored as it should be; the pipe command and the webhook."""

from __future__ import annotations

import hashlib
import hmac
import io
import sys
import time

import pytest
from apihelpers import seat_players

pytestmark = pytest.mark.django_db


def _turn_email(gid: int, seat_player):
    """The turn email the awaited player gets now (built as the outbox builds it)."""
    from games.models import Notification
    from games.notifications.emails import email_build

    n = Notification.objects.filter(
        game_id=gid, recipient=seat_player.user, kind__in=["turn", "game_started"]
    ).latest("id")
    if n.kind != "turn":
        n = Notification(recipient=seat_player.user, game_id=gid, kind="turn", payload={})
    mail = email_build(n)
    assert mail is not None
    return mail


def _reply(to: str, sender: str, body: str, *, headers: str = "", mid: str | None = None) -> bytes:
    mid = mid or f"<r{time.time_ns()}@client.example>"
    return (
        f"From: Player <{sender}>\r\nTo: {to}\r\nSubject: Re: your turn\r\n"
        f"Message-ID: {mid}\r\n{headers}Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    ).encode()


def _setup(new_game):
    import powergrid
    from games.models import Game

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    s = powergrid.from_json(Game.objects.get(pk=gid).state_json)
    seat = powergrid.to_act(s)[0]
    p = seats[seat]
    mail = _turn_email(gid, p)
    return gid, seats, seat, p, mail, s


def test_a_reply_makes_the_move_and_is_answered_with_the_log_line(new_game):
    from games.inbox.receive import mail_receive
    from games.models import Game, InboundMail, Move, Notification
    from games.notifications.emails import email_build

    gid, _seats, seat, p, mail, s = _setup(new_game)
    reply_to = mail.extra_headers["Reply-To"]
    assert reply_to.startswith("turn+")
    assert reply_to.endswith("@reply.localhost")
    assert "reply to this email with your move" in mail.body.lower()
    plant = s.market[0]
    got = mail_receive(_reply(reply_to, p.user.email, f"choose {plant}\n\n> quoted"), via="pipe")
    assert got.status == "applied"
    move = Move.objects.get(game_id=gid, seq=1)
    assert (move.seat, move.source, move.action) == (
        seat,
        "email",
        {"type": "choose_plant", "plant": plant, "bid": plant},
    )
    assert Game.objects.get(pk=gid).seq == 1
    answer = Notification.objects.get(game_id=gid, kind="reply")
    built = email_build(answer)
    assert f"put plant {plant} up for auction at {plant}" in built.body
    assert InboundMail.objects.get().status == "applied"


def test_a_reused_token_is_refused_and_answered_once(new_game):
    from games.inbox.receive import mail_receive
    from games.models import Move, Notification

    gid, _seats, _seat, p, mail, s = _setup(new_game)
    to = mail.extra_headers["Reply-To"]
    assert (
        mail_receive(_reply(to, p.user.email, f"choose {s.market[0]}"), via="pipe").status
        == "applied"
    )
    again = mail_receive(_reply(to, p.user.email, f"choose {s.market[1]}"), via="pipe")
    assert (again.status, again.code) == ("refused", "token_used")
    assert Move.objects.filter(game_id=gid).count() == 1
    assert Notification.objects.filter(game_id=gid, kind="reply").count() == 2


def test_the_same_message_delivered_twice_counts_once(new_game):
    from games.inbox.receive import mail_receive
    from games.models import InboundMail, Move

    gid, _seats, _seat, p, mail, s = _setup(new_game)
    raw = _reply(
        mail.extra_headers["Reply-To"], p.user.email, f"choose {s.market[0]}", mid="<same@x>"
    )
    assert mail_receive(raw, via="pipe").status == "applied"
    assert mail_receive(raw, via="pipe").code == "duplicate"
    assert Move.objects.filter(game_id=gid).count() == 1
    assert InboundMail.objects.count() == 1


@pytest.mark.parametrize(
    ("headers", "sender", "code"),
    [
        ("Auto-Submitted: auto-replied\r\n", None, "auto_submitted"),
        ("Precedence: bulk\r\n", None, "bulk"),
        ("X-Autoreply: yes\r\n", None, "auto_reply"),
        ("", "mailer-daemon@example.net", "bounce"),
    ],
)
def test_automatic_mail_is_ignored_without_an_answer(new_game, headers, sender, code):
    from games.inbox.receive import mail_receive
    from games.models import InboundMail, Move, Notification

    gid, _seats, _seat, p, mail, s = _setup(new_game)
    raw = _reply(mail.extra_headers["Reply-To"], sender or p.user.email, f"choose {s.market[0]}",
                 headers=headers)  # fmt: skip
    got = mail_receive(raw, via="pipe")
    assert (got.status, got.code) == ("ignored", code)
    assert not Move.objects.filter(game_id=gid).exists()
    assert not Notification.objects.filter(kind="reply").exists()
    assert InboundMail.objects.get().code == code


def test_an_out_of_office_subject_is_ignored(new_game):
    from games.inbox.receive import mail_receive

    _gid, _seats, _seat, p, mail, _s = _setup(new_game)
    raw = _reply(mail.extra_headers["Reply-To"], p.user.email, "I am away until Monday")
    raw = raw.replace(b"Subject: Re: your turn", b"Subject: Out of Office: your turn")
    assert mail_receive(raw, via="pipe").code == "auto_reply"


def test_a_forged_or_altered_token_is_ignored(new_game):
    from games.inbox.receive import mail_receive
    from games.models import Move

    gid, _seats, _seat, p, mail, s = _setup(new_game)
    to = mail.extra_headers["Reply-To"]
    token = to.split("+", 1)[1].split("@")[0]
    altered = token[:10] + ("a" if token[10] != "a" else "b") + token[11:]
    for address in (to.replace(token, altered), "turn+abcdefghijklmnopqrstuvwxyz@reply.localhost",
                    "someone@reply.localhost"):  # fmt: skip
        got = mail_receive(_reply(address, p.user.email, f"choose {s.market[0]}"), via="pipe")
        assert got.status == "ignored"
        assert got.code in ("forged", "no_token")
    assert not Move.objects.filter(game_id=gid).exists()


def test_an_expired_token_is_refused_with_an_answer(new_game):
    from games.inbox.receive import mail_receive
    from games.inbox.tokens import make_token

    gid, _seats, seat, p, _mail, _s = _setup(new_game)
    token = make_token(
        game_id=gid, seat=seat, seq=0, user_id=p.user.pk, expires=int(time.time()) - 5
    )
    got = mail_receive(_reply(f"turn+{token}@reply.localhost", p.user.email, "pass"), via="pipe")
    assert (got.status, got.code, got.answered) == ("refused", "token_expired", True)


def test_a_stale_reply_says_what_happened_since(new_game):
    from games.inbox.receive import mail_receive
    from games.models import Notification
    from games.notifications.emails import email_build

    gid, _seats, _seat, p, mail, s = _setup(new_game)
    to = mail.extra_headers["Reply-To"]
    plant = s.market[0]
    seats_move = p.post(f"/api/v1/games/{gid}/moves/",
                        {"action": {"type": "choose_plant", "plant": plant, "bid": plant},
                         "expected_seq": 0})  # fmt: skip
    assert seats_move.status_code == 201
    got = mail_receive(_reply(to, p.user.email, f"choose {s.market[1]}"), via="pipe")
    assert (got.status, got.code) == ("refused", "stale_state")
    body = email_build(Notification.objects.get(kind="reply")).body
    assert "Since that email" in body
    assert f"put plant {plant} up for auction" in body


@pytest.mark.parametrize(
    ("text", "code"), [("hello", "unknown_command"), ("choose 3 bid 1", "bid_too_low")]
)
def test_a_reply_that_is_not_a_legal_move_is_answered_with_what_can_be_done(new_game, text, code):
    from games.inbox.receive import mail_receive
    from games.models import Move, Notification
    from games.notifications.emails import email_build

    gid, _seats, _seat, p, mail, _s = _setup(new_game)
    got = mail_receive(_reply(mail.extra_headers["Reply-To"], p.user.email, text), via="pipe")
    assert (got.status, got.code) == ("refused", code)
    assert not Move.objects.filter(game_id=gid).exists()
    answer = email_build(Notification.objects.get(kind="reply"))
    assert "was not taken" in answer.body
    assert "What you can do" in answer.body
    assert answer.extra_headers.get("Reply-To", "").startswith("turn+")  # try again by reply


def test_a_plan_by_email(new_game):
    from games.inbox.receive import mail_receive
    from games.models import Plan

    gid, seats, seat, _p, _mail, s = _setup(new_game)
    other = next(x for x in seats if x != seat)
    mail = _turn_email(gid, seats[seat])  # only the awaited seat has a reply address now
    del mail
    # The awaited seat leaves a maximum for a plant as its reply.
    got = mail_receive(
        _reply(
            _turn_email(gid, seats[seat]).extra_headers["Reply-To"],
            seats[seat].user.email,
            f"max {s.market[2]} 30",
        ),
        via="pipe",
    )
    assert got.status == "applied"
    assert Plan.objects.get(game_id=gid, seat=seat).data["max"] == 30
    assert not Plan.objects.filter(seat=other).exists()


def test_the_answer_to_a_plan_says_which_order_was_saved(new_game):
    from games.inbox.receive import mail_receive
    from games.models import Notification
    from games.notifications.emails import email_build

    gid, _seats, _seat, p, mail, s = _setup(new_game)
    order = f"max {s.market[2]} 30"
    got = mail_receive(_reply(mail.extra_headers["Reply-To"], p.user.email, order), via="pipe")
    assert got.status == "applied"
    answer = email_build(Notification.objects.get(game_id=gid, kind="reply"))
    assert f"Your standing order was saved in game #{gid}" in answer.body
    assert f"“{order}”" in answer.body
    assert "read and made" not in answer.body  # no move was made
    assert answer.subject.startswith("[Power Grid] Standing order saved")
    assert f"“{order}”" in answer.alternatives[0][0]


def test_the_pipe_command_reads_standard_input(new_game, monkeypatch, capsys):
    from django.core.management import call_command

    from games.models import Move

    gid, _seats, _seat, p, mail, s = _setup(new_game)
    raw = _reply(mail.extra_headers["Reply-To"], p.user.email, f"choose {s.market[0]}")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    call_command("receive_mail", "--recipient", mail.extra_headers["Reply-To"])
    assert "applied" in capsys.readouterr().out
    assert Move.objects.get(game_id=gid).source == "email"


def test_the_pipe_command_runs_no_system_checks(new_game, monkeypatch, capsys):
    """Started by the MTA once per message, as from a shell (checks are not skipped there): the
    system checks were a third of its CPU, and it took up to a minute on a loaded host."""
    from django.core.management import base as management_base
    from django.core.management import execute_from_command_line

    def no_checks(*args, **kwargs):
        raise AssertionError("receive_mail ran the system checks")

    monkeypatch.setattr(management_base.checks, "run_checks", no_checks)
    _gid, _seats, _seat, p, mail, s = _setup(new_game)
    raw = _reply(mail.extra_headers["Reply-To"], p.user.email, f"choose {s.market[0]}")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    execute_from_command_line(
        ["manage.py", "receive_mail", "--recipient", mail.extra_headers["Reply-To"]]
    )  # closes the database connections as it ends (run_from_argv): nothing read after it
    assert "applied" in capsys.readouterr().out


def test_the_pipe_command_asks_the_mta_to_retry_or_refuses_a_huge_message(monkeypatch):
    from django.core.management import call_command
    from django.db import OperationalError

    from games.management.commands import receive_mail
    from games.models import InboundMail

    def down(*args, **kwargs):
        raise OperationalError("the database is down")

    raw = b"From: a@example.com\r\nTo: turn+x@reply.localhost\r\n\r\npass\r\n"
    monkeypatch.setattr(receive_mail, "mail_receive", down)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    with pytest.raises(SystemExit) as exc:
        call_command("receive_mail")
    assert exc.value.code == 75  # EX_TEMPFAIL: the MTA keeps the message and tries again
    monkeypatch.undo()
    monkeypatch.setattr(receive_mail, "MAX_BYTES", 10)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    with pytest.raises(SystemExit) as exc:
        call_command("receive_mail")
    assert exc.value.code == 65  # EX_DATAERR, and nothing read into the log
    assert not InboundMail.objects.exists()


def test_the_mailgun_webhook_checks_its_signature(new_game, client, settings):
    from games.models import InboundMail, Move

    gid, _seats, _seat, p, mail, s = _setup(new_game)
    raw = _reply(mail.extra_headers["Reply-To"], p.user.email, f"choose {s.market[0]}").decode()
    assert client.post("/inbound/mailgun/", {"body-mime": raw}).status_code == 404  # off
    settings.INBOUND_MAILGUN_SIGNING_KEY = "key-123"
    ts, token = str(int(time.time())), "t" * 50
    bad = {"body-mime": raw, "timestamp": ts, "token": token, "signature": "0" * 64}
    assert client.post("/inbound/mailgun/", bad).status_code == 400
    assert not Move.objects.exists()
    sig = hmac.new(b"key-123", f"{ts}{token}".encode(), hashlib.sha256).hexdigest()
    good = {**bad, "signature": sig, "recipient": mail.extra_headers["Reply-To"],
            "sender": p.user.email}  # fmt: skip
    assert client.post("/inbound/mailgun/", good).status_code == 200
    assert Move.objects.get(game_id=gid).source == "email"
    assert InboundMail.objects.get().via == "mailgun"


def test_the_dev_mailbox_reply_button_feeds_the_same_handler(new_game, client, settings, tmp_path):
    settings.DEBUG = True
    settings.EMAIL_FILE_PATH = str(tmp_path)
    gid, _seats, _seat, _p, mail, s = _setup(new_game)
    from django.core.mail.backends.filebased import EmailBackend

    EmailBackend(file_path=str(tmp_path)).send_messages([mail])
    from games.models import Move
    from games.notifications.mailbox import mailbox_list

    key = mailbox_list()[0].key
    page = client.get(f"/dev/mailbox/{key}/").content.decode()
    assert "Send the reply" in page
    r = client.post(f"/dev/mailbox/{key}/reply/", {"text": f"choose {s.market[0]}"})
    assert r.status_code == 302
    assert Move.objects.get(game_id=gid).source == "email"


@pytest.mark.parametrize(
    "where",
    [
        "Message-ID: <a\x00b@client.example>",
        "From: Player <pl\x00ayer@example.com>",
        "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable",
    ],
)
def test_a_nul_byte_anywhere_in_a_message_is_read_past_never_a_crash(new_game, where):
    """Anyone can mail the reply address; PostgreSQL stores no NUL in text, so a NUL in a
    header (or the reply's line) must not reach the database as it came."""
    from games.inbox.receive import mail_receive
    from games.models import InboundMail

    _gid, _seats, _seat, p, mail, s = _setup(new_game)
    reply_to = mail.extra_headers["Reply-To"]
    raw = _reply(reply_to, p.user.email, f"choose=00\x00 {s.market[0]}")
    name = where.split(":", 1)[0]
    raw = raw.replace(
        next(line for line in raw.split(b"\r\n") if line.startswith(name.encode())),
        where.encode(),
    )
    got = mail_receive(raw, via="pipe")
    assert got.status in ("applied", "ignored", "refused")
    assert InboundMail.objects.count() == 1


def _to_phase_five(gid: int, players) -> None:
    """The awaited players make the engine's default moves until phase 5 awaits everyone."""
    from apihelpers import play_default

    import powergrid
    from games.models import Game

    for _ in range(300):
        s = powergrid.from_json(Game.objects.get(pk=gid).state_json)
        if s.phase == "bureaucracy":
            return
        play_default(gid, players)
    raise AssertionError("phase 5 not reached")


def _power(gid: int, player, seat: int) -> None:
    import powergrid
    from games.models import Game

    game = Game.objects.get(pk=gid)
    action = powergrid.default_action(powergrid.from_json(game.state_json), seat)
    r = player.post(f"/api/v1/games/{gid}/moves/", {"action": action, "expected_seq": game.seq})
    assert r.status_code == 201, r.content


def _token_now(gid: int, seat: int, user) -> str:
    from games.inbox.tokens import make_token
    from games.models import Game

    seq = Game.objects.get(pk=gid).seq
    token = make_token(
        game_id=gid, seat=seat, seq=seq, user_id=user.pk, expires=int(time.time()) + 3600
    )
    return f"turn+{token}@reply.localhost"


def test_a_reply_to_an_older_position_is_refused_when_it_now_asks_something_else(new_game):
    """Every move since the email was another seat's power, but the last of them ended the
    round: the seat that powered first now opens the next round's auction. A reply to the old
    email (its answer's reply address, say) must not be taken as the new question's answer."""
    import powergrid
    from games.inbox.receive import mail_receive
    from games.models import Game, Move, Notification
    from games.notifications.emails import email_build

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    _to_phase_five(gid, ps)
    state = powergrid.from_json(Game.objects.get(pk=gid).state_json)
    # Who opens the next round: power everyone on a copy of the game, read who is awaited.
    after = state
    for seat in powergrid.to_act(state):
        after = powergrid.apply(after, seat, powergrid.default_action(after, seat))
    opener = powergrid.to_act(after)[0]
    _power(gid, seats[opener], opener)
    address = _token_now(gid, opener, seats[opener].user)  # the opener is not asked anything
    for seat in powergrid.to_act(powergrid.from_json(Game.objects.get(pk=gid).state_json)):
        _power(gid, seats[seat], seat)
    game = Game.objects.get(pk=gid)
    assert powergrid.from_json(game.state_json).phase == "auction"
    assert game.to_act == [opener]
    moves = Move.objects.count()
    got = mail_receive(_reply(address, seats[opener].user.email, "pass"), via="pipe")
    assert (got.status, got.code) == ("refused", "stale_state")
    assert Move.objects.count() == moves
    answer = email_build(Notification.objects.filter(kind="reply").latest("id"))
    assert f"That email was about move {game.seq - 2} of the game" in answer.body
    assert f"it is at move {game.seq} now" in answer.body
    assert "It is your turn. What you can do:" in answer.body


def test_a_reply_still_answers_the_same_question_after_others_powered(new_game):
    """The simultaneous case stays: other seats' power moves since the email leave this seat's
    phase 5 choice exactly as it was, so its reply is made."""
    import powergrid
    from games.inbox.receive import mail_receive
    from games.models import Game, Move

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    _to_phase_five(gid, ps)
    awaited = powergrid.to_act(powergrid.from_json(Game.objects.get(pk=gid).state_json))
    late = awaited[-1]
    address = _token_now(gid, late, seats[late].user)
    for seat in awaited[:-1]:
        _power(gid, seats[seat], seat)
    got = mail_receive(_reply(address, seats[late].user.email, "power"), via="pipe")
    assert got.status == "applied", got
    assert Move.objects.filter(game_id=gid).latest("seq").seat == late


@pytest.mark.parametrize("other_answer", ["pass", "bid"])
def test_a_reply_in_a_sealed_auction_is_taken_after_a_pass_as_after_a_bid(new_game, other_answer):
    """A sealed auction's answers are given at the same time, a pass as much as a bid: another
    bidder's answer since the email leaves the reply standing either way. (Were a pass to make
    the reply stale and a bid not, the refusal would tell the replier that someone passed.)"""
    from apihelpers import open_first_auction

    from games.inbox.receive import mail_receive
    from games.models import Game, Move

    gid, ps = new_game(players=4, options={"variant": "sealed_bid"})
    seats = seat_players(gid, ps)
    s, opener, plant = open_first_auction(gid, seats)
    a, b, _c = [x for x in s.order if x != opener]
    address = _token_now(gid, b, seats[b].user)
    action = (
        {"type": "pass_bid"}
        if other_answer == "pass"
        else {"type": "seal_bid", "amount": plant + 5}
    )
    seq = Game.objects.get(pk=gid).seq
    r = seats[a].post(f"/api/v1/games/{gid}/moves/", {"action": action, "expected_seq": seq})
    assert r.status_code == 201
    got = mail_receive(_reply(address, seats[b].user.email, f"bid {plant + 2}"), via="pipe")
    assert got.status == "applied", got
    last = Move.objects.filter(game_id=gid).latest("seq")
    assert (last.seat, last.action["type"]) == (b, "seal_bid")


def test_refusals_are_answered_a_few_times_an_hour_so_a_mail_loop_stops(new_game, settings):
    """An auto-responder that does not say it is one answers each of our answers: each of its
    replies is refused (not a move), but only the first few of an hour are answered; every one
    is logged. An hour later a person who mistypes is answered again."""
    import time_machine
    from django.utils import timezone

    from games.inbox.receive import mail_receive
    from games.models import InboundMail, Notification

    settings.INBOUND_REFUSALS_ANSWERED_PER_HOUR = 3
    gid, _seats, _seat, p, mail, _s = _setup(new_game)
    to = mail.extra_headers["Reply-To"]
    answers = Notification.objects.filter(game_id=gid, recipient=p.user, kind="reply")
    with time_machine.travel(timezone.now(), tick=False) as clock:
        got = [
            mail_receive(
                _reply(to, p.user.email, "I am away until Monday.", mid=f"<away{i}@x.example>"),
                via="pipe",
            )
            for i in range(6)
        ]
        assert [(g.status, g.answered) for g in got] == [("refused", True)] * 3 + [
            ("refused", False)
        ] * 3
        assert answers.count() == 3
        assert InboundMail.objects.filter(game_id=gid, status="refused").count() == 6
        clock.shift(3601)
        again = mail_receive(
            _reply(to, p.user.email, "plese wait", mid="<p@x.example>"), via="pipe"
        )
        assert (again.status, again.answered) == ("refused", True)
        assert answers.count() == 4


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("x" * 200_000 + "TAIL", "unknown_command"),  # one word, no spaces: a pasted blob
        ("build " + "y" * 200_000 + "TAIL", "unknown_city"),
        ("buy 2 " + "z" * 200_000 + "TAIL", "unknown_resource"),
    ],
)
def test_an_answer_quotes_a_few_words_of_the_reply_never_the_reply(new_game, body, code):
    """A refusal names the word it did not understand, cut to ``QUOTED_MOST`` characters with
    an ellipsis: the answer stays an answer's size whatever the reply holds, and carries
    nothing of a stranger's text beyond a recognisable start."""
    from games.inbox.receive import mail_receive
    from games.models import Notification
    from games.notifications.emails import email_build

    gid, _seats, _seat, p, mail, _s = _setup(new_game)
    got = mail_receive(_reply(mail.extra_headers["Reply-To"], p.user.email, body), via="pipe")
    assert got.code in (code, "unknown_command")  # the verb may come first in its phase
    n = Notification.objects.get(kind="reply", game_id=gid)
    assert len(n.payload["message"]) < 200
    assert "…" in n.payload["message"]
    answer = email_build(n)
    assert len(answer.body) < 20_000
    assert "TAIL" not in answer.body
    assert all("TAIL" not in str(content) for content, _type in answer.alternatives)
