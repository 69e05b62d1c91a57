"""A reply from an address that is not the account's (an alias, a work address, a mail client
with another From): the move is not made, and the ACCOUNT's address is told, in its owner's
language, where the reply came from and which address moves are taken from; the sender never
hears a word (an address the player added and confirmed on the account page is theirs:
``accounts.senders.speaks_for``). At most ``INBOUND_REFUSALS_ANSWERED_PER_HOUR`` such answers
to an account an hour in a game, shared with the other refusals; automatic mail, forged tokens
and the rest are ignored as before."""

from __future__ import annotations

import time

import pytest
from test_receive import _reply, _setup

pytestmark = pytest.mark.django_db

OTHER = "taro.work+pg@elsewhere.example"
#: What the reply says: none of it may reach the answer.
BODY = "choose {plant}\n\nSent from my work phone. SECRET-WORDS-7731"


@pytest.fixture(autouse=True)
def _catalogue():
    from tests.i18n_helpers import ensure_compiled

    ensure_compiled()


def _expected(gid: int, other: str, account: str, lang: str) -> tuple[str, str, str]:
    """The subject and the two sentences, as the catalogue has them in ``lang``."""
    from django.utils import translation

    from games.models import Game
    from games.notifications.emails import map_name

    with translation.override(lang):
        ids = {"id": gid, "map": map_name(Game.objects.get(pk=gid).map)}
        subject = translation.gettext(
            "[Power Grid] A reply from another address was not taken in game #%(id)s (%(map)s)"
        )
        came = (
            translation.gettext(
                "A reply to your turn email for game #%(id)s (%(map)s) came from %(other)s, "
                "which is not your account's address; nothing was changed."
            )
            % {**ids, "other": other}
            if other
            else translation.gettext(
                "A reply to your turn email for game #%(id)s (%(map)s) came from another "
                "address, which is not your account's address; nothing was changed."
            )
            % ids
        )
        only = translation.gettext(
            "Moves by email are taken only from %(account)s and the other addresses you have "
            "confirmed on your account page."
        ) % {"account": account}
        mine = translation.gettext(
            "If you wrote from another address of your own, add it on your account page and "
            "confirm it:"
        )
        return subject % ids, came, f"{only}\n{mine}"


def _not_you(lang: str) -> str:
    """The sentence for a player who did not write the reply, as the catalogue has it."""
    from django.utils import translation

    with translation.override(lang):
        return translation.gettext(
            "If you did not write it, someone else has one of your turn emails. That reply "
            "changed nothing, but whoever holds a turn email can move for you with its one-tap "
            "links, and perhaps by a reply that gives your address as its sender. Do not forward "
            "your turn emails: their reply address and links are your key to the game."
        )


def _answers(gid: int):
    from games.models import Notification

    return Notification.objects.filter(game_id=gid, kind="reply")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_account_is_told_once_in_its_language_and_the_sender_never(new_game, lang):
    from django.urls import reverse
    from django.utils import translation

    from games.inbox.receive import mail_receive
    from games.models import Game, InboundMail, Move
    from games.notifications import links
    from games.notifications.emails import email_build

    gid, seats, seat, p, mail, s = _setup(new_game)
    p.user.profile.language = lang
    p.user.profile.save()
    raw = _reply(mail.extra_headers["Reply-To"], OTHER, BODY.format(plant=s.market[0]))
    got = mail_receive(raw, via="pipe")
    assert (got.status, got.code, got.answered) == ("refused", "wrong_sender", True)
    row = InboundMail.objects.get()
    assert (row.status, row.code, row.sender, row.seat, row.line) == (
        "refused", "wrong_sender", OTHER, seat, ""
    )  # fmt: skip
    assert not Move.objects.filter(game_id=gid).exists()
    assert Game.objects.get(pk=gid).seq == 0
    answer = _answers(gid).get()
    assert answer.recipient == p.user
    built = email_build(answer)
    assert built.to == [p.user.email]  # the account's address, never the sender's
    assert OTHER not in " ".join(built.to + built.cc + built.bcc)
    assert "Reply-To" not in built.extra_headers  # no reply address: nothing to answer with
    subject, came, only = _expected(gid, OTHER, p.user.email, lang)
    assert built.subject == subject
    html = built.alternatives[0][0]
    account_url = links.absolute(reverse("account_email"))
    not_you = _not_you(lang)
    assert f"{came}\n{only}\n{account_url}\n{not_you}\n" in built.body
    assert not_you in " ".join(html.split())
    for part in (built.body, html):  # the old answer told a victim there was nothing to do
        assert "need do nothing" not in part
    for shown in (OTHER, p.user.email, f'href="{account_url}"'):
        assert shown in html
    with translation.override(lang):  # the email's own words are the owner's language
        label = translation.gettext("Open the game (this link logs you in; it expires):")
    # Nothing of the message and nothing of the game: the lines between the greeting and the
    # signature are the two sentences, the account page, and the game's link.
    lines = built.body.split("\n-- \n")[0].splitlines()[1:]
    assert [x for x in lines if x] == [
        came, *only.split("\n"), account_url, not_you, label, lines[-1]
    ]  # fmt: skip
    assert lines[-1].startswith("http")
    others = [x.user.email for x in seats.values() if x is not p]
    for part in (built.body, html):
        for unwanted in ("SECRET-WORDS", "work phone", "choose", "Elektro", *others):
            assert unwanted not in part
        assert "money" not in part.lower()


