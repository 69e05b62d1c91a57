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

from powergrid.levels import DEFAULT_LEVEL
from powergrid.state import BASE_DECK, STANDARD

DEFAULT_OPTIONS: dict[str, Any] = {
    "turn_hours": 24,
    "variant": STANDARD,
    # The plant deck (New Power Plants, seed 001): base, new (variant 1) or mixed (variant 2).
    "plant_deck": BASE_DECK,
    "pause_weekends": False,
    "timeouts_before_bot": 3,
    # Start the game by itself when its last seat fills (otherwise the creator starts it).
    "auto_start": True,
    # Whether people who do not play may read the game's chat.
    "chat_public": False,
    # By invitation only: unlisted; joined with its private link or by an invited username.
    "private": False,
    # Only players at least this many percent of whose recent turns were in time (0: anyone;
    # a player with no record yet may join).
    "min_on_time": 0,
    # Take-backs a player may make alone (games.takebacks): their own last move, while nobody
    # else has moved and it revealed nothing. Asking the others is not counted.
    "takebacks": 3,
    # Whether take-backs are allowed even though the game is rated (all seats people): none in
    # a rated game unless its creator allowed them at creation.
    "takebacks_rated": False,
    # The level of the bot that plays a seat taken over after missed deadlines
    # (powergrid.levels; the creator's choice, the heuristic bot by default).
    "bot_level": DEFAULT_LEVEL,
    # Round sheets (games.sheets): every seat answers once a round, all at once, from a sheet
    # filled in with a suggestion; a player may still answer move by move. Games made before
    # sheets existed have no key: move by move (``sheets_on``).
    "sheets": True,
    # Whether a seat its player left, or the bot took over after missed deadlines, is offered
    # to substitutes (games.services.seats). A tournament's tables take none: a table's result
    # stays its entrant's, the bot playing a seat left to the end.
    "substitutes": True,
}


