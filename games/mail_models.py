"""The mail logs (``games.inbox``, ``games.mailevents``): ``InboundMail``, every email received
at a reply address and what became of it, and ``MailEvent``, what became of an email after it
left us. Kept apart from ``games.models`` for its size; ``games.models`` imports them, so
``from games.models import InboundMail`` works as for any model. Foreign keys are named as
strings so this module imports nothing of ``games.models`` (no import circle)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class InboundMail(models.Model):
    """Every email received at a reply address, and what became of it (``games.inbox``): the
    log that answers "why was my reply not taken?", and what makes a reply count once.

    ``status``: ``applied`` (the move or plan was made), ``refused`` (answered with the reason;
    ``wrong_sender``, a reply from an address not the account's, and ``sender_not_authenticated``,
    one our MTA's DMARC check failed, and ``no_sender``, a ``From`` missing or doubtful, are
    answered to the account's address, never to the sender; ``seat_left``, a token of a seat
    its player left), ``ignored`` (not answered: auto-replies, bounces, forged tokens, tokens
    for a seat never held, ``no_sender`` without a good token, duplicates, ``unreadable``
    messages, their bytes kept in ``raw``), ``failed`` (handling it raised: logged with its
    Message-ID, the token's player answered when it came from their address, and ``raw`` keeps
    the message's bytes for an operator, in the admin; nothing of the game changed).
    A token is applied at most once (``inbound_token_applied_once``); a message delivered twice
    (same Message-ID) is handled once."""

    class Status(models.TextChoices):
        APPLIED = "applied"
        REFUSED = "refused"
        IGNORED = "ignored"
        FAILED = "failed"
        # Stored by the LMTP service (games/inbox/intake.py), not handled yet: ``raw`` and
        # ``recipient`` hold the message until the worker's task (or the sweep) handles it.
        QUEUED = "queued"

    message_id = models.CharField(max_length=255, null=True, blank=True, unique=True)
    sender = models.CharField(max_length=254, blank=True, default="")
    token = models.CharField(max_length=80, blank=True, default="")
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    #: The account the reply's token was issued to, where the handler found it (the one a
    #: refusal is answered to): the refusals' hourly cap is counted by it and the game
    #: (``receive._refuse``). Empty on rows from before it was kept (they do not count), on
    #: those whose token is missing, forged or for a seat never held, and once the account is
    #: deleted. Indexed with ``created_at`` below (``inbound_user_recent``), not alone.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_index=False,
    )
    via = models.CharField(max_length=16, default="pipe")  # pipe, lmtp, mailgun, devmailbox
    recipient = models.CharField(max_length=254, blank=True, default="")  # envelope (queued)
    status = models.CharField(max_length=8, choices=Status.choices)
    code = models.CharField(max_length=32, blank=True, default="")
    line = models.CharField(max_length=200, blank=True, default="")  # the command read
    move_seq = models.PositiveIntegerField(null=True, blank=True)
    # The message as received, kept while queued and when handling it failed (status failed).
    raw = models.BinaryField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["token"],
                condition=models.Q(status="applied"),
                name="inbound_token_applied_once",
            )
        ]
        # The sweep's query: the messages stored and not handled yet (few at any time).
        indexes = [
            models.Index(
                fields=["created_at"],
                condition=models.Q(status="queued"),
                name="inbound_queued",
            ),
            # The refusals' cap: one account's rows in one game in the last hour.
            models.Index(fields=["user", "game", "created_at"], name="inbound_user_recent"),
        ]

    def __str__(self) -> str:
        return f"{self.status} mail from {self.sender} ({self.code or 'ok'})"


class MailEvent(models.Model):
    """What became of an email after it left us, as the provider (its tracking webhook) or the
    receiving mail system (a delivery status notification to our bounce address) reported it:
    a bounce, a refusal, a complaint or an unsubscription. ``games.mailevents`` writes one row per
    report and acts on it (``effect``); the bounce and complaint rates of the last day are counted
    from these rows."""

    class Kind(models.TextChoices):
        HARD_BOUNCE = "hard_bounce"  # the address does not exist / cannot receive
        SOFT_BOUNCE = "soft_bounce"  # a failure that may pass (mailbox full, blocked, gave up)
        REJECTED = "rejected"  # the provider or our MTA refused to send to the address
        COMPLAINT = "complaint"  # the recipient marked the email as spam
        UNSUBSCRIBED = "unsubscribed"  # the recipient unsubscribed at the provider

    source = models.CharField(max_length=16)  # dsn, smtp, mailgun, postmark, sendgrid, ...
    kind = models.CharField(max_length=16, choices=Kind.choices)
    address = models.CharField(max_length=254)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    notification_id = models.BigIntegerField(null=True, blank=True)
    #: The report's own id (the provider's event id, or the DSN's Message-ID and recipient): a
    #: report delivered twice is recorded once.
    event_id = models.CharField(max_length=200, null=True, blank=True)  # noqa: DJ001
    detail = models.CharField(max_length=500, blank=True, default="")
    #: What it did: ``marked`` (the address is now undeliverable), ``counted`` (a soft bounce
    #: below the limit), ``emails_off``, ``already`` (marked before), ``no_user``, ``old_address``.
    effect = models.CharField(max_length=16, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["source", "event_id"],
                condition=models.Q(event_id__isnull=False),
                name="mailevent_once_per_report",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} of {self.address} ({self.source})"
