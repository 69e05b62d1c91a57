"""The models of seat holders (``Tenure``, ``games.tenures``), of watchers without a seat
(``Watcher``, ``games.services.watchers``) and players' private notes (``GameNote``,
``games.notes``), kept apart from ``games.models`` for its size; ``games.models`` imports them,
so ``from games.models import Tenure`` works as for any model."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Tenure(models.Model):
    """One holder of a seat (``games.tenures``): ``user`` held ``seat`` for the moves after
    ``from_seq`` up to ``to_seq`` (null: still), and how it ended. A seat without rows had one
    holder from the start. ``timed_out_at``: when the bot took the seat over from them after
    timeouts (cleared when they came back): the ratings' mass-timeout rule reads it."""

    class Ended(models.TextChoices):
        HOLDING = ""  # holds the seat still (or held it to the game's end)
        RESIGNED = "resigned"
        TIMED_OUT = "timed_out"  # the bot had it after timeouts when a substitute claimed it
        REPLACED = "replaced"  # sought a substitute, who claimed the seat

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="tenures")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    from_seq = models.PositiveIntegerField(default=0)
    to_seq = models.PositiveIntegerField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    ended = models.CharField(max_length=10, choices=Ended.choices, blank=True, default="")
    timed_out_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "seat", "from_seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="tenure_once_per_game"),
        ]
        indexes = [
            models.Index(
                fields=["user", "timed_out_at"],
                name="tenure_timed_out",
                condition=Q(timed_out_at__isnull=False),
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in seat {self.seat} of game {self.game_id} from {self.from_seq}"


class Watcher(models.Model):
    """Someone who may watch a private game without a seat: granted by what made the game (a
    tournament grants its director and entrants every table of a private tournament,
    ``games.services.watchers.watchers_grant``). A watcher sees the game as any watcher of a
    public game does (what a seat hides stays hidden); it gives no seat, no move, no chat as a
    player, and the game is not among the watcher's own games (lists of the games they play)."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="watchers")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="watcher_once_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} watches game {self.game_id}"


class GameNote(models.Model):
    """A player's private note on a game (``games.notes``): seen by its author only."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(max_length=4000, blank=True, default="")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="note_once")]

    def __str__(self) -> str:
        return f"note of {self.user_id} on game {self.game_id}"
