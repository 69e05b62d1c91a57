"""Games as move logs.

A game is its setup (map, areas, seats, options, the secret seed) plus its append-only list of
moves. ``Game.state_json`` is only a cache of the engine state after ``Game.seq`` moves;
``check_replays`` verifies it. Secret columns (``seed``, ``state_json``) never leave the server:
everything a client sees is built by ``games.selectors``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q

COLOURS = ["red", "blue", "green", "yellow", "purple", "black"]

DEFAULT_OPTIONS: dict[str, Any] = {
    "turn_hours": 24,
    "variant": "standard",
    "pause_weekends": False,
    "timeouts_before_bot": 3,
}


def default_options() -> dict[str, Any]:
    return dict(DEFAULT_OPTIONS)


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"
        RUNNING = "running"
        FINISHED = "finished"

    creator = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games"
    )
    map = models.CharField(max_length=32)
    # The areas in play: chosen at creation, or null until start when they are drawn at random.
    areas = models.JSONField(null=True, blank=True)
    # True when the engine drew the areas at start (replays must then pass areas=None again).
    areas_random = models.BooleanField(default=False)
    max_players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=default_options)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    # SECRET: the engine's random seed. Never serialised.
    seed = models.BigIntegerField(null=True, blank=True)
    seq = models.PositiveIntegerField(default=0)  # number of moves applied
    # SECRET: powergrid.to_json(state) after `seq` moves (a cache of setup + moves).
    state_json = models.TextField(blank=True, default="")
    to_act = models.JSONField(default=list)  # seats whose move is awaited (public)
    engine_version = models.CharField(max_length=32, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "-created_at"], name="game_status_created")]
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.map}, {self.status})"

    @property
    def turn_hours(self) -> int:
        return int((self.options or {}).get("turn_hours", DEFAULT_OPTIONS["turn_hours"]))

    @property
    def variant(self) -> str:
        return str((self.options or {}).get("variant", DEFAULT_OPTIONS["variant"]))


class Seat(models.Model):
    # No index of its own: the unique (game, seat) index serves lookups by game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats", db_index=False)
    seat = models.PositiveSmallIntegerField()  # 0.. in seating order (set at start)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    colour = models.CharField(max_length=16)
    # When this seat's awaited move times out (null when nothing is awaited from it).
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    reminder_at = models.DateTimeField(null=True, blank=True, db_index=True)
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)
    bot_controlled = models.BooleanField(default=False)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seat_unique_number"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_unique_user"),
        ]

    def __str__(self) -> str:
        return f"Seat {self.seat} of game {self.game_id} ({self.user_id})"


class Move(models.Model):
    """One accepted action. Append-only: created by games.services.moves, never updated."""

    class Source(models.TextChoices):
        WEB = "web"
        API = "api"
        EMAIL = "email"
        TIMEOUT = "timeout"
        BOT = "bot"

    # No index of its own: the unique (game, seq) index serves lookups by game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves", db_index=False)
    seq = models.PositiveIntegerField()  # 1.. ; game.seq == the last move's seq
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField()
    source = models.CharField(max_length=8, choices=Source.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    idempotency_key = models.CharField(max_length=255, null=True, blank=True)  # noqa: DJ001
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="move_unique_seq"),
        ]

    def __str__(self) -> str:
        return f"Move {self.seq} of game {self.game_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not kwargs.get("force_insert"):
            raise RuntimeError("Moves are append-only")
        super().save(*args, **kwargs)


class Notification(models.Model):
    """The outbox: rows written in the move's transaction, sent after commit by Celery.

    Sending claims a row with ``UPDATE ... SET status='sending' WHERE id=? AND status='pending'``.
    ``dedupe_key`` (unique) keeps e.g. one pending turn notice per (user, game).
    """

    class Kind(models.TextChoices):
        TURN = "turn"
        REMINDER = "reminder"
        GAME_STARTED = "game_started"
        GAME_OVER = "game_over"
        TIMEOUT = "timeout"
        BOT_TOOK_OVER = "bot_took_over"
        DIGEST = "digest"
        OTHER = "other"

    class Status(models.TextChoices):
        PENDING = "pending"
        SENDING = "sending"
        SENT = "sent"
        FAILED = "failed"

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    payload = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True, default="")
    dedupe_key = models.CharField(max_length=200, null=True, blank=True)  # noqa: DJ001 - NULL: released
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]
        # Every index is paid for on each of a move's outbox INSERTs and each claim's UPDATE, so
        # only those the queries use: the unique key as a constraint (no LIKE index beside it),
        # the pending rows by age (the outbox sweep), the claims by age (stale leases taken over).
        constraints = [
            models.UniqueConstraint(fields=["dedupe_key"], name="notification_unique_dedupe_key")
        ]
        indexes = [
            models.Index(
                fields=["created_at"],
                name="notification_pending",
                condition=Q(status="pending"),
            ),
            models.Index(
                fields=["claimed_at"],
                name="notification_sending",
                condition=Q(status="sending"),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.recipient_id} ({self.status})"


class IdempotencyRecord(models.Model):
    """The first response to a request with an ``Idempotency-Key`` header, replayed on retries."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)  # sha256 of method, path and body
    response_status = models.PositiveSmallIntegerField()
    response_body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_unique_key"),
        ]

    def __str__(self) -> str:
        return f"Idempotency-Key {self.key} of {self.user_id}"


class BenchRow(models.Model):
    """Bench-only: the one-row insert behind /api/bench/insert/ (enabled by BENCH_ENDPOINTS)."""

    value = models.IntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"BenchRow {self.pk}"
