"""The last day's bounce and complaint rates, for ``/health/`` and the admin.

Rates are reports over emails handed to the MTA or provider in the same 24 hours (the outbox's
``sent_at``, indexed): bounces (hard and soft) and complaints counted from ``MailEvent``. A rate
above what providers act on is flagged: ``MAIL_BOUNCE_RATE_MAX`` (5 %: Amazon SES reviews a
sender there, others at 5-10 %) and ``MAIL_COMPLAINT_RATE_MAX`` (0.1 %: mailbox providers'
limit for spam complaints); a day with fewer than ``MAIL_RATES_MIN_SENT`` emails is shown but not
flagged. The figures are kept in the cache for a minute (the health check is polled often).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TypedDict, cast

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Q
from django.utils import timezone

from games.models import MailEvent, Notification

CACHE_KEY = "mailevents:rates"
CACHE_SECONDS = 60

Kind = MailEvent.Kind


class Rates(TypedDict):
    """The last 24 hours' sending figures, their rates and the providers' thresholds; ``flagged``
    names the rates above them (``bounce_rate``, ``complaint_rate``)."""

    sent_24h: int
    bounces_24h: int
    complaints_24h: int
    rejected_24h: int
    bounce_rate: float
    complaint_rate: float
    bounce_rate_max: float
    complaint_rate_max: float
    flagged: list[str]


def rates_compute(*, now: datetime | None = None) -> Rates:
    """The last 24 hours' figures and flags (two indexed counts)."""
    now = now or timezone.now()
    since = now - timedelta(days=1)
    sent = Notification.objects.filter(sent_at__gte=since, sent_at__isnull=False).count()
    events = MailEvent.objects.filter(created_at__gte=since).aggregate(
        bounces=Count("pk", filter=Q(kind__in=[Kind.HARD_BOUNCE, Kind.SOFT_BOUNCE])),
        complaints=Count("pk", filter=Q(kind=Kind.COMPLAINT)),
        rejected=Count("pk", filter=Q(kind=Kind.REJECTED)),
    )
    bounces, complaints = events["bounces"], events["complaints"]
    bounce_rate = bounces / sent if sent else 0.0
    complaint_rate = complaints / sent if sent else 0.0
    judged = sent >= int(settings.MAIL_RATES_MIN_SENT)
    flags: list[str] = []
    if judged and bounce_rate > float(settings.MAIL_BOUNCE_RATE_MAX):
        flags.append("bounce_rate")
    if judged and complaint_rate > float(settings.MAIL_COMPLAINT_RATE_MAX):
        flags.append("complaint_rate")
    return {
        "sent_24h": sent,
        "bounces_24h": bounces,
        "complaints_24h": complaints,
        "rejected_24h": events["rejected"],
        "bounce_rate": round(bounce_rate, 5),
        "complaint_rate": round(complaint_rate, 5),
        "bounce_rate_max": float(settings.MAIL_BOUNCE_RATE_MAX),
        "complaint_rate_max": float(settings.MAIL_COMPLAINT_RATE_MAX),
        "flagged": flags,
    }


def rates(*, fresh: bool = False) -> Rates:
    """``rates_compute``, at most a minute old (``fresh``: now)."""
    if not fresh:
        cached = cache.get(CACHE_KEY)
        if isinstance(cached, dict):
            return cast(Rates, cached)  # what rates_compute answered
    figures = rates_compute()
    cache.set(CACHE_KEY, figures, timeout=CACHE_SECONDS)
    return figures
