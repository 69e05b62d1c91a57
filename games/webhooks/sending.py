"""Posting webhook deliveries: claim, post, record; retried with backoff; a webhook that keeps
failing is turned off and its owner told by email.

A delivery is claimed in a short transaction (``pending`` and due, or ``sending`` with a claim
older than the lease: its worker died) and posted outside any transaction. A 2xx answer marks it
sent; anything else (an error status, a timeout, a refused connection, an address that became
unsafe) puts it back with the next attempt after ``WEBHOOK_RETRY_SECONDS`` × 2^attempts (at most
an hour). After ``WEBHOOK_DISABLE_AFTER`` failures in a row the webhook is turned off, its waiting
deliveries marked failed, and its owner gets an email.

Bodies by format: Discord ``{"content": text}``, Slack ``{"text": text}``, generic the payload
itself with ``X-PowerGrid-Timestamp`` and ``X-PowerGrid-Signature: sha256=<hex>``, the HMAC-SHA256
of ``"<timestamp>.<body>"`` under the webhook's secret. Every post carries
``X-PowerGrid-Delivery`` (the delivery's id) and ``X-PowerGrid-Event``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import string
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from requests.adapters import HTTPAdapter
from urllib3.exceptions import NewConnectionError

from games.models import Notification, Webhook, WebhookDelivery
from games.notifications.outbox import OutboxWriter, schedule_send_pending
from games.webhooks.events import COMPETITION_EVENTS, DISCORD_ID, MENTION
from games.webhooks.safety import UnsafeURL, safe_addresses

log = logging.getLogger("games.webhooks")

Status = WebhookDelivery.Status
_local = threading.local()


class PinnedAdapter(HTTPAdapter):
    """Connects to an address checked in advance instead of resolving the host name again.

    ``safe_addresses`` resolves the host and checks every address it gets. If urllib3 then
    resolved the name a second time to connect, a name that answers a public address to the
    check and 127.0.0.1 to the connection (DNS rebinding) would reach into the server's own
    network. While ``pinned`` is set (by ``_send``, for one post), the connection pool is keyed by
    that address, so urllib3 dials it and resolves nothing; TLS still sends the original host
    name (SNI) and verifies the certificate against it (``server_hostname``), and the ``Host``
    header carries the original name. Pooled connections are kept per (address, name).
    """

    pinned: str | None = None

    def build_connection_pool_key_attributes(
        self, request: requests.PreparedRequest, verify: Any, cert: Any = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        host_params, pool_kwargs = super().build_connection_pool_key_attributes(
            request, verify, cert
        )
        if self.pinned is not None:
            if host_params["scheme"] == "https":
                pool_kwargs["server_hostname"] = host_params["host"]
            host_params["host"] = self.pinned
        return host_params, pool_kwargs

    def add_headers(self, request: requests.PreparedRequest, **kwargs: Any) -> None:
        if self.pinned is not None:
            request.headers["Host"] = urlsplit(request.url).netloc


def _session() -> tuple[requests.Session, PinnedAdapter]:
    """One HTTP session per thread: connections to a receiver are kept open between posts."""
    s = getattr(_local, "session", None)
    if s is None:
        s = _local.session = requests.Session()
        _local.adapter = PinnedAdapter()
        s.mount("https://", _local.adapter)
        s.mount("http://", _local.adapter)
    return s, _local.adapter


def _send(
    url: str, addresses: list[str], body: bytes, headers: dict[str, str]
) -> requests.Response:
    """Post to ``url``, connecting to the first of ``addresses`` that takes a connection (checked
    by ``safe_addresses``; none: let the name be resolved, as ``WEBHOOK_ALLOW_PRIVATE`` allows).

    The next address is tried only when no connection was made to the one before (refused,
    unreachable, connect timeout): nothing was sent there, so the receiver cannot see the
    event twice. Redirects are not followed: a 3xx is an answer like any other (a failure),
    never a post to where it points."""
    session, adapter = _session()
    targets: list[str | None] = [*addresses] or [None]
    for i, address in enumerate(targets):
        adapter.pinned = address
        try:
            return session.post(
                url,
                data=body,
                headers=headers,
                timeout=settings.WEBHOOK_TIMEOUT_SECONDS,
                allow_redirects=False,
            )
        except requests.ConnectionError as exc:
            if i == len(targets) - 1 or not _never_connected(exc):
                raise
            log.info("webhook address %s unreachable (%s); trying the next", address, exc)
        finally:
            adapter.pinned = None
    raise AssertionError("unreachable")  # the loop returns or raises


def _never_connected(exc: requests.ConnectionError) -> bool:
    """Whether the failure came before any byte was sent (no connection was made)."""
    if isinstance(exc, requests.exceptions.ConnectTimeout):
        return True
    reason = getattr(exc.args[0] if exc.args else None, "reason", None)
    return isinstance(reason, NewConnectionError)


#: ASCII punctuation: every markup character of Discord's Markdown is one of these.
_PUNCTUATION = frozenset(string.punctuation)
#: WORD JOINER: invisible, keeps "@" from starting a mention ("@here", "@channel").
_JOINER = "\u2060"


def discord_escape(name: str) -> str:
    """A player's name as Discord shows it literally: each ASCII punctuation character behind a
    backslash (Discord's Markdown escape), so no name makes a mention (``@everyone``,
    ``<@id>``), a masked link (``[text](url)``), a bare link (``https://...``), an emoji,
    bold, a spoiler or a heading. ``allowed_mentions`` (nothing allowed) is sent as well."""
    return "".join("\\" + c if c in _PUNCTUATION else c for c in name)


def slack_escape(name: str) -> str:
    """A player's name as Slack shows it literally: ``&``, ``<`` and ``>`` as entities (what
    Slack's message formatting asks: ``<!channel>``, ``<url|text>`` and ``<@U123>`` need
    them), and "@" held off the word after it (``@channel`` stays text)."""
    out = name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return out.replace("@", "@" + _JOINER)


#: How a name is written into each chat format's text (the generic format is JSON data).
ESCAPES: dict[str, Callable[[str], str]] = {
    Webhook.Format.DISCORD: discord_escape,
    Webhook.Format.SLACK: slack_escape,
}


def text(payload: dict[str, Any], language: str = "en", format: str = "") -> str:
    """The event in a sentence, for chat formats; the player's name (theirs to choose)
    escaped for ``format`` (``ESCAPES``): the sentence's own words and link are ours."""
    game = payload.get("game", {})
    escape = ESCAPES.get(format, str)
    with translation.override(language):
        if payload.get("event") == "your_turn":
            return _(
                "Power Grid #%(id)s: it is %(player)s's turn (deadline %(deadline)s). %(url)s"
            ) % {
                "id": game.get("id"),
                "player": escape(str(payload.get("player") or "?")),
                "deadline": (payload.get("deadline") or "-")[:16].replace("T", " ") + " UTC",
                "url": game.get("url"),
            }
        if payload.get("event") == "sheet_asked":
            return _(
                "Power Grid #%(id)s: round %(round)s begins; %(player)s's round sheet is "
                "asked (deadline %(deadline)s). %(url)s"
            ) % {
                "id": game.get("id"),
                "round": (payload.get("sheet") or {}).get("round", "?"),
                "player": escape(str(payload.get("player") or "?")),
                "deadline": (payload.get("deadline") or "-")[:16].replace("T", " ") + " UTC",
                "url": game.get("url"),
            }
        if payload.get("event") == "game_started":
            return _("Power Grid #%(id)s has started. %(url)s") % game
        if payload.get("event") == "game_over":
            return _("Power Grid #%(id)s is over. %(url)s") % game
        if payload.get("event") in ("takeback", "takeback_asked"):
            took = payload.get("takeback") or {}
            said = (
                _("Power Grid #%(id)s: %(player)s took back %(n)s move(s). %(url)s")
                if payload["event"] == "takeback"
                else _(
                    "Power Grid #%(id)s: %(player)s asks to take back %(n)s move(s); every "
                    "other player must agree. %(url)s"
                )
            )
            return said % {
                "id": game.get("id"),
                "player": payload.get("player") or "?",
                "n": len(took.get("cancels") or []),
                "url": game.get("url"),
            }
        if payload.get("event") in COMPETITION_EVENTS:
            return _competition_text(payload, escape)
        return _("Power Grid: a test of this webhook. %(url)s") % {"url": settings.SITE_URL}


