"""What happens after a game's state changes: deadlines, seat bookkeeping and the outbox.

``on_state_changed`` is called by every service that changes a game's state (``game_start``,
``move_submit``, ``move_apply_system``) INSIDE the transaction that changed it, with the game row
locked (``select_for_update``) and already saved with its new ``seq``, ``to_act``, ``status``.

What it does, all in that transaction:
  * seat bookkeeping from each move's source: a human move (web, api, email) resets
    ``timeouts_in_row`` and gives a bot-controlled seat back to its player; a ``timeout`` move
    counts one more timeout in a row, tells the player, and after the game option
    ``timeouts_before_bot`` (0 = never) consecutive timeouts hands the seat to the bot of the
    game's ``bot_level`` option (the heuristic bot by default) and tells everyone;
  * deadlines: each *newly* awaited seat gets ``Seat.deadline`` and ``Seat.reminder_at``
    (``games.deadlines.clock``: turn hours, weekends paused in the player's time zone, vacation;
    a longer grace for a player our emails do not reach, ``seat_clock``);
    a seat still awaited from before keeps its deadline (phase 5 awaits everyone at once, each
    leaves ``to_act`` when they have moved); every other seat's deadline is cleared; an awaited
    bot-controlled seat is due at once (the bot task plays it, the sweeper is its fallback);
  * the outbox (``games.notifications.outbox``): a turn notice per newly awaited player (one
    pending per player and game), game started, game over, timeout and bot notices;
  * on commit: queue sending, and queue the bot when a bot-controlled seat is awaited.

``on_states_changed`` does the same for several games changed in one transaction (the deadline
sweeper's batch of system moves), with one seat UPDATE and one outbox INSERT for all of them.

Arguments:
  game       the locked, saved ``Game``
  old_state  the engine state before (``None`` when the game has just started)
  new_state  the engine state after
  moves      the ``Move`` rows appended by this change (empty at start)
  seats      optional: the game's seats with ``user__profile``, already read in this transaction
             after the lock (the move service passes them, saving a query); updated in place
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts import deliverability

from . import engine, queue, ratings
from .deadlines import clock
from .fastpath import rows as sql_rows
from .fastpath.bulk import bulk_update_values
from .models import DEFAULT_OPTIONS, Game, Move, Notification, Seat
from .notifications.outbox import OutboxWriter, notes_apply, schedule_send_pending
from .stream import log as stream_log
from .webhooks import events as hooks

log = logging.getLogger(__name__)

HUMAN_SOURCES = {Move.Source.WEB, Move.Source.API, Move.Source.EMAIL}


def _option(game: Game, name: str) -> Any:
    return (game.options or {}).get(name, DEFAULT_OPTIONS[name])


def turn_hours_counted(hours: float) -> float:
    """A game's turn hours as the clock counts them: themselves, unless the test-only setting
    ``TURN_HOUR_SECONDS`` makes an hour shorter (scripts/season plays turns of seconds)."""
    return hours * float(settings.TURN_HOUR_SECONDS) / 3600.0


def seat_clock(game: Game, seat: Seat, *, now: Any) -> tuple[Any, Any]:
    """(deadline, reminder_at) for a turn given to ``seat`` at ``now``.

    A player our emails do not reach, who has not been on the site since they stopped
    (``accounts.deliverability.absent``), may not know it is their turn: the deadline is
    ``MAIL_UNDELIVERABLE_GRACE_HOURS`` later before the game's rule for an absent player (the
    default move, then the bot) applies, and there is no reminder (it could not arrive)."""
    profile = getattr(seat.user, "profile", None)
    tz = getattr(profile, "timezone", "UTC") or "UTC"
    fraction = float(getattr(profile, "reminder_fraction", 0.8))
    vacation_until = getattr(profile, "vacation_until", None)
    if vacation_until is not None and vacation_until <= now:
        vacation_until = None
    hours = turn_hours_counted(float(_option(game, "turn_hours")))
    weekends = bool(_option(game, "pause_weekends"))
    deadline = clock.turn_deadline(
        start=now, hours=hours, tz=tz, pause_weekends=weekends, vacation_until=vacation_until
    )
    reminder = clock.reminder_time(
        start=now,
        hours=hours,
        fraction=fraction,
        tz=tz,
        pause_weekends=weekends,
        vacation_until=vacation_until,
    )
    if deliverability.absent(seat.user):
        return deadline + deliverability.absent_grace(), None
    return deadline, reminder


_SEAT_FIELDS = ("deadline", "reminder_at", "timeouts_in_row", "bot_controlled")


def _seat_values(seat: Seat) -> tuple[Any, ...]:
    return tuple(getattr(seat, f) for f in _SEAT_FIELDS)


@dataclass
class StateChange:
    """One game's change, for ``on_states_changed`` (the arguments of ``on_state_changed``)."""

    game: Game
    old_state: Any
    new_state: Any
    moves: list[Move]
    seats: list[Seat] | None = None
    notes: dict[int, str] | None = None


