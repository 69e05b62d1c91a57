"""The providers' tracking webhooks (``/mail/events/<provider>/``): bounces, refusals, complaints
and unsubscriptions reported by Mailgun, Postmark, SendGrid, Amazon SES and Brevo, the
providers deploy/OPERATIONS.md documents.

django-anymail reads each provider's payload into normalized events and checks what the
provider signs or authenticates; these views add what the product needs around it:

  * a provider's URL answers 404 until its secret is set (``configured``): Mailgun's signing key
    (an HMAC of each event), SendGrid's public key (an ECDSA signature of each post), and for
    Postmark, Brevo and Amazon SES the shared secret ``MAIL_WEBHOOK_SECRET`` sent as basic
    authentication (those providers sign nothing else; Amazon's SNS messages are also checked
    against Amazon's signature here, ``sns``, which anymail does not do);
  * a forged or unauthenticated post answers 400 (401 to SNS without credentials, which is how
    SNS asks for them), a malformed one 400 and one over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` 413,
    each with a JSON error, and nothing is recorded;
  * the events of one post are recorded together (``services.mail_events_record``), or none,
    in a few queries however many they are.

``kind_of`` says what each provider's event means here; events of other kinds (deliveries,
opens, delays) are acknowledged and ignored.
"""

from __future__ import annotations

import json
import logging
import warnings
from collections.abc import Callable
from typing import Any

from anymail.exceptions import AnymailError, AnymailWebhookValidationFailure
from anymail.signals import AnymailTrackingEvent, EventType, RejectReason
from anymail.webhooks.amazon_ses import AmazonSESTrackingWebhookView
from anymail.webhooks.base import AnymailBaseWebhookView, AnymailBasicAuthMixin
from anymail.webhooks.brevo import BrevoTrackingWebhookView
from anymail.webhooks.mailgun import MailgunTrackingWebhookView
from anymail.webhooks.postmark import PostmarkTrackingWebhookView
from anymail.webhooks.sendgrid import SendGridTrackingWebhookView
from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import csrf_exempt

from games.models import MailEvent

from . import sns
from .services import Report, is_address, mail_events_record

log = logging.getLogger("games.mailevents")

Kind = MailEvent.Kind

# -- what each provider's event means -----------------------------------------------------------


def _raw(event: AnymailTrackingEvent) -> dict[str, Any]:
    raw = event.esp_event
    return raw if isinstance(raw, dict) else {}


def _postmark(event: AnymailTrackingEvent) -> str | None:
    raw = _raw(event)
    record, kind = raw.get("RecordType"), raw.get("Type")
    if record == "SubscriptionChange":
        if not raw.get("SuppressSending", True):
            return None  # reactivated
        return {
            "HardBounce": Kind.HARD_BOUNCE,
            "SpamComplaint": Kind.COMPLAINT,
            "ManualSuppression": Kind.UNSUBSCRIBED,
        }.get(str(raw.get("SuppressionReason")), Kind.UNSUBSCRIBED)
    if record == "SpamComplaint" or kind in ("SpamComplaint", "SpamNotification"):
        return Kind.COMPLAINT
    if record == "Bounce":
        # Postmark's bounce types: the address is gone, or the message failed this time.
        if kind in ("HardBounce", "BadEmailAddress", "ManuallyDeactivated"):
            return Kind.HARD_BOUNCE
        if kind in ("SoftBounce", "Blocked", "DMARCPolicy", "VirusNotification", "Unknown"):
            return Kind.SOFT_BOUNCE
        if kind == "Unsubscribe":
            return Kind.UNSUBSCRIBED
        return None  # Transient, DnsError (retried), auto-responders, address changes
    return _generic(event)


def _mailgun(event: AnymailTrackingEvent) -> str | None:
    raw = _raw(event)
    data = raw.get("event-data") if isinstance(raw.get("event-data"), dict) else None
    if event.event_type == EventType.BOUNCED and data is not None:
        # "failed" with severity permanent; its reason says whether the address is at fault
        # ("bounce", "suppress-bounce") or Mailgun gave up on the message ("old", "generic").
        reason = str(data.get("reason", ""))
        return Kind.HARD_BOUNCE if reason in ("bounce", "suppress-bounce") else Kind.SOFT_BOUNCE
    return _generic(event)


def _sendgrid(event: AnymailTrackingEvent) -> str | None:
    raw = _raw(event)
    if raw.get("event") == "bounce":
        return (
            Kind.SOFT_BOUNCE if str(raw.get("type", "")).lower() == "blocked" else Kind.HARD_BOUNCE
        )
    if raw.get("event") == "dropped":
        reason = str(raw.get("reason", "")).lower()
        if reason == "unsubscribed address":
            return Kind.UNSUBSCRIBED
        if reason in ("bounced address", "invalid", "spam reporting address"):
            return Kind.REJECTED
        return None  # dropped for its content: nothing about the address
    return _generic(event)


