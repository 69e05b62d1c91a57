"""SMTP bounces: each email's Return-Path is its own signed bounce address, and what a mail system
sends back to it arrives through ``receive_mail`` (the path replies take), is read as RFC 3464
says and acts on the player the address was made for: hard at once, soft after the count, never
for a delay, an out-of-office reply, a forged or stale bounce address."""

from __future__ import annotations

import io
import sys
from datetime import timedelta

import pytest
from mailhelpers import arf, dsn, out_of_office

pytestmark = pytest.mark.django_db


def _bounce_address(n) -> str:
    from games.notifications.emails import email_build

    mail = email_build(n)
    assert mail is not None
    return mail.from_email


def _pipe(raw: bytes, recipient: str, monkeypatch) -> str:
    """``manage.py receive_mail --recipient R < raw``, as Postfix runs it."""
    from django.core.management import call_command

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    out = io.StringIO()
    call_command("receive_mail", "--recipient", recipient, stdout=out)
    return out.getvalue().strip()


def _profile(user):
    from accounts.models import Profile

    return Profile.objects.get(user=user)


def test_an_email_carries_its_own_bounce_address_and_our_from_line(awaited, settings):
    from games.fastpath import wire
    from games.notifications.emails import email_build

    _gid, _p, n = awaited
    mail = email_build(n)
    assert mail.from_email.startswith("bounce+")
    assert mail.from_email.endswith("@reply.localhost")
    assert mail.extra_headers["From"] == settings.DEFAULT_FROM_EMAIL
    parsed = mail.message()
    assert parsed["From"] == settings.DEFAULT_FROM_EMAIL  # what the player sees
    payload = wire.smtp_payload(mail)
    if payload is not None:  # the fast path writes the same envelope and header
        assert payload[0] == mail.from_email
        assert f"From: {settings.DEFAULT_FROM_EMAIL}\r\n".encode() in payload[2]
    # Without a bounce domain, or with a provider's API, the envelope sender is ours.
    settings.BOUNCE_EMAIL_DOMAIN = ""
    assert email_build(n).from_email == settings.DEFAULT_FROM_EMAIL
    settings.BOUNCE_EMAIL_DOMAIN = "reply.localhost"
    settings.EMAIL_BACKEND = "anymail.backends.postmark.EmailBackend"
    assert email_build(n).from_email == settings.DEFAULT_FROM_EMAIL


def test_a_hard_bounce_through_receive_mail_marks_the_address_and_moves_the_deadline(
    awaited, monkeypatch
):
    from allauth.account.models import EmailAddress

    from games.models import InboundMail, MailEvent, Seat

    gid, p, n = awaited
    EmailAddress.objects.create(user=p.user, email=p.user.email, primary=True, verified=True)
    seat = Seat.objects.get(game_id=gid, user=p.user)
    before = seat.deadline
    assert before is not None
    bounce = _bounce_address(n)
    assert _pipe(dsn(bounce, p.user.email), bounce, monkeypatch) == "ignored bounce_hard"

    prof = _profile(p.user)
    assert prof.email_undeliverable_reason == "hard_bounce"
    assert prof.email_undeliverable_address == p.user.email
    assert prof.email_unverified_by_bounce is True
    assert not EmailAddress.objects.get(user=p.user).verified  # allauth can confirm it again
    event = MailEvent.objects.get()
    assert (event.kind, event.source, event.effect, event.notification_id) == (
        "hard_bounce",
        "dsn",
        "marked",
        n.pk,
    )
    assert "5.1.1" in event.detail
    row = InboundMail.objects.get()
    assert (row.status, row.code) == ("ignored", "bounce_hard")
    seat.refresh_from_db()
    assert seat.deadline == before + timedelta(hours=72)
    assert seat.reminder_at is None


@pytest.mark.parametrize(
    ("action", "status", "code"),
    [
        ("failed", "5.1.1", "bounce_hard"),  # no such mailbox
        ("failed", "5.1.2", "bounce_hard"),  # no such domain
        ("failed", "5.1.10", "bounce_hard"),  # null MX
        ("failed", "5.2.1", "bounce_hard"),  # mailbox disabled
        ("failed", "5.4.4", "bounce_hard"),  # no route to the domain
        ("failed", "5.2.2", "bounce_soft"),  # mailbox full
        ("failed", "5.7.1", "bounce_soft"),  # refused by policy
        ("failed", "4.4.7", "bounce_soft"),  # retries expired
        ("failed", "", "bounce_soft"),  # a failure without a status
        ("delayed", "4.4.1", "bounce_none"),  # still trying
        ("delivered", "2.0.0", "bounce_none"),
        ("relayed", "2.0.0", "bounce_none"),
        ("expanded", "2.0.0", "bounce_none"),
    ],
)
def test_every_dsn_action_and_status_class(awaited, action, status, code):
    from games.inbox.receive import mail_receive
    from games.models import MailEvent

    _gid, p, n = awaited
    bounce = _bounce_address(n)
    got = mail_receive(dsn(bounce, p.user.email, action=action, status=status), via="pipe")
    assert (got.status, got.code) == ("ignored", code)
    prof = _profile(p.user)
    assert (prof.email_undeliverable_at is not None) == (code == "bounce_hard")
    kinds = list(MailEvent.objects.values_list("kind", flat=True))
    assert kinds == {"bounce_hard": ["hard_bounce"], "bounce_soft": ["soft_bounce"]}.get(code, [])