def _competition_text(payload: dict[str, Any], escape: Callable[[str], str]) -> str:
    """A tournament's event in a sentence (the tournament's name escaped as a player's is:
    its director chose it)."""
    t = payload.get("tournament") or {}
    facts = {
        "name": escape(str(t.get("name") or "?")),
        "round": t.get("round"),
        "url": (payload.get("game") or {}).get("url") or t.get("url"),
    }
    if payload["event"] == "table_ready":
        return _("Power Grid: your table in %(name)s is ready (round %(round)s). %(url)s") % facts
    if payload["event"] == "round_started":
        return _("Power Grid: round %(round)s of %(name)s has started. %(url)s") % facts
    return _("Power Grid: %(name)s is over; the final standings are in. %(url)s") % facts


def body_for(hook: Webhook, delivery: WebhookDelivery, now: float) -> tuple[bytes, dict[str, str]]:
    """The request body and headers of ``delivery`` for ``hook``'s format."""
    language = getattr(getattr(hook.owner, "profile", None), "language", "en") or "en"
    if hook.format == Webhook.Format.DISCORD:
        # No mention of anyone but the player whose turn it is, if they gave their Discord user
        # ID, whatever the text says (Discord's allowed_mentions: no parsing, that one user).
        doc: dict[str, Any] = {
            "content": text(delivery.payload, language, hook.format),
            "allowed_mentions": {"parse": []},
        }
        mention = str(delivery.payload.get(MENTION) or "")
        if DISCORD_ID.fullmatch(mention):
            doc["content"] = f"<@{mention}> " + doc["content"]
            doc["allowed_mentions"] = {"parse": [], "users": [mention]}
    elif hook.format == Webhook.Format.SLACK:
        doc = {"text": text(delivery.payload, language, hook.format)}
    else:
        doc = {**delivery.payload, "delivery": delivery.pk}
    body = json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode()
    stamp = str(int(now))
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "PowerGrid-Webhook/1",
        "X-PowerGrid-Delivery": str(delivery.pk),
        "X-PowerGrid-Event": delivery.event,
        "X-PowerGrid-Timestamp": stamp,
    }
    if hook.format == Webhook.Format.GENERIC:
        mac = hmac.new(hook.secret.encode(), stamp.encode() + b"." + body, hashlib.sha256)
        headers["X-PowerGrid-Signature"] = "sha256=" + mac.hexdigest()
    return body, headers