@dataclass
class _Effects:
    seats: list[Seat]  # the seats whose columns changed
    fields: list[str]  # the columns that changed in any of them
    outbox: OutboxWriter
    bot_due: bool


def on_state_changed(
    *,
    game: Game,
    old_state: Any,
    new_state: Any,
    moves: list[Move],
    seats: list[Seat] | None = None,
    notes: dict[int, str] | None = None,
) -> None:
    """The bookkeeping of a change (one move, or a chain of moves made by plans): deadlines,
    counters, the outbox. ``notes``: per seat, why its standing order was not used (its turn
    email says so)."""
    now = timezone.now()
    if seats is None:
        seats = list(
            Seat.objects.filter(game=game).select_related("user__profile").order_by("seat")
        )
    fx = _effects(
        game=game,
        old_state=old_state,
        new_state=new_state,
        moves=moves,
        seats=seats,
        now=now,
        notes=notes,
    )
    if fx.seats:
        # Only the columns that changed (usually deadline and reminder_at), in one statement.
        bulk_update_values(fx.seats, fx.fields or _SEAT_FIELDS)
    fx.outbox.flush()
    if fx.bot_due:
        game_id = game.pk
        transaction.on_commit(lambda: _queue_bot(game_id))
    stream_log.record(game, seats, moves=moves)  # the last write: see games/stream/log.py


def on_states_changed(changes: list[StateChange]) -> None:
    """``on_state_changed`` for several games changed in one transaction (the sweeper's system
    moves): the same bookkeeping, deadlines and outbox rows for each, written with ONE seat UPDATE
    and ONE outbox INSERT for all, and one sending task queued after commit (it drains every
    pending row) instead of one per game."""
    if not changes:
        return
    now = timezone.now()
    missing = [c for c in changes if c.seats is None]
    if missing:
        by_game = sql_rows.seats_for_games([c.game.pk for c in missing])
        for c in missing:
            c.seats = by_game[c.game.pk]
    to_save: list[Seat] = []
    fields: set[str] = set()
    rows: list[Any] = []
    notes: list[tuple[str, dict[str, Any]]] = []
    bots: list[int] = []
    for c in changes:
        assert c.seats is not None
        fx = _effects(
            game=c.game,
            old_state=c.old_state,
            new_state=c.new_state,
            moves=c.moves,
            seats=c.seats,
            now=now,
            notes=c.notes,
        )
        to_save += fx.seats
        fields.update(fx.fields or _SEAT_FIELDS)
        rows += fx.outbox.rows
        notes += fx.outbox.notes
        fx.outbox.hooks_flush()
        if fx.bot_due:
            bots.append(c.game.pk)
    if to_save:
        bulk_update_values(to_save, [f for f in _SEAT_FIELDS if f in fields])
    if rows:
        sql_rows.insert_many(rows, ignore_conflicts=True)
        notes_apply(notes)
        schedule_send_pending()
    for game_id in bots:
        transaction.on_commit(functools.partial(_queue_bot, game_id))
    stream_log.record_many(
        [(c.game, c.seats or [], "game", None) for c in changes],
        moves={c.game.pk: c.moves for c in changes},
    )


def on_takeback(
    *,
    game: Game,
    old_state: Any,
    new_state: Any,
    moves: list[Move],
    seats: list[Seat],
    requester: Seat,
    cancels: list[int],
    agreed: bool,
    notes: dict[int, str] | None = None,
) -> None:
    """The bookkeeping of a take-back (``games.services.takeback``), in its transaction:
    ``moves`` are the take-back's entry and the moves plans made after it.

    As after a move: the seat that moves again gets a fresh deadline, the seats no longer awaited
    lose theirs, a newly awaited seat is told (the one who asked, when the others agreed: their
    turn again). Then: each player told it was their turn by a move now cancelled (a turn email
    or reminder sent or being sent) and not awaited now gets ONE "X took back their move, it is
    not your turn yet" (its outbox key is the take-back's); a turn email still waiting is
    skipped when its turn is gone (``games.notifications.emails``). Webhooks and the event
    stream get a ``takeback`` event."""
    now = timezone.now()
    fx = _effects(
        game=game,
        old_state=old_state,
        new_state=new_state,
        moves=moves,
        seats=seats,
        now=now,
        notes=notes,
    )
    awaited = {int(x) for x in game.to_act or []}
    if agreed and requester.seat in awaited and not requester.bot_controlled:
        fx.outbox.turn(requester, seq=game.seq)
    told: dict[int, list[int]] = {}
    for pk, user_id in (
        Notification.objects.filter(
            game=game,
            kind__in=(Notification.Kind.TURN, Notification.Kind.REMINDER),
            status__in=(Notification.Status.SENDING, Notification.Status.SENT),
            payload__seq__gte=cancels[0],
        )
        # A row marked sent without a send time was skipped (its turn had gone): never sent.
        .exclude(status=Notification.Status.SENT, sent_at__isnull=True)
        .values_list("pk", "recipient_id")
    ):
        told.setdefault(user_id, []).append(pk)
    for seat in seats:
        if seat.user_id in told and seat.seat not in awaited and seat.pk != requester.pk:
            fx.outbox.takeback(
                seat, seq=game.seq, by=requester.seat, cancels=cancels, told=told[seat.user_id]
            )
    facts = {"seat": requester.seat, "cancels": cancels, "agreed": agreed}
    fx.outbox.hook_events.append((hooks.TAKEBACK, requester, {"takeback": facts}))
    if fx.seats:
        bulk_update_values(fx.seats, fx.fields or _SEAT_FIELDS)
    fx.outbox.flush()
    if fx.bot_due:
        game_id = game.pk
        transaction.on_commit(lambda: _queue_bot(game_id))
    # The last write: the game event, then the take-back's own (games/stream/log.py).
    stream_log.record_many(
        [(game, seats, "game", None), (game, seats, hooks.TAKEBACK, {"takeback": facts})],
        moves={game.pk: moves},
    )


