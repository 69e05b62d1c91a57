"""Writing the outbox: ``Notification`` rows created inside the transaction that caused them.

Each row has a ``dedupe_key`` (unique). Rows are inserted with ``ON CONFLICT DO NOTHING``, so:
  * a turn notice is ``turn:<game>:<user>`` while it is pending: however many moves other players
    make before it is sent, the player gets ONE email for that game; the key is released when the
    row is claimed for sending (``games.notifications.sending``), so the next turn gets a new row;
  * the other kinds are keyed by what caused them (game, move seq, deadline), so writing them twice
    (a retried transaction, a re-run of a periodic job) leaves one row.

Which rows are written depends on the recipient's ``Profile.notification_mode``: ``every_turn``
gets every kind; ``digest`` gets only the daily digest (``games.notifications.digest``), which
lists the same events; ``none`` gets nothing.

Nothing is sent from here: ``schedule_send`` registers a ``transaction.on_commit`` callback that
queues the Celery task, so a rolled-back move sends nothing and a broker that is down only delays
the emails until the outbox sweep picks them up.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import dataclass, field

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction

from accounts import deliverability
from games import queue
from games.fastpath import rows as sql_rows
from games.models import Game, Notification, Seat
from games.push import outbox as push_outbox
from games.webhooks import events as hooks

log = logging.getLogger(__name__)

Kind = Notification.Kind


def _mode(user: AbstractBaseUser | AnonymousUser) -> str:
    profile = getattr(user, "profile", None)
    return getattr(profile, "notification_mode", "every_turn") or "every_turn"


def wants_email(user: AbstractBaseUser | AnonymousUser, kind: str) -> bool:
    """Whether ``user`` gets an individual email of ``kind`` (digest users get the digest only)."""
    if not getattr(user, "email", ""):
        return False
    mode = _mode(user)
    if kind == Kind.DIGEST:
        return mode == "digest"
    return mode == "every_turn"


#: How a player hears of their turns in a game by email (``turn_emails``).
TURN_EMAILS_EACH = "each"
TURN_EMAILS_DIGEST = "digest"
TURN_EMAILS_NONE = ""


def turn_emails(game: Game, user: AbstractBaseUser | AnonymousUser) -> str:
    """How ``user`` hears of their turns in ``game`` by email, for what a page promises: an email
    each turn (``each``), the daily digest (``digest``), or none (``""``: emails off, a practice
    game without emails, or an address our emails are known not to reach). The same facts the
    outbox acts on (``wants_email``, ``Game.notify``, ``accounts.deliverability``)."""
    if not game.notify or deliverability.undeliverable(user):
        return TURN_EMAILS_NONE
    if wants_email(user, Kind.TURN):
        return TURN_EMAILS_EACH
    if wants_email(user, Kind.DIGEST):
        return TURN_EMAILS_DIGEST
    return TURN_EMAILS_NONE


def turn_key(game_id: int, user_id: int) -> str:
    return f"turn:{game_id}:{user_id}"


def started_key(game_id: int, user_id: int) -> str:
    """The game-started email's key: a tournament's table email takes its place (the same key,
    ``games.notifications.competitions``)."""
    return f"started:{game_id}:{user_id}"


@dataclass
class OutboxWriter:
    """Collects rows for one game change, then writes them in one statement."""

    game: Game
    rows: list[Notification] = field(default_factory=list)
    #: (dedupe key, payload) of turn notices carrying a plan note (``turn``).
    notes: list[tuple[str, dict[str, object]]] = field(default_factory=list)
    #: Seats told of their turn in this change: their devices get a push notice
    #: (``games.push.outbox``), whatever their email settings.
    push_seats: list[Seat] = field(default_factory=list)
    #: Webhook events of this change ((event, seat awaited or None[, more])), written by
    #: ``flush`` only when the game has webhooks (``Game.hooks_active``).
    hook_events: list[hooks.Event] = field(default_factory=list)

    def add(
        self, *, user: User, kind: str, key: str, payload: dict[str, object] | None = None
    ) -> None:
        # A practice game emails its player only when they asked (``Game.notify``).
        if not wants_email(user, kind) or not self.game.notify:
            return
        self.rows.append(
            Notification(
                recipient=user,
                game=self.game,
                kind=kind,
                payload=payload or {},
                dedupe_key=key,
            )
        )

    # -- the kinds ------------------------------------------------------------------------------

    def turn(self, seat: Seat, *, seq: int, note: str = "") -> None:
        """ "Your turn"; ``note``: why the seat's standing order was not used (its owner only)."""
        self.hook_events.append((hooks.YOUR_TURN, seat))
        self.push_seats.append(seat)
        payload: dict[str, object] = {"seat": seat.seat, "seq": seq}
        if note:
            payload["plan_note"] = note
            # A turn email still pending for this seat is the one that goes: it must say why.
            self.notes.append((turn_key(self.game.pk, seat.user_id), payload))
        self.add(
            user=seat.user,
            kind=Kind.TURN,
            key=turn_key(self.game.pk, seat.user_id),
            payload=payload,
        )

    def sheet(
        self, seat: Seat, *, seq: int, sheet_round: int, awaited: bool, email: bool = True
    ) -> None:
        """ "Your round sheet": a round begins and every seat is asked for its sheet at once
        (``games.sheets.asking``). A turn email, under the turn email's key: the turn of a seat
        the engine awaits too and its sheet are one email (one pending per player and game);
        without ``email`` (round 1's: the game-started email asks) only the webhooks hear it.
        Webhooks get ``sheet_asked`` for every seat asked, and the awaited seat's turn
        (``your_turn`` with ``sheet_round``), so a program that answers by webhook knows its
        sheet is wanted."""
        if awaited and email:  # (round 1's first turn: ``game_started`` tells it)
            self.hook_events.append((hooks.YOUR_TURN, seat, {"sheet_round": sheet_round}))
        self.hook_events.append((hooks.SHEET_ASKED, seat, {"sheet": {"round": sheet_round}}))
        if not email:
            return
        self.push_seats.append(seat)
        self.add(
            user=seat.user,
            kind=Kind.TURN,
            key=turn_key(self.game.pk, seat.user_id),
            payload={"seat": seat.seat, "seq": seq, "sheet_round": sheet_round},
        )

    def turn_hook(self, seat: Seat, *, sheet_round: int | None = None) -> None:
        """A turn told to the webhooks only (``your_turn``), no email: the engine comes to a
        seat whose round sheet waits (``sheet_round``: the sheet's email asked already), or a
        player who has just moved is awaited again (they are looking at the game; a program
        driven by its webhook is not). A program that plays move by move misses no turn, as
        the event stream's ``your_turn`` tells every one."""
        extra = {"sheet_round": sheet_round} if sheet_round is not None else {}
        self.hook_events.append((hooks.YOUR_TURN, seat, extra))

    def game_started(
        self,
        seats: list[Seat],
        awaited: set[int],
        *,
        sheet_round: int | None = None,
        asked: Collection[int] = (),
    ) -> None:
        """ "The game has started" to everyone (the first seat: "you are first"). Webhooks get
        ``game_started`` first, then the first turn, then the round sheets asked (``sheet``,
        called before this): a seat ``asked`` for round ``sheet_round``'s sheet has its turn
        with ``sheet_round``."""
        # The email says "you are first" in the game-started email; a webhook (a bot's, say)
        # is told of the first turn as of any other.
        first: list[hooks.Event] = [(hooks.GAME_STARTED, None)]
        for s in seats:
            if s.seat in awaited:
                mine = sheet_round is not None and s.seat in asked
                first.append((hooks.YOUR_TURN, s, {"sheet_round": sheet_round} if mine else {}))
        self.hook_events[:0] = first
        # A device is told of the first turn, and of round 1's sheet (asked of every seat now).
        sheet_asked = set(asked) if sheet_round is not None else set()
        self.push_seats += [s for s in seats if s.seat in awaited or s.seat in sheet_asked]
        for s in seats:
            self.add(
                user=s.user,
                kind=Kind.GAME_STARTED,
                key=started_key(self.game.pk, s.user_id),
                payload={"seat": s.seat, "your_turn": s.seat in awaited},
            )

    def game_over(self, seats: list[Seat], *, seq: int) -> None:
        self.hook_events.append((hooks.GAME_OVER, None))
        for s in seats:
            self.add(
                user=s.user,
                kind=Kind.GAME_OVER,
                key=f"over:{self.game.pk}:{s.user_id}",
                payload={"seat": s.seat, "seq": seq},
            )

    def timeout(
        self, seat: Seat, *, seq: int, action: dict[str, object], sheet_round: int | None = None
    ) -> None:
        """The default move was made for ``seat`` (``action``), or, with ``sheet_round``, its
        round sheet's suggestions were kept at the sheet's deadline."""
        payload: dict[str, object] = {"seat": seat.seat, "seq": seq, "action": action}
        if sheet_round is not None:
            payload["sheet_round"] = sheet_round
        self.add(
            user=seat.user,
            kind=Kind.TIMEOUT,
            key=f"timeout:{self.game.pk}:{seq}:{seat.user_id}",
            payload=payload,
        )

    def bot_took_over(self, seat: Seat, seats: list[Seat], *, seq: int) -> None:
        for s in seats:
            self.add(
                user=s.user,
                kind=Kind.BOT_TOOK_OVER,
                key=f"bot:{self.game.pk}:{seq}:{seat.seat}:{s.user_id}",
                payload={"seat": seat.seat, "seq": seq, "you": s.pk == seat.pk},
            )

    def takeback(
        self, seat: Seat, *, seq: int, by: int, cancels: list[int], told: list[int]
    ) -> None:
        """To a player told it was their turn by a move now taken back (``told``: the turn
        emails that said so): it is not (yet). Once per take-back and player (its key)."""
        self.add(
            user=seat.user,
            kind=Kind.TAKEBACK,
            key=f"takeback:{self.game.pk}:{seq}:{seat.user_id}",
            payload={"seat": seat.seat, "seq": seq, "by": by, "cancels": cancels, "told": told},
        )

    def takeback_asked(self, seat: Seat, *, request_id: int, by: int, seq: int) -> None:
        """To a player asked to agree to a take-back (one-tap accept and decline)."""
        self.add(
            user=seat.user,
            kind=Kind.TAKEBACK_ASKED,
            key=f"tbasked:{request_id}:{seat.user_id}",
            payload={"seat": seat.seat, "request": request_id, "by": by, "seq": seq},
        )

    def takeback_declined(self, seat: Seat, *, request_id: int, by: int) -> None:
        """To the player who asked: someone declined."""
        self.add(
            user=seat.user,
            kind=Kind.TAKEBACK_DECLINED,
            key=f"tbdeclined:{request_id}",
            payload={"seat": seat.seat, "request": request_id, "by": by},
        )

    # -- writing --------------------------------------------------------------------------------

    def hooks_flush(self) -> None:
        """Write the change's webhook deliveries (one query for the webhooks; none at all for a
        game without) and send them after commit."""
        if self.hook_events and self.game.hooks_active:
            seats = self.game.seats_read or list(
                Seat.objects.filter(game=self.game).select_related("user__profile")
            )
            hooks.schedule(hooks.deliveries_write(self.game, self.hook_events, seats))
        self.hook_events = []

    def flush(self) -> None:
        """Insert the rows (ignoring duplicates) and send the game's pending rows after commit;
        the webhook deliveries of the change too."""
        self.hooks_flush()
        if self.push_seats:
            push_outbox.write(self.game, self.push_seats)
            self.push_seats = []
        if not self.rows:
            return
        sql_rows.insert_many(self.rows, ignore_conflicts=True)
        notes_apply(self.notes)
        self.rows = []
        self.notes = []
        schedule_send(game_id=self.game.pk)