def default_options() -> dict[str, Any]:
    return dict(DEFAULT_OPTIONS)


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"
        RUNNING = "running"
        FINISHED = "finished"

    #: The game's seats (with users and profiles, by seat number) once read for this instance,
    #: else None. Whoever reads them sets it (the selectors for a page, the move service under
    #: the game's lock, the sweeper and the email batches): the rest of that request or task
    #: reuses them instead of reading again. Not a database field.
    seats_read: list[Seat] | None = None

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
    # The engine data (deck, maps, map rules) the game started with: powergrid.version.
    engine_data_version = models.CharField(max_length=32, blank=True, default="")
    # The rules edition the game is played by (powergrid.editions): set to the latest when it is
    # created and again when it starts; games recorded before editions existed are edition 1.
    rules_edition = models.PositiveSmallIntegerField(default=1)
    seq = models.PositiveIntegerField(default=0)  # number of moves applied
    # SECRET: powergrid.to_json(state) after `seq` moves (a cache of setup + moves).
    state_json = models.TextField(blank=True, default="")
    to_act = models.JSONField(default=list)  # seats whose move is awaited (public)
    engine_version = models.CharField(max_length=32, blank=True, default="")
    # Whether any seat has a plan (games.plans): the move service looks for plans to run only
    # then, so games without plans pay nothing for them.
    plans_active = models.BooleanField(default=False)
    # Whether a webhook may want this game's events (games.webhooks): set when a webhook of the
    # game or of one of its players is created; a game without pays nothing for webhooks.
    hooks_active = models.BooleanField(default=False)
    # The secret of the game's private invitation link (/games/<id>/invite/<code>/): known to
    # its creator and to whom they give the link; never in the API's game or a page for others.
    invite_code = models.CharField(max_length=32, blank=True, default="")
    # A practice game (games.services.practice): one person against the bots, from a position
    # of another game (``practice_from`` after move ``practice_seq``); unrated, unlisted, its
    # emails off unless asked (``notify``), deleted PRACTICE_DAYS after it was made.
    practice = models.BooleanField(default=False)
    practice_from = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    practice_seq = models.PositiveIntegerField(null=True, blank=True)
    # SECRET: the engine state the game began from when it did not begin from its seed (a
    # practice game): powergrid.to_json. Empty for a game set up from its seed.
    start_state = models.TextField(blank=True, default="")
    # Whether the game's players get its emails (every ordinary game; a practice game only when
    # its player asked).
    notify = models.BooleanField(default=True)
    # What made the game, when not the lobby: the label of the app whose provider names it on
    # its page (``games.web.part_of``: "tournaments" for a tournament's table). A game of the
    # lobby ("") asks no provider, so its page pays no query for them.
    made_for = models.CharField(max_length=16, blank=True, default="", db_default="")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    #: When the creator was warned that this open game, never filled, will be closed
    #: (``games.services.open_sweep``); None: not warned yet.
    open_warned_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["status", "-created_at"], name="game_status_created"),
            # The purge of old practice games (games.services.practice.practice_purge).
            models.Index(
                fields=["created_at"], name="game_practice_created", condition=Q(practice=True)
            ),
        ]
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.map}, {self.status})"

    @property
    def turn_hours(self) -> int:
        return int((self.options or {}).get("turn_hours", DEFAULT_OPTIONS["turn_hours"]))

    @property
    def variant(self) -> str:
        return str((self.options or {}).get("variant", DEFAULT_OPTIONS["variant"]))

    @property
    def plant_deck(self) -> str:
        return str((self.options or {}).get("plant_deck", DEFAULT_OPTIONS["plant_deck"]))


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
    # When the seat's player last had the game's page open (``games.notifications.pace``: no
    # "your turn" email while they are there); written at most every ``pace.SEEN_EVERY``.
    page_seen_at = models.DateTimeField(null=True, blank=True)
    # Offered to substitutes, and why (``Offered``; ``games.services.seats``).
    offered = models.CharField(max_length=10, blank=True, default="")
    # A round sheets game: the round's sheet is asked of this seat and still waits (its
    # ``deadline`` is the sheet's); false once answered, played by hand or timed out
    # (``games.sheets.asking``). A default in the database too: during a release the old code,
    # which knows no such column, still inserts seats.
    sheet_waits = models.BooleanField(default=False, db_default=False)

    class Offered(models.TextChoices):
        NO = ""  # not offered
        SEEKING = "seeking"  # its player seeks a substitute and plays on meanwhile
        LEFT = "left"  # its player resigned: the bot plays it; they may no longer move
        TIMED_OUT = "timed_out"  # the bot took it over after timeouts; a move takes it back

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="seat_unique_number"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_unique_user"),
        ]
        indexes = [
            # The seats offered to substitutes (the lobby's list): few, read often.
            models.Index(fields=["game"], name="seat_offered", condition=~Q(offered="")),
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
        PLAN = "plan"  # made by the player's own plan (games.plans), never shows the plan
        SHEET = "sheet"  # made by the player's round sheet (games.sheets), never shows it

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
    #: Not stored: the seats awaited right after this move, set by the move service on the
    #: moves of one commit, so the event stream tells each of them (games.stream.log).
    to_act_after: list[int] | None = None

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
        REPLY = "reply"  # the answer to a move sent by email (games.inbox)
        WEBHOOK_DISABLED = "webhook_disabled"  # to its owner, after repeated failures
        GAME_FULL = "game_full"  # to the creator of a game that does not start by itself
        INVITED = "invited"  # to a player invited to a game by its creator
        # Take-backs (games.takebacks): a player told it was their turn learns that the move
        # was taken back; the others are asked to agree; the one who asked hears a refusal.
        TAKEBACK = "takeback"
        TAKEBACK_ASKED = "takeback_asked"
        TAKEBACK_DECLINED = "takeback_declined"
        SEAT = "seat"  # a seat left, offered or taken by a substitute (games.services.seats)
        # An open game that never filled (games.services.open_sweep): the creator is warned, then
        # told it was closed (its row has no game then: the game is gone).
        OPEN_WARNING = "open_warning"
        OPEN_CLOSED = "open_closed"
        # After a failover or a restore: what the recovery lost of the player's (games.restore).
        RESTORED = "restored"
        # Tournaments and leagues (games.notifications.competitions): tables, rounds, the end.
        TABLE_READY = "table_ready"
        ROUND_STARTED = "round_started"
        FINAL_STANDINGS = "final_standings"
        OTHER = "other"

    class Status(models.TextChoices):
        PENDING = "pending"
        SENDING = "sending"
        SENT = "sent"
        FAILED = "failed"
        #: Not sent, on purpose: the recipient's address is undeliverable (``last_error`` says
        #: why; ``games.notifications.sending``).
        WITHHELD = "withheld"

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
    # A failed send is not tried again before this, by any path (the sweep, a task for its game
    # or its id): the delay doubles with each attempt, up to NOTIFY_RETRY_MAX_SECONDS
    # (games.notifications.claiming.retry_delay).
    retry_at = models.DateTimeField(null=True, blank=True)

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
            # The emails handed to the MTA or provider in the last day: the denominator of the
            # bounce and complaint rates (``games.mailevents.rates``) without a table scan.
            models.Index(
                fields=["sent_at"],
                name="notification_sent_at",
                condition=Q(sent_at__isnull=False),
            ),
            # A player's latest ``restored`` row, read by every game page they open (its notice
            # of what a recovery lost, ``games.web.reader``): a handful of rows, whatever the
            # number of their emails; no entry for any other kind.
            models.Index(
                fields=["recipient", "-created_at"],
                name="notification_restored",
                condition=Q(kind="restored"),
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


class Plan(models.Model):
    """A player's plan (``powergrid.plans``): a move decided before the turn, made for them when
    it comes. Secret: only its owner reads it (``games.plans.selectors``); the moves it makes are
    ordinary moves with source ``plan``.

    One row per (seat, kind, key): ``key`` is the plant of a proxy bid (a player may leave a
    maximum for several plants of the market), 0 for the other kinds (one of each at a time).
    ``data`` holds the plan's fields as ``games.plans.codec`` writes them."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="plans", db_index=False)
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=24)
    key = models.PositiveIntegerField(default=0)
    data = models.JSONField(default=dict)
    #: Part of a round sheet (games.sheets): its moves are logged with source ``sheet``.
    sheet = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "seat", "kind", "key"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat", "kind", "key"], name="plan_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} plan of seat {self.seat} in game {self.game_id}"


class SpentPlan(models.Model):
    """A plan the plans' runner used up or dropped (``games.plans.runner``), kept with the seq
    of the move it answered: a take-back of that move puts it back (``games.takebacks``), so
    the plans that acted on a move taken back are evaluated again. Secret, as ``Plan``."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", db_index=False)
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=24)
    key = models.PositiveIntegerField(default=0)
    data = models.JSONField(default=dict)
    sheet = models.BooleanField(default=False)
    seq = models.PositiveIntegerField()  # the move it answered (the game's seq then)

    class Meta:
        indexes = [models.Index(fields=["game", "seq"], name="spent_plan_game_seq")]

    def __str__(self) -> str:
        return f"spent {self.kind} plan of seat {self.seat} in game {self.game_id}"