def test_a_reply_from_another_players_address_is_told_to_the_seats_player_only(new_game):
    """The From line names another account (another player of the game): that account hears
    nothing, the seat's player is told."""
    from games.inbox.receive import mail_receive
    from games.models import Move, Notification

    gid, seats, seat, p, mail, s = _setup(new_game)
    other = next(x for n, x in seats.items() if n != seat)
    raw = _reply(mail.extra_headers["Reply-To"], other.user.email, f"choose {s.market[0]}")
    got = mail_receive(raw, via="pipe")
    assert (got.status, got.code, got.answered) == ("refused", "wrong_sender", True)
    assert not Notification.objects.filter(recipient=other.user, kind="reply").exists()
    assert list(_answers(gid).values_list("recipient_id", flat=True)) == [p.user.pk]
    assert not Move.objects.filter(game_id=gid).exists()


@pytest.mark.parametrize(
    ("whose", "verified", "moves"),
    [
        ("the player's", True, True),  # added on the account page and confirmed
        ("the player's", False, False),  # added, never confirmed: anyone can type an address
        ("another account's", True, False),  # confirmed, but by someone else
    ],
)
def test_an_address_speaks_for_the_player_only_once_they_confirmed_it(
    new_game, whose, verified, moves
):
    """A work address or an alias the player added and confirmed on the account page is theirs:
    its replies move (in any letter case); one not confirmed, or another account's, is refused
    as any other address is, and the account is told."""
    from allauth.account.models import EmailAddress
    from django.contrib.auth import get_user_model

    from games.inbox.receive import mail_receive
    from games.models import Move

    gid, _seats, seat, p, mail, s = _setup(new_game)
    owner = p.user
    if whose != "the player's":
        owner = get_user_model().objects.create_user("outsider", "outsider@example.com", "pw-1x")
    EmailAddress.objects.create(user=owner, email=OTHER, verified=verified, primary=False)
    raw = _reply(mail.extra_headers["Reply-To"], OTHER.upper(), f"choose {s.market[0]}")
    got = mail_receive(raw, via="pipe")
    if moves:
        assert got.status == "applied", got
        assert Move.objects.filter(game_id=gid, seat=seat, source="email").count() == 1
    else:
        assert (got.status, got.code) == ("refused", "wrong_sender")
        assert not Move.objects.filter(game_id=gid).exists()
        assert list(_answers(gid).values_list("recipient_id", flat=True)) == [p.user.pk]


def test_a_from_line_that_is_not_a_plain_address_is_not_shown(new_game):
    """Anyone writes a From line: one that is no plain address (a link, spaces) is not copied
    into our email; the owner reads "another address"."""
    from games.inbox.receive import mail_receive
    from games.notifications.emails import email_build

    gid, _seats, _seat, p, mail, _s = _setup(new_game)
    raw = _reply(mail.extra_headers["Reply-To"], "x@y.example", "pass")
    weird = '"http://win.example/claim-prize"@evil.example'  # a quoted local part: valid
    raw = raw.replace(b"From: Player <x@y.example>", f"From: <{weird}>".encode())
    got = mail_receive(raw, via="pipe")
    assert (got.status, got.code, got.answered) == ("refused", "wrong_sender", True)
    built = email_build(_answers(gid).get())
    _subject, came, _only = _expected(gid, "", p.user.email, "en")
    assert came in built.body
    for part in (built.body, built.alternatives[0][0]):
        for unwanted in ("win.example", "evil.example"):
            assert unwanted not in part