def _claim(ids: list[int] | None, limit: int) -> list[WebhookDelivery]:
    now = timezone.now()
    lease = now - timedelta(seconds=settings.WEBHOOK_LEASE_SECONDS)
    due = Q(status=Status.PENDING, next_attempt_at__lte=now) | Q(
        status=Status.SENDING, claimed_at__lt=lease
    )
    with transaction.atomic():
        qs = WebhookDelivery.objects.filter(due)
        if ids is not None:
            qs = qs.filter(pk__in=ids)
        rows = list(
            qs.select_for_update(skip_locked=True, of=("self",)).select_related(
                "webhook__owner__profile"
            )[:limit]
        )
        if rows:
            WebhookDelivery.objects.filter(pk__in=[r.pk for r in rows]).update(
                status=Status.SENDING, claimed_at=now
            )
    return rows


def deliveries_send(ids: list[int] | None = None, limit: int = 100) -> dict[str, int]:
    """Post what is due (``ids``: only those); returns counts of sent and failed posts."""
    sent = failed = 0
    while True:
        rows = _claim(ids, limit)
        if not rows:
            break
        done: list[int] = []
        recovered: set[int] = set()
        for d in rows:
            if _post(d):
                sent += 1
                done.append(d.pk)
                if d.webhook.failures_in_row:
                    recovered.add(d.webhook_id)
            else:
                failed += 1
        # The successes of a batch are recorded in one statement (a crash before it repeats
        # those posts with the same delivery ids, which receivers use to count each once).
        if done:
            WebhookDelivery.objects.filter(pk__in=done).update(
                status=Status.SENT, sent_at=timezone.now(), attempts=F("attempts") + 1
            )
        if recovered:
            Webhook.objects.filter(pk__in=recovered).update(failures_in_row=0)
        if ids is not None or len(rows) < limit:
            break
    return {"sent": sent, "failed": failed}