class SheetAnswer(models.Model):
    """A seat's answer to its round sheet (``games.sheets``): the sheet as answered (``data``,
    the document without its reasons) for round ``round``. Secret, as ``Plan``: only its owner
    reads it. Its lines are the seat's plans (rows of ``Plan`` with ``sheet`` set)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+", db_index=False)
    seat = models.PositiveSmallIntegerField()
    round = models.PositiveSmallIntegerField()
    data = models.JSONField(default=dict)
    source = models.CharField(max_length=8, default="api")
    answered_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat", "round"], name="sheet_answer_unique"),
        ]

    def __str__(self) -> str:
        return f"round {self.round} sheet of seat {self.seat} in game {self.game_id}"


class TakebackRequest(models.Model):
    """A player asks the others to agree to take back their moves (``games.takebacks``): made
    when the take-back is not theirs alone to make (someone else has moved since, or the move
    revealed something hidden). It happens when every other player has accepted, in the
    position it was asked in (``at_seq``) and before ``deadline`` (the game's current deadline
    then); a move meanwhile makes it void. ``cancels``: the seqs it would cancel."""

    class Status(models.TextChoices):
        PENDING = "pending"
        ACCEPTED = "accepted"  # everyone agreed: taken back (``move_seq`` is the entry)
        DECLINED = "declined"
        WITHDRAWN = "withdrawn"  # by the player who asked
        VOID = "void"  # the game moved on first
        EXPIRED = "expired"  # the deadline passed first

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="takeback_requests")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    cancels = models.JSONField(default=list)
    reason = models.CharField(max_length=24)  # others_moved, or what the move revealed
    at_seq = models.PositiveIntegerField()
    accepted = models.JSONField(default=list)  # seats
    declined_by = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    deadline = models.DateTimeField()
    move_seq = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "-created_at"]
        constraints = [
            # One request waiting per game at a time.
            models.UniqueConstraint(
                fields=["game"], condition=Q(status="pending"), name="takeback_one_pending"
            )
        ]

    def __str__(self) -> str:
        return f"take-back request {self.pk} of seat {self.seat} in game {self.game_id}"


class Webhook(models.Model):
    """An outgoing webhook (``games.webhooks``): a user's own (every game of theirs: "your turn",
    started, over) or a game's, set by one of its players (every turn of the game, for a group's
    chat). Formats: Discord, Slack, or generic JSON signed with HMAC-SHA256 of ``secret``."""

    class Format(models.TextChoices):
        GENERIC = "generic"
        DISCORD = "discord"
        SLACK = "slack"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks"
    )
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="webhooks"
    )
    url = models.URLField(max_length=500)
    format = models.CharField(max_length=8, choices=Format.choices, default=Format.GENERIC)
    secret = models.CharField(max_length=64)
    events = models.JSONField(default=list)  # your_turn, game_started, game_over
    active = models.BooleanField(default=True)
    failures_in_row = models.PositiveSmallIntegerField(default=0)
    disabled_reason = models.CharField(max_length=200, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at"]
        indexes = [models.Index(fields=["game", "active"], name="webhook_game_active")]

    def __str__(self) -> str:
        return f"webhook {self.pk} ({self.format}) of {self.owner_id}"


class WebhookDelivery(models.Model):
    """One event to one webhook: written in the transaction of the move that caused it, sent
    after commit and retried with backoff until it succeeds (the outbox of webhooks). A delivery
    is claimed (``sending``) before it is posted; a claim older than the lease is taken over, so a
    worker that dies is replaced. Its ``pk`` is sent as ``X-PowerGrid-Delivery``: a receiver that
    keeps the ids it has seen counts each event once even if a post is repeated after a crash."""

    class Status(models.TextChoices):
        PENDING = "pending"
        SENDING = "sending"
        SENT = "sent"
        FAILED = "failed"  # the webhook was disabled before it could go

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=16)
    payload = models.JSONField(default=dict)
    dedupe_key = models.CharField(max_length=200, unique=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]
        indexes = [
            models.Index(
                fields=["next_attempt_at"],
                name="webhook_delivery_due",
                condition=models.Q(status="pending"),
            )
        ]

    def __str__(self) -> str:
        return f"{self.event} to webhook {self.webhook_id} ({self.status})"


class ChatMessage(models.Model):
    """A player's message in a game's chat (``games.chat``): the players' own words, shown
    escaped everywhere; editable by its author for a while; hidden by a moderator (admin) or
    from those who muted its author."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages"
    )
    text = models.CharField(max_length=1000)
    created_at = models.DateTimeField(auto_now_add=True)
    edited_at = models.DateTimeField(null=True, blank=True)
    hidden = models.BooleanField(default=False)  # by moderation

    class Meta:
        ordering = ["game", "id"]
        indexes = [models.Index(fields=["game", "-id"], name="chat_game_recent")]

    def __str__(self) -> str:
        return f"chat {self.pk} in game {self.game_id}"