def test_soft_bounces_mark_the_address_at_the_third_within_the_window(awaited, settings):
    from games.inbox.receive import mail_receive
    from games.models import MailEvent, Notification

    gid, p, n = awaited
    assert settings.MAIL_SOFT_BOUNCE_LIMIT == 3
    others = [
        Notification.objects.create(recipient=p.user, game_id=gid, kind="reminder", payload={})
        for _ in range(2)
    ]
    first = dsn(_bounce_address(n), p.user.email, status="5.2.2", mid="<full1@mx>")
    assert mail_receive(first, via="pipe").code == "bounce_soft"
    assert mail_receive(first, via="pipe").code == "duplicate"  # the same DSN again: once
    assert _profile(p.user).email_undeliverable_at is None
    second = dsn(_bounce_address(others[0]), p.user.email, status="4.2.2")
    mail_receive(second, via="pipe")
    assert _profile(p.user).email_undeliverable_at is None
    assert list(MailEvent.objects.order_by("id").values_list("effect", flat=True)) == [
        "counted",
        "counted",
    ]
    mail_receive(dsn(_bounce_address(others[1]), p.user.email, status="5.7.1"), via="pipe")
    prof = _profile(p.user)
    assert prof.email_undeliverable_reason == "soft_bounces"
    assert MailEvent.objects.latest("id").effect == "marked"


def test_soft_bounces_older_than_the_window_or_the_last_confirmation_do_not_count(awaited):
    from accounts import deliverability
    from games.inbox.receive import mail_receive
    from games.models import MailEvent

    _gid, p, n = awaited
    for i in range(2):
        mail_receive(
            dsn(_bounce_address(n), p.user.email, status="5.2.2", mid=f"<o{i}@mx>"), via="p"
        )
    MailEvent.objects.update(created_at=MailEvent.objects.first().created_at - timedelta(days=8))
    mail_receive(dsn(_bounce_address(n), p.user.email, status="5.2.2"), via="pipe")
    assert _profile(p.user).email_undeliverable_at is None  # the two old ones are out
    mail_receive(dsn(_bounce_address(n), p.user.email, status="5.2.2"), via="pipe")
    deliverability.address_confirmed(user=p.user, address=p.user.email)  # confirmed: from 0
    mail_receive(dsn(_bounce_address(n), p.user.email, status="5.2.2"), via="pipe")
    assert _profile(p.user).email_undeliverable_at is None
    assert MailEvent.objects.latest("id").effect == "counted"


def test_a_complaint_report_marks_the_address_and_turns_emails_off(awaited):
    from games.inbox.receive import mail_receive
    from games.models import MailEvent

    _gid, p, n = awaited
    got = mail_receive(arf(_bounce_address(n), p.user.email), via="pipe")
    assert got.code == "complaint"
    prof = _profile(p.user)
    assert prof.email_undeliverable_reason == "complaint"
    assert prof.notification_mode == "none"
    assert MailEvent.objects.get().kind == "complaint"
    # A "not-spam" feedback report is no complaint.
    got = mail_receive(arf(_bounce_address(n), p.user.email, feedback="not-spam"), via="pipe")
    assert got.code == "bounce_none"


def test_a_base64_delivery_status_part_is_read_too(awaited):
    from games.inbox.receive import mail_receive

    _gid, p, n = awaited
    raw = dsn(_bounce_address(n), p.user.email, status="5.1.1", encoded=True)
    assert mail_receive(raw, via="pipe").code == "bounce_hard"


LONG = "smtp; 550 5.1.1 <{r}>: Empfänger unbekannt, " + "the mailbox does not exist " * 4


@pytest.mark.parametrize("part_type", ["message/delivery-status", "message/global-delivery-status"])
@pytest.mark.parametrize("transfer", ["", "base64", "quoted-printable"])
def test_every_form_of_the_status_part_is_read(awaited, part_type, transfer):
    """The status part as RFC 3464 writes it, and as RFC 6533 does for an internationalized
    address (``message/global-delivery-status``, UTF-8 fields), each sent as is, base64- or
    quoted-printable-encoded: a hard bounce, its diagnostic read whole."""
    from games.inbox.receive import mail_receive
    from games.models import MailEvent

    _gid, p, n = awaited
    raw = dsn(
        _bounce_address(n), p.user.email, diagnostic=LONG, part_type=part_type, transfer=transfer
    )
    assert mail_receive(raw, via="pipe").code == "bounce_hard"
    detail = MailEvent.objects.get().detail
    assert "Empfänger unbekannt" in detail
    assert detail.endswith("the mailbox does not exist")
    assert "=" not in detail