def _post(d: WebhookDelivery) -> bool:
    hook = d.webhook
    if not hook.active:
        WebhookDelivery.objects.filter(pk=d.pk).update(status=Status.FAILED)
        return False
    error = ""
    try:
        addresses = safe_addresses(hook.url)
        body, headers = body_for(hook, d, time.time())
        r = _send(hook.url, addresses, body, headers)
        if 200 <= r.status_code < 300:
            return True
        error = f"http_{r.status_code}"
    except UnsafeURL as exc:
        log.info("webhook %s: address refused (%s)", hook.pk, exc)
        error = "address_refused"
    except requests.RequestException as exc:
        log.info("webhook %s delivery %s: %r", hook.pk, d.pk, exc)
        error = error_class(exc)
    _failed(d, hook, error)
    return False


#: What a failed delivery stores (``WebhookDelivery.last_error``, ``Webhook.disabled_reason``):
#: a class of failure, never the exception's text (it names addresses, ports, the server's own
#: network, library internals), which the log keeps for operators.
ERROR_CLASSES = (
    "timeout",
    "connection_refused",
    "dns",
    "tls",
    "connection_error",
    "too_many_redirects",
    "address_refused",
    "http_<status>",
    "error",
)


def error_class(exc: BaseException) -> str:
    """The class of a failed post (``ERROR_CLASSES``)."""
    if isinstance(exc, requests.Timeout):
        return "timeout"
    if isinstance(exc, requests.exceptions.SSLError):
        return "tls"
    if isinstance(exc, requests.TooManyRedirects):
        return "too_many_redirects"
    if isinstance(exc, requests.ConnectionError):
        text = repr(exc).lower()
        if "refused" in text:
            return "connection_refused"
        if "name or service" in text or "resolution" in text or "getaddrinfo" in text:
            return "dns"
        return "connection_error"
    return "error"


def _failed(d: WebhookDelivery, hook: Webhook, error: str) -> None:
    attempts = d.attempts + 1
    delay = min(3600, settings.WEBHOOK_RETRY_SECONDS * 2 ** (attempts - 1))
    WebhookDelivery.objects.filter(pk=d.pk).update(
        status=Status.PENDING,
        attempts=attempts,
        next_attempt_at=timezone.now() + timedelta(seconds=delay),
        last_error=error[:300],
        claimed_at=None,
    )
    failures = hook.failures_in_row + 1
    Webhook.objects.filter(pk=hook.pk).update(failures_in_row=F("failures_in_row") + 1)
    log.info("webhook %s delivery %s failed (%s), attempt %s", hook.pk, d.pk, error, attempts)
    if failures >= settings.WEBHOOK_DISABLE_AFTER:
        webhook_disable(hook, reason=error)


def webhook_disable(hook: Webhook, *, reason: str) -> None:
    """Turn a failing webhook off, fail its waiting deliveries, and tell its owner (once)."""
    with transaction.atomic():
        changed = Webhook.objects.filter(pk=hook.pk, active=True).update(
            active=False, disabled_reason=reason[:200]
        )
        if not changed:
            return
        WebhookDelivery.objects.filter(webhook=hook, status=Status.PENDING).update(
            status=Status.FAILED
        )
        writer = OutboxWriter(game=hook.game) if hook.game is not None else None
        note = Notification(
            recipient=hook.owner,
            game=hook.game,
            kind=Notification.Kind.WEBHOOK_DISABLED,
            payload={"url": hook.url, "reason": reason[:200], "failures": hook.failures_in_row + 1},
            dedupe_key=f"webhook-disabled:{hook.pk}",
        )
        if writer is not None:
            writer.rows.append(note)
            writer.flush()
        else:
            note.save()
            schedule_send_pending()
    log.warning("webhook %s turned off after repeated failures (%s)", hook.pk, reason)
