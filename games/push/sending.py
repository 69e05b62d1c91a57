"""Sending push notices: claim a batch, hold what the pace holds, drop turns played meanwhile,
encrypt and post the rest with VAPID (pywebpush), mark each row.

Delivery, as for emails (``games.notifications.claiming``): rows are claimed under
``FOR UPDATE SKIP LOCKED`` and a conditional UPDATE (``pending`` and due, or ``sending`` with a
claim older than the lease: its worker died), so two workers never both send one; the only window
for a second delivery is between the push service's 201 and our UPDATE to ``sent`` (a worker
killed in those milliseconds), and the notice carries a ``tag`` (``turn-<game>``), so a browser
shows a repeat in place of the first. The claim releases the row's dedupe key (the player's next
turn in that game gets a row of its own); a held row, or one waiting for its retry, takes it back
and gives way to a newer row if one came meanwhile.

What the push service answers: 201 sent; 404 or 410 the subscription is gone: the device is
deleted (``accounts.push.gone``); 400, 403 or 413 a refusal that will not change: ``failed``;
anything else (429, 5xx, a timeout, a refused connection) retried with the email outbox's
backoff (``claiming.retry_delay``), ``failed`` after ``claiming.MAX_ATTEMPTS``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TypedDict

import requests
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from pywebpush import WebPushException, webpush

from accounts import push as devices
from games import queue
from games.models import Game, PushMessage
from games.notifications import claiming, marking, pace
from games.sheets.asking import sheets_on

from .outbox import push_key

log = logging.getLogger("games.push")

Status = PushMessage.Status
#: Statuses a push service answers that will not change on a retry.
REFUSED = (400, 403, 413)
GONE = (404, 410)


class Notice(TypedDict):
    """What a notice says (the service worker shows it): public facts of the recipient's own
    turn only, never anything of the game's state."""

    title: str
    body: str
    url: str
    tag: str
    game: int


def notice(m: PushMessage, *, sheet: bool = False) -> Notice:
    """The notice of ``m`` in its recipient's language: a turn, or (``sheet``) the round sheet
    asked of a seat the game does not await yet (``games.sheets.asking``), which links to the
    sheet's page."""
    profile = getattr(m.recipient, "profile", None)
    language = getattr(profile, "language", "") or settings.LANGUAGE_CODE
    with translation.override(language):
        if sheet:
            return {
                "title": _("Your round sheet"),
                "body": _("A round began in Power Grid game #%(id)s: fill in your round sheet.")
                % {"id": m.game_id},
                "url": reverse("game_sheet", args=[m.game_id]),
                "tag": f"turn-{m.game_id}",
                "game": m.game_id,
            }
        return {
            "title": _("Your turn"),
            "body": _("It is your turn in Power Grid game #%(id)s.") % {"id": m.game_id},
            "url": reverse("game", args=[m.game_id]),
            "tag": f"turn-{m.game_id}",
            "game": m.game_id,
        }


def _due(now: datetime) -> Q:
    stale = now - timedelta(seconds=claiming.lease_seconds())
    pending = Q(status=Status.PENDING) & (Q(retry_at__isnull=True) | Q(retry_at__lte=now))
    return pending | Q(status=Status.SENDING, claimed_at__lt=stale)


def claim(
    *, ids: list[int] | None = None, game_id: int | None = None, limit: int = 100
) -> tuple[list[PushMessage], datetime]:
    """Claim up to ``limit`` due rows (``ids`` only, or ``game_id``'s, or any): (rows, claim)."""
    now = timezone.now()
    due = _due(now)
    with transaction.atomic():
        qs = PushMessage.objects.filter(due)
        if ids:
            qs = qs.filter(pk__in=ids)
        elif game_id is not None:
            qs = qs.filter(game_id=game_id)
        picked = list(
            qs.select_for_update(skip_locked=True).order_by("id").values_list("pk", flat=True)
        )[:limit]
        if picked:
            PushMessage.objects.filter(pk__in=picked).filter(due).update(
                status=Status.SENDING, claimed_at=now, attempts=F("attempts") + 1, dedupe_key=None
            )
    rows = list(
        PushMessage.objects.filter(pk__in=picked, status=Status.SENDING, claimed_at=now)
        .select_related("subscription", "recipient__profile")
        .order_by("id")
    )
    return rows, now


def _mine(m: PushMessage, claimed_at: datetime) -> Q:
    return Q(pk=m.pk, status=Status.SENDING, claimed_at=claimed_at)


def _back_to_pending(m: PushMessage, claimed_at: datetime, **fields: object) -> bool:
    """Pending again with the key taken back; False (and the row dropped as sent) when a newer
    row holds the key: it is the one that goes."""
    try:
        with transaction.atomic():
            return bool(
                PushMessage.objects.filter(_mine(m, claimed_at)).update(
                    status=Status.PENDING,
                    dedupe_key=push_key(m.game_id, m.subscription_id),
                    **fields,
                )
            )
    except IntegrityError:
        PushMessage.objects.filter(_mine(m, claimed_at)).update(
            status=Status.SENT, last_error="skipped: a newer notice replaces it"
        )
        return False