def _amazon_ses(event: AnymailTrackingEvent) -> str | None:
    raw = _raw(event)
    kind = raw.get("eventType") or raw.get("notificationType")
    if kind == "Bounce":
        bounce = raw.get("bounce")
        permanent = isinstance(bounce, dict) and bounce.get("bounceType") == "Permanent"
        return Kind.HARD_BOUNCE if permanent else Kind.SOFT_BOUNCE
    if kind == "Reject":
        return None  # SES refused the message (a virus), not the address
    return _generic(event)


def _brevo(event: AnymailTrackingEvent) -> str | None:
    raw = _raw(event)
    return {
        "hard_bounce": Kind.HARD_BOUNCE,
        "invalid_email": Kind.HARD_BOUNCE,
        "soft_bounce": Kind.SOFT_BOUNCE,
        "blocked": Kind.REJECTED,
        "spam": Kind.COMPLAINT,
        "complaint": Kind.COMPLAINT,
        "unsubscribed": Kind.UNSUBSCRIBED,
        "unsubscribe": Kind.UNSUBSCRIBED,
    }.get(str(raw.get("event", "")), _generic(event))


def _generic(event: AnymailTrackingEvent) -> str | None:
    """anymail's normalized type, for what a provider's own fields did not settle."""
    if event.event_type == EventType.BOUNCED:
        return Kind.HARD_BOUNCE
    if event.event_type == EventType.REJECTED:
        reason = event.reject_reason
        if reason == RejectReason.UNSUBSCRIBED:
            return Kind.UNSUBSCRIBED
        return Kind.REJECTED if reason in (RejectReason.BOUNCED, RejectReason.INVALID) else None
    if event.event_type == EventType.COMPLAINED:
        return Kind.COMPLAINT
    if event.event_type == EventType.UNSUBSCRIBED:
        return Kind.UNSUBSCRIBED
    return None


KINDS: dict[str, Callable[[AnymailTrackingEvent], str | None]] = {
    "mailgun": _mailgun,
    "postmark": _postmark,
    "sendgrid": _sendgrid,
    "amazon_ses": _amazon_ses,
    "brevo": _brevo,
}


def kind_of(provider: str, event: AnymailTrackingEvent) -> str | None:
    """What ``event`` means here (a ``MailEvent.Kind``), or None when it is nothing to act on."""
    return KINDS[provider](event)


def report_of(provider: str, event: AnymailTrackingEvent) -> Report | None:
    """The report of one provider event; None when it is nothing to act on or names no
    address."""
    kind = kind_of(provider, event)
    recipient = event.recipient
    if kind is None or not is_address(recipient):
        return None
    event_id = event.event_id if isinstance(event.event_id, str | int) else None
    if event_id is None and isinstance(event.message_id, str) and event.message_id:
        event_id = f"{event.message_id}:{kind}"  # Brevo gives no event id: one per email and kind
    detail = " ".join(
        str(x) for x in (event.description, event.mta_response) if isinstance(x, str) and x
    )
    return Report(
        source=provider,
        kind=kind,
        address=recipient,
        event_id=f"{event_id}:{recipient.lower()}" if event_id else None,
        detail=detail,
    )


# -- the views ----------------------------------------------------------------------------------


def _error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message, "details": {}}}, status=status)


