"""The daily digest, for players whose notification mode is ``digest``.

``digests_queue`` (periodic, hourly) writes one ``digest`` row per such player and local day, once
their local time has passed ``NOTIFY_DIGEST_HOUR`` (default 8:00); the dedupe key
``digest:<user>:<local date>`` keeps it to one a day however often the job runs. The email lists the
games waiting for the player (with deadlines), the games started and finished and the others' chat
messages since the previous digest; a digest with nothing in it is not sent.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from accounts.models import Profile
from accounts.zones import zone_named
from games.models import Notification
from games.notifications.outbox import schedule_send_pending


def digest_hour() -> int:
    return int(settings.NOTIFY_DIGEST_HOUR)


def digests_queue(*, now: datetime | None = None) -> int:
    now = now or timezone.now()
    rows = []
    profiles = Profile.objects.filter(notification_mode=Profile.NotificationMode.DIGEST).exclude(
        user__email=""
    )
    for p in profiles.select_related("user").iterator():
        zone = zone_named(p.timezone)
        local = now.astimezone(zone)
        if local.hour < digest_hour():
            continue
        last = (
            Notification.objects.filter(recipient_id=p.user_id, kind=Notification.Kind.DIGEST)
            .order_by("-created_at")
            .values_list("created_at", flat=True)
            .first()
        )
        since = last or (now - timedelta(days=1))
        rows.append(
            Notification(
                recipient_id=p.user_id,
                game=None,
                kind=Notification.Kind.DIGEST,
                payload={"date": local.date().isoformat(), "since": since.isoformat()},
                dedupe_key=f"digest:{p.user_id}:{local.date().isoformat()}",
            )
        )
    if rows:
        Notification.objects.bulk_create(rows, ignore_conflicts=True)
        schedule_send_pending()
    return len(rows)
