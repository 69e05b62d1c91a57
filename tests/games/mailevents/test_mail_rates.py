"""Operators see it: ``/health/`` and the admin show the last day's bounce and complaint rates,
flagged above the providers' thresholds; a flag never fails the health check."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

pytestmark = pytest.mark.django_db


def _sent(user, n: int, *, ago: timedelta = timedelta(hours=1)) -> None:
    from games.models import Notification

    at = timezone.now() - ago
    Notification.objects.bulk_create(
        [Notification(recipient=user, kind="other", status="sent", sent_at=at) for _ in range(n)]
    )


def _events(kind: str, n: int, *, ago: timedelta = timedelta(hours=1)) -> None:
    from games.models import MailEvent

    rows = MailEvent.objects.bulk_create(
        [MailEvent(source="postmark", kind=kind, address=f"x{i}@example.com") for i in range(n)]
    )
    MailEvent.objects.filter(pk__in=[r.pk for r in rows]).update(created_at=timezone.now() - ago)


def _mail() -> dict:
    r = Client().get("/health/json/")
    assert r.status_code in (200, 503)
    return r.json()


def test_rates_over_the_last_day_and_their_flags(make_player, settings):
    from django.core.cache import cache

    p = make_player()
    _sent(p.user, 1000)
    _sent(p.user, 500, ago=timedelta(days=2))  # older than a day: not counted
    _events("hard_bounce", 30)
    _events("soft_bounce", 19)
    _events("complaint", 1)
    _events("hard_bounce", 400, ago=timedelta(days=2))
    body = _mail()
    mail = body["checks"]["mail"]
    assert (mail["sent_24h"], mail["bounces_24h"], mail["complaints_24h"]) == (1000, 49, 1)
    assert (mail["bounce_rate"], mail["complaint_rate"]) == (0.049, 0.001)
    assert mail["flagged"] == []
    assert body["flagged"] == []
    _events("soft_bounce", 2)
    _events("complaint", 1)
    assert _mail()["checks"]["mail"]["bounces_24h"] == 49  # kept for a minute
    cache.clear()
    body = _mail()
    assert body["checks"]["mail"]["flagged"] == ["bounce_rate", "complaint_rate"]
    assert body["flagged"] == ["mail.bounce_rate", "mail.complaint_rate"]
    assert body["checks"]["mail"]["ok"] is True  # a flag is not a failure
    text = Client().get("/health/").content.decode()
    assert "FLAGGED: mail.bounce_rate, mail.complaint_rate" in text
    assert "mail: ok FLAGGED" in text


def test_too_few_emails_are_shown_not_flagged(make_player, settings):
    p = make_player()
    _sent(p.user, settings.MAIL_RATES_MIN_SENT - 1)
    _events("complaint", 3)
    mail = _mail()["checks"]["mail"]
    assert mail["complaints_24h"] == 3
    assert mail["flagged"] == []


def test_the_admin_shows_the_rates(make_player):
    from django.contrib.auth import get_user_model

    p = make_player()
    _sent(p.user, 100)
    _events("hard_bounce", 10)
    _events("complaint", 1)
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    c = Client()
    c.force_login(admin)
    html = c.get("/admin/games/mailevent/").content.decode()
    assert "100 emails sent" in html
    assert "bounces 10 (10.00 %, flagged above 5 %) FLAGGED" in html
    assert "complaints 1 (1.000 %, flagged above 0.1 %) FLAGGED" in html
    assert "x0@example.com" in html