class ChatReport(models.Model):
    """A player's report of a message, for the moderators (once per player and message)."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once")
        ]

    def __str__(self) -> str:
        return f"report of chat {self.message_id} by {self.reporter_id}"


class ChatMute(models.Model):
    """``user`` does not see ``muted``'s messages (in any game)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_once")]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"


class Rating(models.Model):
    """A player's multiplayer rating (openskill's Plackett-Luce: ``mu`` ± ``sigma``), changed
    once per rated game (``RatedGame``); ``display`` is the conservative ``mu - 3 sigma``
    scaled to look like the usual numbers (×50 + 1000 would be arbitrary: we show it ×10)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"rating of {self.user_id}: {self.mu:.1f} ± {self.sigma:.1f}"

    @property
    def display(self) -> int:
        return round((self.mu - 3 * self.sigma) * 10)


class RatedGame(models.Model):
    """That a finished game has changed the ratings (once: the primary key is the game), with
    the ratings before and after, so that a recompute can be checked against it."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="+")
    rated = models.BooleanField()  # False: not rated (bots, or a seat the bot took over)
    changes = models.JSONField(default=dict)  # user id -> [mu, sigma, mu', sigma']
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"ratings of game {self.game_id}"


class Invitation(models.Model):
    """A game's creator invited ``user`` by username: they may join the game even when it is
    private, and see it among their invitations until they join or it starts. ``invited_by``
    counts the invitations a player sends (``games.services.lobby.game_invite`` limits them)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="invitation_once_per_game")
        ]

    def __str__(self) -> str:
        return f"invitation of {self.user_id} to game {self.game_id}"


class Removal(models.Model):
    """The creator removed ``user``'s seat before the game started: the user stays out (the
    game's link no longer lets them join, and a private game is hidden from them again) until
    the creator invites them by username, which deletes this row."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="removals")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="removal_once")]

    def __str__(self) -> str:
        return f"removal of {self.user_id} from game {self.game_id}"