def _effects(
    *,
    game: Game,
    old_state: Any,
    new_state: Any,
    moves: list[Move],
    seats: list[Seat],
    now: Any,
    notes: dict[int, str] | None = None,
) -> _Effects:
    """What a change means for the seats and the outbox (updates ``seats`` in place; writes
    nothing)."""
    initial = {s.pk: _seat_values(s) for s in seats}
    by_no = {s.seat: s for s in seats}
    finished = game.status == Game.Status.FINISHED
    new_to_act = set() if finished else {int(x) for x in (game.to_act or [])}
    old_to_act = set(engine.to_act(old_state)) if old_state is not None else set()
    moved = {m.seat for m in moves}
    human_movers = {m.seat for m in moves if m.source in HUMAN_SOURCES}
    outbox = OutboxWriter(game=game)
    changed: set[int] = set()

    # 1. Seat bookkeeping from the moves' sources.
    for m in moves:
        seat = by_no.get(m.seat)
        if seat is None:
            continue
        if m.source in HUMAN_SOURCES:
            if seat.bot_controlled or seat.timeouts_in_row:
                seat.bot_controlled = False
                seat.timeouts_in_row = 0
                changed.add(seat.pk)
        elif m.source == Move.Source.TIMEOUT:
            seat.timeouts_in_row += 1
            changed.add(seat.pk)
            outbox.timeout(seat, seq=m.seq, action=dict(m.action))
            limit = int(_option(game, "timeouts_before_bot") or 0)
            if limit and seat.timeouts_in_row >= limit and not seat.bot_controlled:
                seat.bot_controlled = True
                outbox.bot_took_over(seat, seats, seq=m.seq)

    # 2. Deadlines for the awaited seats, cleared for the rest.
    bot_due = False
    for seat in seats:
        before = (seat.deadline, seat.reminder_at)
        if seat.seat not in new_to_act:
            seat.deadline = seat.reminder_at = None
        elif seat.bot_controlled:
            seat.deadline, seat.reminder_at = now, None
            bot_due = True
        elif seat.seat not in old_to_act or seat.seat in moved or seat.deadline is None:
            seat.deadline, seat.reminder_at = seat_clock(game, seat, now=now)
            # At start the game-started email says it is your turn; a player who has just moved
            # and is awaited again (e.g. must discard a plant) is looking at the game already.
            if old_state is not None and seat.seat not in human_movers:
                outbox.turn(seat, seq=game.seq, note=(notes or {}).get(seat.seat, ""))
        elif notes and seat.seat in notes and not seat.bot_controlled:
            # Awaited already, but the order they counted on was not used: tell them why.
            outbox.turn(seat, seq=game.seq, note=notes[seat.seat])
        if (seat.deadline, seat.reminder_at) != before:
            changed.add(seat.pk)
    to_save = [s for s in seats if s.pk in changed]
    fields = [
        f
        for i, f in enumerate(_SEAT_FIELDS)
        if any(_seat_values(s)[i] != initial[s.pk][i] for s in to_save)
    ]

    # 3. Game started / game over.
    if old_state is None:
        outbox.game_started(seats, new_to_act)
    if finished:
        outbox.game_over(seats, seq=game.seq)
        ratings.game_rate(game, seats)  # once, in the transaction that ends the game
    return _Effects(seats=to_save, fields=fields, outbox=outbox, bot_due=bot_due)


def _queue_bot(game_id: int) -> None:
    try:
        queue.publish(queue.GAME_PLAY_DUE, game_id)
    except Exception:  # broker down: the deadline sweep plays the bot (its deadline is now)
        log.warning("could not queue the bot for game %s; the deadline sweep will", game_id)
