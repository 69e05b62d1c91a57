"""The push outbox's rows (imported by ``games.models``: the app's models module).

Foreign keys are named as strings so this module imports nothing of ``games.models`` (no import
circle)."""

from __future__ import annotations

from django.db import models
from django.db.models import Q


class PushMessage(models.Model):
    """One turn notice to one device: written in the move's transaction, sent after commit.

    Like an email row (``Notification``): claimed with a conditional UPDATE before it is sent,
    its ``dedupe_key`` (``push:<game>:<subscription>``) unique while it is pending, so however
    many moves the others make before it goes the device gets one notice for the game, and
    released by the claim so the next turn gets a row of its own; held by the turn emails' pace
    (``games.notifications.pace``) while its player watches the game; retried with backoff."""

    class Status(models.TextChoices):
        PENDING = "pending"
        SENDING = "sending"
        SENT = "sent"
        FAILED = "failed"

    subscription = models.ForeignKey(
        "accounts.PushSubscription", on_delete=models.CASCADE, related_name="messages"
    )
    recipient = models.ForeignKey("auth.User", on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    #: The seat and the game's seq the notice is about (a turn played since is not told).
    seat = models.PositiveSmallIntegerField()
    seq = models.PositiveIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True, default="")
    dedupe_key = models.CharField(max_length=100, null=True, blank=True)  # noqa: DJ001 - NULL: released
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    retry_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "games"
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(fields=["dedupe_key"], name="pushmessage_unique_dedupe_key")
        ]
        indexes = [
            models.Index(
                fields=["created_at"], name="pushmessage_pending", condition=Q(status="pending")
            ),
            models.Index(
                fields=["claimed_at"], name="pushmessage_sending", condition=Q(status="sending")
            ),
        ]

    def __str__(self) -> str:
        return f"push {self.pk} ({self.status}) game {self.game_id}"