def notes_apply(notes: list[tuple[str, dict[str, object]]]) -> None:
    """Put each plan note on the turn notice still pending under its key (the insert of a new
    one was skipped as a duplicate of it): the email that goes says why the order was not used.
    Runs only when an order was refused."""
    for key, payload in notes:
        Notification.objects.filter(dedupe_key=key, status=Notification.Status.PENDING).update(
            payload=payload
        )


def schedule_send(*, game_id: int | None = None, ids: list[int] | None = None) -> None:
    """After commit, queue sending of ``ids`` (or of every pending row of ``game_id``).

    A broker error is logged, not raised: the move is already committed and the outbox sweep will
    send the rows when the broker is back. A game's sending is queued once per transaction: the
    task drains every pending row of the game, so a second one (a reply's answer after the move
    it made) would only cost a publish. The check reads the transaction's own on-commit list, which
    Django empties of a rolled-back savepoint's callbacks.
    """
    if ids is None and game_id is not None:
        connection = transaction.get_connection()
        if connection.in_atomic_block and any(
            getattr(func, "send_game", None) == game_id
            for _sids, func, *_rest in connection.run_on_commit
        ):
            return

    def _queue() -> None:
        try:
            if ids is not None:
                queue.publish(queue.NOTIFICATIONS_SEND, ids)
            else:
                queue.publish(queue.NOTIFICATIONS_SEND_GAME, game_id)
        except Exception:  # broker down: the periodic outbox sweep sends them later
            log.warning("could not queue notification sending (game %s); the sweep will", game_id)

    _queue.send_game = game_id  # type: ignore[attr-defined]
    transaction.on_commit(_queue)


def schedule_send_pending() -> None:
    """After commit, queue a run of the outbox sweep (for rows written outside a game change)."""

    def _queue() -> None:
        try:
            queue.publish(queue.OUTBOX_SWEEP)
        except Exception:
            log.warning("could not queue the outbox sweep; the periodic one will run")

    transaction.on_commit(_queue)