def test_a_nul_in_an_encoded_report_is_dropped_not_a_crash(awaited):
    from games.inbox.receive import mail_receive
    from games.models import InboundMail, MailEvent

    _gid, p, n = awaited
    raw = dsn(
        _bounce_address(n),
        p.user.email,
        status="5.1.1",
        diagnostic="smtp; 550 5.1.1 no\x00one",
        encoded=True,
    )
    assert mail_receive(raw, via="pipe").code == "bounce_hard"
    assert "\x00" not in MailEvent.objects.get().detail
    assert "no" in InboundMail.objects.get().line


def test_a_bounce_in_no_standard_format_from_a_mail_system_counts_as_soft(awaited):
    from games.inbox.receive import mail_receive
    from games.models import MailEvent

    _gid, p, n = awaited
    raw = (
        f"From: MAILER-DAEMON@old.example.net\r\nTo: {_bounce_address(n)}\r\n"
        "Subject: failure notice\r\nMessage-ID: <qmail1@old.example.net>\r\n\r\n"
        f"Hi. This is the qmail-send program.\r\n<{p.user.email}>:\r\nSorry, no mailbox here.\r\n"
    ).encode()
    assert mail_receive(raw, via="pipe").code == "bounce_soft"
    assert MailEvent.objects.get().kind == "soft_bounce"


def test_an_out_of_office_reply_to_the_return_address_changes_nothing(awaited):
    from games.inbox.receive import mail_receive
    from games.models import MailEvent

    _gid, p, n = awaited
    got = mail_receive(out_of_office(_bounce_address(n), p.user.email), via="pipe")
    assert got.code == "bounce_none"
    assert not MailEvent.objects.exists()
    assert _profile(p.user).email_undeliverable_at is None


@pytest.mark.parametrize("change", ["mac", "user", "notification", "tag", "garbage"])
def test_a_forged_bounce_address_changes_nothing(awaited, change):
    from games.inbox.receive import mail_receive
    from games.models import InboundMail, MailEvent, Seat

    gid, p, n = awaited
    bounce = _bounce_address(n)
    local, domain = bounce.split("@")
    nid, uid, tag, mac = local.removeprefix("bounce+").split("-")
    forged = {
        "mac": f"{nid}-{uid}-{tag}-{'0' * 16 if mac != '0' * 16 else '1' * 16}",
        "user": f"{nid}-{int(uid) + 1}-{tag}-{mac}",
        "notification": f"{int(nid) + 1}-{uid}-{tag}-{mac}",
        "tag": f"{nid}-{uid}-{'0' * 8}-{mac}",
        "garbage": f"{nid}-{uid}-{tag}-{'z' * 16}",
    }[change]
    deadline = Seat.objects.get(game_id=gid, user=p.user).deadline
    got = mail_receive(dsn(f"bounce+{forged}@{domain}", p.user.email), via="pipe")
    if change == "garbage":  # not even the form of a bounce address: a reply, then ignored
        assert got.status == "ignored"
    else:
        assert got.code == "bounce_forged"
    assert not MailEvent.objects.exists()
    assert _profile(p.user).email_undeliverable_at is None
    assert Seat.objects.get(game_id=gid, user=p.user).deadline == deadline
    assert InboundMail.objects.count() == 1


def test_a_bounce_for_an_address_the_player_has_changed_since_changes_nothing(awaited):
    from games.inbox.receive import mail_receive
    from games.models import MailEvent

    _gid, p, n = awaited
    bounce = _bounce_address(n)
    p.user.email = "new-address@example.com"
    p.user.save()
    got = mail_receive(dsn(bounce, "old@example.com"), via="pipe")
    assert got.code == "bounce_old_address"
    assert not MailEvent.objects.exists()
    assert _profile(p.user).email_undeliverable_at is None


def test_a_reply_to_a_turn_email_still_goes_the_reply_way(awaited):
    """The bounce path takes only what is sent to a bounce address."""
    from games.inbox.receive import mail_receive

    _gid, p, _n = awaited
    raw = (
        f"From: <{p.user.email}>\r\nTo: turn+abc@reply.localhost\r\nSubject: Re: turn\r\n"
        "Message-ID: <r1@example.com>\r\n\r\npass\r\n"
    ).encode()
    assert mail_receive(raw, via="pipe").code in ("no_token", "forged")
