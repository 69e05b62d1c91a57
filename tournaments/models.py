"""Tournaments: entrants, rounds, tables (each an ordinary game) and byes; leagues.

A tournament's state is its rows: ``status`` (open for sign-up, running, finished),
``current_round``; each round's ``Table`` rows point at their ``games.Game`` (none yet while
the table is set up, just after the round was seated) and each
``TablePlayer`` row holds the entrant's seat and, once the game ended, its result and the
tournament points (``tournaments.scoring``). The standings are computed from these rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

#: ``games.Game.made_for`` of a table's game: its page asks ``tournaments.game_links`` what
#: it is part of (games imports no tournament).
MADE_FOR = "tournaments"


class Tournament(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"
        RUNNING = "running"
        FINISHED = "finished"

    name = models.CharField(max_length=80)
    director = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments_directed"
    )
    maps = models.JSONField(default=list)  # map slugs; each table plays one (seating rule 4)
    table_min = models.PositiveSmallIntegerField(default=3)
    table_max = models.PositiveSmallIntegerField(default=5)
    rounds = models.PositiveSmallIntegerField(default=3)
    turn_hours = models.PositiveSmallIntegerField(default=24)
    private = models.BooleanField(default=False)
    invite_code = models.CharField(max_length=32, blank=True)
    signup_deadline = models.DateTimeField(null=True, blank=True)
    rating_min = models.IntegerField(null=True, blank=True)
    rating_max = models.IntegerField(null=True, blank=True)
    # The bot level that plays a seat after its timeouts (``games`` option ``bot_level``).
    bot_level = models.CharField(max_length=16, default="beginner")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    current_round = models.PositiveSmallIntegerField(default=0)
    seed = models.BigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "-created_at"], name="tournament_status_created"),
            models.Index(
                fields=["signup_deadline"],
                condition=Q(status="open"),
                name="tournament_open_deadline",
            ),
        ]

    def __str__(self) -> str:
        return f"Tournament {self.pk} {self.name!r} ({self.status})"


class Entrant(models.Model):
    """A player signed up; ``dropped_at``: left after the start (not seated again)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="entries"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    dropped_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="entrant_once"),
        ]
        ordering = ["joined_at", "pk"]

    def __str__(self) -> str:
        return f"Entrant {self.user_id} of tournament {self.tournament_id}"


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_once"),
        ]
        ordering = ["number"]

    def __str__(self) -> str:
        return f"Round {self.number} of tournament {self.tournament_id}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    map = models.CharField(max_length=40)
    # Null while the table is being set up: the round's transaction seats the table, a task
    # makes its game after commit (``services.table_make``); one game is one table's.
    game = models.OneToOneField(
        "games.Game",
        on_delete=models.PROTECT,
        related_name="tournament_table",
        null=True,
        blank=True,
    )
    finished = models.BooleanField(default=False)

    class Meta:
        ordering = ["number"]

    def __str__(self) -> str:
        return f"Table {self.number} of round {self.round_id}"


class TablePlayer(models.Model):
    """An entrant's seat at a table and, once the game ended, its result and points."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="players")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="tables")
    seat = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    powered = models.PositiveSmallIntegerField(null=True, blank=True)
    money = models.PositiveIntegerField(null=True, blank=True)
    points = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["seat"]

    def __str__(self) -> str:
        return f"Seat {self.seat} of table {self.table_id}"


class Bye(models.Model):
    """An entrant the round's tables could not take (``tournaments.scoring.BYE_POINTS``)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="byes")

    def __str__(self) -> str:
        return f"Bye of entrant {self.entrant_id} in round {self.round_id}"


class League(models.Model):
    """A league: seasons of divisions (``tournaments.ladder``), each division a tournament of
    its own (``Division.tournament``) played with the league's settings; at a season's end the
    top ``movers`` of each division move up and the bottom ``movers`` move down."""

    name = models.CharField(max_length=80)
    director = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="leagues_directed"
    )
    maps = models.JSONField(default=list)
    table_min = models.PositiveSmallIntegerField(default=3)
    table_max = models.PositiveSmallIntegerField(default=5)
    rounds = models.PositiveSmallIntegerField(default=3)  # per season
    turn_hours = models.PositiveSmallIntegerField(default=24)
    division_size = models.PositiveSmallIntegerField(default=9)
    movers = models.PositiveSmallIntegerField(default=2)
    bot_level = models.CharField(max_length=16, default="beginner")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"League {self.pk} {self.name!r}"


class LeagueMember(models.Model):
    """A member; one who joined during a season plays from the next (not in its divisions)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_memberships"
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="league_member_once"),
        ]
        ordering = ["joined_at", "pk"]

    def __str__(self) -> str:
        return f"Member {self.user_id} of league {self.league_id}"


class Season(models.Model):
    """A season: running until every division's tournament has finished. ``moves``: who went
    up and down at its end (``{"up": [user ids], "down": [...]}``, written when the next season
    is seated from it; null before)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    moves = models.JSONField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "number"], name="season_once"),
        ]
        ordering = ["number"]

    def __str__(self) -> str:
        return f"Season {self.number} of league {self.league_id}"


class Division(models.Model):
    """A season's division (1: the top). Its players, rounds, tables and standings are its
    tournament's: the entrants of ``tournament`` are the division's members that season."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="divisions")
    number = models.PositiveSmallIntegerField()
    tournament = models.OneToOneField(Tournament, on_delete=models.PROTECT, related_name="division")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="division_once"),
        ]
        ordering = ["number"]

    def __str__(self) -> str:
        return f"Division {self.number} of season {self.season_id}"