class StreamEvent(models.Model):
    """One change of a game as the event stream tells it (``games/stream/``): the log every
    stream reads, so each change is told once and in order in every set-up (with Redis, which
    only wakes the streams, and without), and a client that reconnects with ``Last-Event-ID``
    resumes where it stopped. ``id`` is the event's id on the stream: ids are given in commit
    order (``games.stream.log.record`` takes one lock for it), so "every event after N" has no
    gap. Kept ``STREAM_REPLAY_SECONDS``, then pruned.

    ``body``: the public facts told to everyone (``events.game_body``; for ``takeback`` events
    the event's own facts); ``seats``: ``{user id: [seat, deadline or None]}`` of the game's
    players, from which each player's own stream adds their seat, turn and deadline."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="stream_events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=32, default="game")
    body = models.JSONField()
    seats = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        indexes = [models.Index(fields=["game", "id"], name="streamevent_game_id")]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.seq}:{self.kind}"


# Seat holders and private notes, and the mail logs, live in their own modules (this one's size):
# imported here so Django registers them with the app.
# The push outbox's model lives beside its code (games/push/); the app's models module names it.
from games.mail_models import InboundMail as InboundMail  # noqa: E402
from games.mail_models import MailEvent as MailEvent  # noqa: E402
from games.push.models import PushMessage  # noqa: E402, F401
from games.seat_models import GameNote as GameNote  # noqa: E402
from games.seat_models import Tenure as Tenure  # noqa: E402
from games.seat_models import Watcher as Watcher  # noqa: E402
