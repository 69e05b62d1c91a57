"""The outbox sends nothing to an undeliverable address and records why on each row; a
recipient refused for good by our SMTP server or the provider's API makes the address
undeliverable (other refusals are retried as before); a confirmed address is sent to again."""

from __future__ import annotations

import smtplib

import pytest
from django.core import mail
from outbox_stubs import _mail_and_tasks  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db


def _rows(*players, kind="other"):
    from games.models import Notification

    return [
        Notification.objects.create(recipient=p.user, kind=kind, payload={}).pk for p in players
    ]


def _mark(user, reason="hard_bounce"):
    from django.utils import timezone

    from accounts import deliverability

    assert deliverability.address_mark_undeliverable(
        user=user, address=user.email, reason=reason, at=timezone.now()
    )


def test_an_undeliverable_address_gets_nothing_and_the_row_says_why(make_player, monkeypatch):
    from games.models import Notification
    from games.notifications import emails, sending

    bad, good = make_player(), make_player()
    _mark(bad.user)
    built: list[int] = []
    real = emails.email_build
    monkeypatch.setattr(emails, "email_build", lambda n, pf=None: built.append(n.pk) or real(n, pf))
    ids = _rows(bad, good, bad)
    counts = sending.notifications_send(ids=ids)
    assert counts == {"withheld": 2, "skipped": 1}  # a row of kind "other" has no email
    rows = {n.pk: n for n in Notification.objects.filter(pk__in=ids)}
    for pk in (ids[0], ids[2]):
        assert rows[pk].status == "withheld"
        assert bad.user.email in rows[pk].last_error
        assert "hard_bounce" in rows[pk].last_error
        assert pk not in built  # not even built
    assert built == [ids[1]]
    assert rows[ids[1]].status == "sent"


def test_turn_emails_to_an_undeliverable_player_are_withheld_others_go(awaited):
    from games.models import Notification
    from games.notifications import sending

    gid, p, n = awaited
    _mark(p.user)
    others = list(
        Notification.objects.filter(game_id=gid)
        .exclude(recipient=p.user)
        .values_list("pk", flat=True)
    )
    sending.notifications_send(ids=[n.pk, *others])
    assert Notification.objects.get(pk=n.pk).status == "withheld"
    assert p.user.email not in [a for m in mail.outbox for a in m.to]
    assert mail.outbox  # the others' emails went


def test_a_confirmed_address_is_sent_to_again(make_player):
    from accounts import deliverability
    from games.models import Notification
    from games.notifications import sending

    p = make_player()
    _mark(p.user)
    first = _rows(p)
    sending.notifications_send(ids=first)
    assert Notification.objects.get(pk=first[0]).status == "withheld"
    assert deliverability.address_confirmed(user=p.user, address=p.user.email)
    again = _rows(p, kind="game_full")
    sending.notifications_send(ids=again)
    assert Notification.objects.get(pk=again[0]).status != "withheld"


@pytest.mark.parametrize(
    ("code", "reply", "marked"),
    [
        (550, b"5.1.1 <x>: Recipient address rejected: User unknown", True),
        (550, b"5.1.2 Host or domain name not found", True),
        (554, b"5.7.1 <x>: Relay access denied", False),  # our relay's fault, not the address
        (450, b"4.2.0 Greylisted, try again", False),
        (550, b"Mailbox unavailable", False),  # no enhanced status: nothing said about it
    ],
)
def test_our_smtp_server_refusing_the_recipient(make_player, monkeypatch, code, reply, marked):
    from accounts.models import Profile
    from games.models import MailEvent, Notification
    from games.notifications import emails, sending, smtp

    p = make_player()
    ids = _rows(p, kind="game_full")

    def refuse(message):
        raise smtplib.SMTPRecipientsRefused({p.user.email: (code, reply)})

    monkeypatch.setattr(smtp, "deliver", refuse)
    monkeypatch.setattr(emails, "email_build", lambda n, pf=None: _message(n))
    sending.notifications_send(ids=ids)
    row = Notification.objects.get(pk=ids[0])
    prof = Profile.objects.get(user=p.user)
    if marked:
        assert row.status == "withheld"
        assert row.last_error.startswith("refused: ")
        assert prof.email_undeliverable_reason == "rejected"
        event = MailEvent.objects.get()
        assert (event.kind, event.source, event.notification_id) == ("rejected", "smtp", ids[0])
    else:
        assert row.status == "pending"  # retried later, as any failure
        assert prof.email_undeliverable_at is None
        assert not MailEvent.objects.exists()


def test_a_provider_api_refusing_every_recipient_marks_the_address(make_player, monkeypatch):
    from anymail.exceptions import AnymailRecipientsRefused

    from accounts.models import Profile
    from games.models import MailEvent, Notification
    from games.notifications import emails, sending, smtp

    p = make_player()
    ids = _rows(p, kind="game_full")

    def refuse(message):
        raise AnymailRecipientsRefused("All message recipients were rejected or invalid")

    monkeypatch.setattr(smtp, "deliver", refuse)
    monkeypatch.setattr(emails, "email_build", lambda n, pf=None: _message(n))
    sending.notifications_send(ids=ids)
    assert Notification.objects.get(pk=ids[0]).status == "withheld"
    assert Profile.objects.get(user=p.user).email_undeliverable_reason == "rejected"
    assert MailEvent.objects.get().source == "provider"


def _message(n):
    from django.core.mail import EmailMultiAlternatives

    m = EmailMultiAlternatives(subject="s", body="b", to=[n.recipient.email])
    m.attach_alternative("<p>b</p>", "text/html")
    return m