def test_answers_are_capped_per_seat_and_hour_with_the_other_refusals(new_game, settings):
    """Someone writing to a reply address again and again (or an auto-responder that does not
    say it is one) gets the seat's player at most the cap of answers an hour; every message is
    logged, none moves. The cap is the refusals' own: the owner's mistyped reply in the same hour
    is logged, not answered; an hour later the owner is answered again."""
    import time_machine
    from django.utils import timezone

    from games.inbox.receive import mail_receive
    from games.models import InboundMail, Move

    cap = 3
    settings.INBOUND_REFUSALS_ANSWERED_PER_HOUR = cap
    gid, _seats, _seat, p, mail, s = _setup(new_game)
    to = mail.extra_headers["Reply-To"]
    with time_machine.travel(timezone.now(), tick=False) as clock:
        got = [
            mail_receive(_reply(to, OTHER, f"choose {s.market[0]}", mid=f"<s{i}@x>"), via="pipe")
            for i in range(cap + 2)
        ]
        assert [(g.status, g.code, g.answered) for g in got] == [
            ("refused", "wrong_sender", True)
        ] * cap + [("refused", "wrong_sender", False)] * 2
        assert _answers(gid).count() == cap
        assert InboundMail.objects.filter(code="wrong_sender", status="refused").count() == cap + 2
        mine = mail_receive(_reply(to, p.user.email, "plese wait", mid="<own@x>"), via="pipe")
        assert (mine.status, mine.code, mine.answered) == ("refused", "unknown_command", False)
        assert _answers(gid).count() == cap
        clock.shift(3601)
        later = mail_receive(_reply(to, OTHER, "pass", mid="<later@x>"), via="pipe")
        assert (later.status, later.answered) == ("refused", True)
        assert _answers(gid).count() == cap + 1
    assert not Move.objects.filter(game_id=gid).exists()


@pytest.mark.parametrize(
    ("headers", "sender", "subject", "code"),
    [
        ("Auto-Submitted: auto-replied\r\n", OTHER, "", "auto_submitted"),
        ("Precedence: bulk\r\n", OTHER, "", "bulk"),
        ("X-Autoreply: yes\r\n", OTHER, "", "auto_reply"),
        ("Return-Path: <>\r\n", OTHER, "", "bounce"),
        ("", "mailer-daemon@elsewhere.example", "", "bounce"),
        ("", OTHER, "Out of Office: your turn", "auto_reply"),
    ],
)
def test_automatic_mail_from_another_address_is_never_answered(
    new_game, headers, sender, subject, code
):
    from games.inbox.receive import mail_receive
    from games.models import InboundMail, Move

    gid, _seats, _seat, _p, mail, s = _setup(new_game)
    raw = _reply(mail.extra_headers["Reply-To"], sender, f"choose {s.market[0]}", headers=headers)
    if subject:
        raw = raw.replace(b"Subject: Re: your turn", f"Subject: {subject}".encode())
    got = mail_receive(raw, via="pipe")
    assert (got.status, got.code, got.answered) == ("ignored", code, False)
    assert InboundMail.objects.get().code == code
    assert not _answers(gid).exists()
    assert not Move.objects.filter(game_id=gid).exists()


def test_forged_tokens_and_seats_not_held_from_another_address_stay_ignored(new_game):
    from games.inbox.receive import mail_receive
    from games.inbox.tokens import make_token
    from games.models import Notification

    gid, seats, seat, _p, mail, _s = _setup(new_game)
    to = mail.extra_headers["Reply-To"]
    token = to.split("+", 1)[1].split("@")[0]
    forged = to.replace(token, token[:10] + ("a" if token[10] != "a" else "b") + token[11:])
    other = next(x for n, x in seats.items() if n != seat)
    not_held = make_token(  # signed, but for a seat this user does not hold
        game_id=gid, seat=seat, seq=0, user_id=other.user.pk, expires=int(time.time()) + 3600
    )
    for address, code in ((forged, "forged"), (f"turn+{not_held}@reply.localhost", "no_game")):
        got = mail_receive(_reply(address, OTHER, "pass"), via="pipe")
        assert (got.status, got.code, got.answered) == ("ignored", code, False)
    assert not Notification.objects.filter(kind="reply").exists()


def test_an_account_without_an_address_is_not_answered(new_game):
    from games.inbox.receive import mail_receive

    gid, _seats, _seat, p, mail, _s = _setup(new_game)
    type(p.user).objects.filter(pk=p.user.pk).update(email="")
    got = mail_receive(_reply(mail.extra_headers["Reply-To"], OTHER, "pass"), via="pipe")
    assert (got.status, got.code, got.answered) == ("ignored", "wrong_sender", False)
    assert not _answers(gid).exists()


def test_the_lmtp_service_path_meets_the_same_handler(new_game):
    """Stored by the LMTP service, handled by the worker: the same refusal and answer."""
    from games.inbox.intake import inbound_process, intake_store

    gid, _seats, _seat, p, mail, _s = _setup(new_game)
    to = mail.extra_headers["Reply-To"]
    stored = intake_store(_reply(to, OTHER, "pass"), recipient=to)
    assert inbound_process(stored.row_id) == "refused wrong_sender"
    assert _answers(gid).get().recipient == p.user
