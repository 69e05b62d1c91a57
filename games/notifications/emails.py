"""Building one email (text + HTML) for one outbox row, in the recipient's language and time zone.

Content comes only from ``games.selectors`` (``game_state_for`` = ``powergrid.view`` for the
recipient's seat, the public game description, the public move log): never another player's money
(except in the final results, which the engine makes public at the end), the deck, the removed
plants or the seed.

``email_build`` returns ``None`` when the row is no longer worth sending (a turn notice for a turn
the player has already played, a digest with nothing in it).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from email.utils import formatdate
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMultiAlternatives
from django.utils import timezone, translation

from accounts.zones import user_zone
from games.fastpath import rendering
from games.mailevents import verp
from games.models import (
    Notification,
)
from games.restore.told import restored_context

from . import builders, competitions, contexts, links, parts

# Importable from here as before the split (the calendar, the inbox pages and the sending loop).
from .parts import Prefetch, format_when, map_name, prefetch

__all__ = [
    "BUILDERS",
    "Prefetch",
    "email_build",
    "email_render",
    "format_when",
    "map_name",
    "message_id",
    "prefetch",
]

Kind = Notification.Kind


def _language(user: User) -> str:
    return getattr(getattr(user, "profile", None), "language", "en") or "en"


def message_id(n: Notification) -> str:
    """Stable across attempts: a resend carries the same Message-ID."""
    domain = urlsplit(settings.SITE_URL).hostname or "localhost"
    digest = hashlib.sha256(f"{settings.SECRET_KEY}:{n.pk}".encode()).hexdigest()[:16]
    return f"<notification-{n.pk}.{digest}@{domain}>"


# Keyed by the stored kind (a str; Kind members are equal to it).
_Builder = Callable[[Notification, parts.Prefetch | None], contexts.EmailContext | None]
BUILDERS: dict[str, tuple[str, _Builder]] = {
    Kind.TURN: ("turn", lambda n, pf: builders.turn_context(n, pf, reminder=False)),
    Kind.REMINDER: ("turn", lambda n, pf: builders.turn_context(n, pf, reminder=True)),
    Kind.GAME_STARTED: ("game_started", builders.started_context),
    Kind.GAME_OVER: ("game_over", builders.over_context),
    Kind.TIMEOUT: ("timeout", builders.timeout_context),
    Kind.BOT_TOOK_OVER: ("bot_took_over", builders.bot_context),
    Kind.SEAT: ("seat", builders.seat_context),
    Kind.DIGEST: ("digest", builders.digest_context),
    Kind.REPLY: ("reply", builders.reply_context),
    Kind.GAME_FULL: ("game_full", builders.full_context),
    Kind.INVITED: ("invited", builders.invited_context),
    Kind.WEBHOOK_DISABLED: ("webhook_disabled", builders.webhook_disabled_context),
    Kind.TAKEBACK: ("takeback", builders.takeback_context),
    Kind.TAKEBACK_ASKED: ("takeback_asked", builders.takeback_asked_context),
    Kind.TAKEBACK_DECLINED: ("takeback_declined", builders.takeback_declined_context),
    Kind.OPEN_WARNING: ("open_warning", builders.open_warning_context),
    Kind.OPEN_CLOSED: ("open_closed", builders.open_closed_context),
    Kind.RESTORED: ("restored", lambda n, pf: restored_context(n)),  # games.restore
    # Tournaments and leagues (the tournaments app writes the rows).
    Kind.TABLE_READY: ("table_ready", competitions.table_ready_context),
    Kind.ROUND_STARTED: ("round_started", competitions.round_started_context),
    Kind.FINAL_STANDINGS: ("final_standings", competitions.final_standings_context),
}


def email_render(template: str, ctx: dict[str, object], lang: str) -> tuple[str, str, str]:
    """The subject, text and HTML of the email ``template`` (``emails/<template>*``) for the
    context ``ctx`` (a kind's context and ``contexts.Common``), in ``lang`` (active). The subject
    is added to the context first: the HTML's ``<title>`` is the subject, as a reader's mail
    client or screen reader names the message."""
    subject = " ".join(rendering.render(f"emails/{template}_subject.txt", ctx, lang).split())
    ctx["subject"] = subject
    text = rendering.render(f"emails/{template}.txt", ctx, lang)
    html = rendering.render(f"emails/{template}.html", ctx, lang)
    return subject, text, html


def email_build(n: Notification, pf: parts.Prefetch | None = None) -> EmailMultiAlternatives | None:
    """The email for outbox row ``n``, or None when there is nothing to send any more.

    ``pf``: what the batch read once for all its rows (``prefetch``); without it every read is
    made here."""
    user = n.recipient
    entry = BUILDERS.get(n.kind)
    if entry is None or not user.email:
        return None
    template, builder = entry
    zone = user_zone(user)
    with translation.override(_language(user)), timezone.override(zone):
        built = builder(n, pf)
        if built is None:
            return None
        settings_url = links.settings_link(user=user)
        lang = translation.get_language()
        common: contexts.Common = {
            "recipient": user,
            "recipient_name": getattr(getattr(user, "profile", None), "name", user.get_username()),
            "settings_url": settings_url,
            "site_url": settings.SITE_URL,
            "kind": n.kind,
            "LANGUAGE_CODE": lang,  # <html lang>
        }
        ctx: dict[str, object] = {**built, **common}
        reply_to = ctx.get("reply_to")
        subject, text, html = email_render(template, ctx, lang)
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[user.email],
        headers={
            "Message-ID": message_id(n),
            "Date": formatdate(localtime=False),
            "List-Unsubscribe": f"<{settings_url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Auto-Submitted": "auto-generated",
            "X-PowerGrid-Notification": str(n.pk),
            "X-PowerGrid-Kind": str(n.kind),
            # A header, not ``reply_to=``: the fast MIME path (games.fastpath.wire) keeps it.
            **({"Reply-To": str(reply_to)} if reply_to else {}),
        },
    )
    message.attach_alternative(html, "text/html")
    bounce = verp.bounce_address(notification_id=n.pk, user_id=user.pk, address=user.email)
    if bounce is not None:
        # The envelope sender (Return-Path) is this email's own bounce address, so a delivery
        # status notification names the email and its recipient (games.mailevents); the From
        # line people see stays ours.
        message.extra_headers["From"] = message.from_email
        message.from_email = bounce
    return message