def _post(m: PushMessage, *, sheet: bool = False) -> None:
    """Encrypt (aes128gcm, RFC 8291) and post the notice, signed with the site's VAPID key."""
    key = devices.vapid()
    if key is None:
        raise WebPushException("Web Push is not configured (no VAPID key)")
    sub = m.subscription
    subject = settings.WEBPUSH_VAPID_SUBJECT or f"mailto:{_address()}"
    webpush(
        {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}},
        data=json.dumps(notice(m, sheet=sheet), ensure_ascii=False),
        vapid_private_key=key,
        vapid_claims={"sub": subject},
        ttl=int(settings.WEBPUSH_TTL_SECONDS),
        timeout=float(settings.WEBPUSH_TIMEOUT_SECONDS),
        headers={"Urgency": "normal", "Topic": f"turn-{m.game_id}"},
    )


def _address() -> str:
    sender = str(settings.DEFAULT_FROM_EMAIL)
    return sender.rsplit("<", 1)[-1].rstrip(">").strip()


def _failed(m: PushMessage, claimed_at: datetime, exc: BaseException) -> str:
    """After a failed post: the device deleted (gone), the row failed for good (refused or out
    of attempts), or pending again for a retry after the backoff."""
    status = getattr(getattr(exc, "response", None), "status_code", None)
    text = f"{type(exc).__name__}: {status or exc}"[:300]
    if status in GONE:
        devices.gone(m.subscription_id)
        return "gone"
    if status in REFUSED or m.attempts >= claiming.MAX_ATTEMPTS:
        PushMessage.objects.filter(_mine(m, claimed_at)).update(
            status=Status.FAILED, last_error=text
        )
        return "failed"
    retry = timezone.now() + claiming.retry_delay(m.attempts)
    _back_to_pending(m, claimed_at, retry_at=retry, last_error=text)
    return "retry"


def send_claimed(rows: list[PushMessage], claimed_at: datetime) -> dict[str, int]:
    """Send the rows this worker claimed: {outcome: count}."""
    counts: dict[str, int] = {}

    def count(outcome: str) -> None:
        counts[outcome] = counts.get(outcome, 0) + 1

    holds = pace.push_holds_until(rows, claimed_at)
    asked = _sheets_asked(rows)  # a round sheet's notice to a seat not awaited
    awaited: marking.Awaited = {m.pk: (m.game_id, m.seat, m.seq) for m in rows if m.pk not in asked}
    sending = [m.pk for m in rows if m.pk not in holds]
    played = marking.played_meanwhile(awaited, sending)
    played |= marking.sheet_done_meanwhile(asked, sending)
    for m in rows:
        until = holds.get(m.pk)
        if until is not None:
            # The player watches the game, or had a notice a moment ago and has not played.
            if _back_to_pending(m, claimed_at, retry_at=until, attempts=F("attempts") - 1,
                                last_error=f"held until {until:%H:%M:%S} UTC"):  # fmt: skip
                _when(until, m.pk)
            count("held")
            continue
        if m.pk in played:
            PushMessage.objects.filter(_mine(m, claimed_at)).update(
                status=Status.SENT,
                last_error=marking.SKIPPED_ANSWERED if m.pk in asked else marking.SKIPPED_PLAYED,
            )
            count("skipped")
            continue
        try:
            _post(m, sheet=m.pk in asked)
        except (WebPushException, requests.RequestException) as exc:
            log.warning("push %s attempt %s failed: %r", m.pk, m.attempts, exc)
            count(_failed(m, claimed_at, exc))
            continue
        now = timezone.now()
        PushMessage.objects.filter(_mine(m, claimed_at)).update(
            status=Status.SENT, sent_at=now, last_error=""
        )
        type(m.subscription).objects.filter(pk=m.subscription_id).update(last_sent_at=now)
        count("sent")
    return counts


def _sheets_asked(rows: list[PushMessage]) -> marking.Asked:
    """The rows about a round sheet: a seat of a running sheets game that the game does not
    await now (``games.sheets.asking``: every seat is asked when a round begins). Checked
    against the seat's sheet, not its turn, before sending (a turn's check would drop them as
    soon as the game moved). One query."""
    games = {
        g.pk: g
        for g in Game.objects.filter(
            pk__in={m.game_id for m in rows}, status=Game.Status.RUNNING
        ).only("pk", "status", "options", "to_act")
    }
    return {
        m.pk: (m.game_id, m.seat)
        for m in rows
        if m.game_id in games
        and sheets_on(games[m.game_id])
        and m.seat not in (games[m.game_id].to_act or [])
    }


def _when(until: datetime, pk: int) -> None:
    """Queue the held row's sending for the end of its hold (the sweep sends it otherwise)."""

    def go() -> None:
        try:
            queue.publish_at(queue.PUSH_SEND, until, [pk], None)
        except Exception:
            log.warning("could not queue held push notice %s; the sweep will", pk)

    transaction.on_commit(go)


def push_send(
    *, ids: list[int] | None = None, game_id: int | None = None, limit: int = 100
) -> dict[str, int]:
    """Claim and send one batch (the on-commit task's work)."""
    rows, claimed_at = claim(ids=ids, game_id=game_id, limit=limit)
    return send_claimed(rows, claimed_at) if rows else {}


def push_sweep(
    *, limit: int = 500, batch: Callable[..., dict[str, int]] = push_send
) -> dict[str, int]:
    """Send whatever is due (periodic: the broker was down, a retry's time came, a hold ended)."""
    total: dict[str, int] = {}
    done = 0
    while done < limit:
        part = batch(limit=min(100, limit - done))
        if not part:
            break
        for k, v in part.items():
            total[k] = total.get(k, 0) + v
        done += sum(part.values())
    return total