class _Events:
    """What the five views share (mixed in before anymail's view)."""

    provider = ""
    warn_if_no_basic_auth = False  # configured() refuses every post until a secret is set
    run_validators: Callable[[HttpRequest], None]
    parse_events: Callable[[HttpRequest], list[AnymailTrackingEvent]]

    def configured(self) -> bool:
        return bool(settings.MAIL_WEBHOOK_SECRET)

    def configure(self) -> None:
        """Read the secrets at each request (settings may change; anymail reads them once)."""
        self.basic_auth = [settings.MAIL_WEBHOOK_SECRET] if settings.MAIL_WEBHOOK_SECRET else []

    @method_decorator(csrf_exempt)
    def dispatch(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if not self.configured():
            return _error(404, "not_found", "No webhook here: its secret is not set.")
        try:
            # Read first, for every provider alike: a body over DATA_UPLOAD_MAX_MEMORY_SIZE
            # raised wherever anymail first touched it (a signature check for Mailgun and SNS:
            # Django's own 400 page), so each view answered it differently.
            request.body  # noqa: B018
        except RequestDataTooBig:
            limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
            return _error(
                413, "request_too_large", f"The request body is larger than {limit} bytes."
            )
        self.configure()
        response: HttpResponse = super().dispatch(request, *args, **kwargs)  # type: ignore[misc]
        return response

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        try:
            self.run_validators(request)
        except AnymailWebhookValidationFailure:
            log.warning("mail events: a %s post failed its signature check", self.provider)
            return _error(400, "forged", "The request's signature or credentials are wrong.")
        except (AnymailError, ValueError, KeyError, TypeError, AttributeError):
            return _error(400, "bad_payload", "The request's body is not a webhook payload.")
        try:
            events = list(self.parse_events(request))
        except Exception:  # any malformed payload is a refusal, never a 500
            log.info("mail events: a malformed %s post refused", self.provider, exc_info=True)
            return _error(400, "bad_payload", "The request's body is not a webhook payload.")
        events = [e for e in events if isinstance(e, AnymailTrackingEvent)]
        reports = [r for e in events if (r := report_of(self.provider, e)) is not None]
        # One batch, whatever its size: its accounts read, its rows written and its effects
        # made in a few queries (SendGrid posts thousands of events and waits a few seconds).
        effects = mail_events_record(reports)
        recorded = sum(effect != "duplicate" for effect in effects)
        return JsonResponse({"received": len(events), "recorded": recorded})


class MailgunEvents(_Events, MailgunTrackingWebhookView):
    provider = "mailgun"

    def configured(self) -> bool:
        return bool(settings.MAILGUN_WEBHOOK_SIGNING_KEY)

    def configure(self) -> None:
        self.basic_auth = []
        self.webhook_signing_key = settings.MAILGUN_WEBHOOK_SIGNING_KEY.encode("ascii")


class PostmarkEvents(_Events, PostmarkTrackingWebhookView):
    provider = "postmark"


class BrevoEvents(_Events, BrevoTrackingWebhookView):
    """One event per post, or, for a webhook made with ``"batched": true`` (Brevo's API), a
    JSON array of them (up to 500), which anymail reads as neither."""

    provider = "brevo"

    def parse_events(self, request: HttpRequest) -> list[AnymailTrackingEvent]:
        body = json.loads(request.body.decode("utf-8"))
        if not isinstance(body, list):
            return list(super().parse_events(request))
        if not all(isinstance(e, dict) for e in body):
            raise ValueError("a batch of Brevo events holds objects only")
        return [self.esp_to_anymail_event(e) for e in body]


class SendGridEvents(_Events, SendGridTrackingWebhookView):
    provider = "sendgrid"

    def __init__(self, **kwargs: object) -> None:
        with warnings.catch_warnings():  # anymail's "SendGrid support dropped" note, per request
            warnings.simplefilter("ignore")
            super().__init__(**kwargs)

    def configured(self) -> bool:
        return bool(settings.SENDGRID_WEBHOOK_VERIFICATION_KEY)

    def configure(self) -> None:
        self.basic_auth = []  # the signature is the check
        key = settings.SENDGRID_WEBHOOK_VERIFICATION_KEY.strip()
        if "BEGIN PUBLIC KEY" not in key:
            key = f"-----BEGIN PUBLIC KEY-----\n{key}\n-----END PUBLIC KEY-----"
        self.webhook_verification_key = serialization.load_pem_public_key(key.encode())


class AmazonSESEvents(_Events, AmazonSESTrackingWebhookView):
    """SES through an SNS topic subscribed to ``https://user:password@<site>/mail/events/
    amazon_ses/``: the basic authentication (SNS first posts without it and expects a 401), and
    Amazon's signature of each message. A subscription confirmation of ours is confirmed."""

    provider = "amazon_ses"

    def __init__(self, **kwargs: object) -> None:
        # anymail's SES view reads boto3 settings here (for its own subscription confirmation,
        # replaced below by a GET of the SubscribeURL): boto3 is needed only to send with SES.
        self.auto_confirm_enabled = True
        self.session_params: dict[str, object] = {}
        self.client_params: dict[str, object] = {}
        AnymailBaseWebhookView.__init__(self, **kwargs)

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if not request.META.get("HTTP_AUTHORIZATION"):
            response = _error(401, "unauthenticated", "Basic authentication is required.")
            response["WWW-Authenticate"] = 'Basic realm="mail events"'
            return response
        return super().post(request, *args, **kwargs)

    def validate_request(self, request: HttpRequest) -> None:
        """The credentials first (no certificate is fetched for a stranger), then Amazon's
        signature; anymail checks the SNS headers."""
        AnymailBasicAuthMixin.validate_request(self, request)
        try:
            sns.verify(self._parse_sns_message(request), topics=settings.AMAZON_SES_TOPIC_ARNS)
        except sns.BadSignature as exc:
            raise AnymailWebhookValidationFailure(f"SNS signature: {exc}") from exc

    def auto_confirm_sns_subscription(self, sns_message: dict[str, object]) -> None:
        if not sns.subscription_confirm(sns_message):
            log.warning(
                "mail events: confirm the SNS subscription to %s in the SNS console",
                sns_message.get("TopicArn"),
            )
