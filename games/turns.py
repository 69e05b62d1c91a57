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
  * round sheets (a game played by them, ``games.sheets.asking``): when a round begins every seat
    a person plays is asked for its sheet at once (a deadline by the same clock, one email), and
    keeps that deadline, awaited or not, while its sheet waits (no turn email meanwhile); a
    sheet answered counts as its player's move, one played at its deadline as a timeout;
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

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts import deliverability

from . import engine, queue, ratings, signals, tenures
from .deadlines import clock
from .fastpath import rows as sql_rows
from .fastpath.bulk import bulk_update_values
from .models import DEFAULT_OPTIONS, Game, Move, Notification, Seat
from .notifications.outbox import OutboxWriter, notes_apply, schedule_send_pending
from .sheets.asking import Answered, SheetRound, sheet_round
from .stream import log as stream_log
from .webhooks import events as hooks

if TYPE_CHECKING:
    from powergrid.state import State

log = logging.getLogger(__name__)

HUMAN_SOURCES = {Move.Source.WEB, Move.Source.API, Move.Source.EMAIL}


def _option(game: Game, name: str) -> float:
    """A number (or yes/no) of the game's options, its default when the game has none."""
    return float((game.options or {}).get(name, DEFAULT_OPTIONS[name]) or 0)


def turn_hours_counted(hours: float) -> float:
    """A game's turn hours as the clock counts them: themselves, unless the test-only setting
    ``TURN_HOUR_SECONDS`` makes an hour shorter (scripts/season plays turns of seconds)."""
    return hours * float(settings.TURN_HOUR_SECONDS) / 3600.0


def seat_clock(game: Game, seat: Seat, *, now: datetime) -> tuple[datetime, datetime | None]:
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


_SEAT_FIELDS = (
    "deadline", "reminder_at", "timeouts_in_row", "bot_controlled", "offered", "sheet_waits",
)  # fmt: skip


def _seat_values(seat: Seat) -> tuple[object, ...]:
    return tuple(getattr(seat, f) for f in _SEAT_FIELDS)


@dataclass
class StateChange:
    """One game's change, for ``on_states_changed`` (the arguments of ``on_state_changed``)."""

    game: Game
    old_state: State | None
    new_state: State
    moves: list[Move]
    seats: list[Seat] | None = None
    notes: dict[int, str] | None = None
    answered: Answered | None = None


@dataclass
class _Effects:
    seats: list[Seat]  # the seats whose columns changed
    fields: list[str]  # the columns that changed in any of them
    outbox: OutboxWriter
    bot_due: bool
    sheet: SheetRound | None = None  # the round sheets' part of the change

    def stream_sheets(
        self, game: Game, seats: list[Seat]
    ) -> list[tuple[Game, list[Seat], str, Mapping[str, object] | None]]:
        """The event stream's ``sheet_asked`` change (after the game's): the seats asked now."""
        if self.sheet is None:
            return []
        return stream_log.sheet_asked(game, seats, self.sheet.asked, self.sheet.round)


def on_state_changed(
    *,
    game: Game,
    old_state: State | None,
    new_state: State,
    moves: list[Move],
    seats: list[Seat] | None = None,
    notes: dict[int, str] | None = None,
    answered: Answered | None = None,
) -> None:
    """The bookkeeping of a change (one move, or a chain of moves made by plans): deadlines,
    counters, the outbox. ``notes``: per seat, why its standing order was not used (its turn
    email says so). ``answered``: the round sheets answered in the change (``games.sheets``;
    the change may then have no move at all)."""
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
        answered=answered,
    )
    if fx.seats:
        # Only the columns that changed (usually deadline and reminder_at), in one statement.
        bulk_update_values(fx.seats, fx.fields or _SEAT_FIELDS)
    fx.outbox.flush()
    if fx.bot_due:
        game_id = game.pk
        queue_bot_on_commit(game_id)
    if moves or old_state is None:  # (a sheet answered without a move changes no public fact)
        # The last write (games/stream/log.py): the game's events, then the round sheets asked.
        stream_log.record_many(
            [(game, seats, "game", None), *fx.stream_sheets(game, seats)],
            moves={game.pk: moves},
            states={game.pk: (old_state, new_state)},
        )


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
    rows: list[Notification] = []
    notes: list[tuple[str, dict[str, object]]] = []
    bots: list[int] = []
    sheets: list[tuple[Game, list[Seat], str, Mapping[str, object] | None]] = []
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
            answered=c.answered,
        )
        to_save += fx.seats
        fields.update(fx.fields or _SEAT_FIELDS)
        rows += fx.outbox.rows
        notes += fx.outbox.notes
        fx.outbox.hooks_flush()
        sheets += fx.stream_sheets(c.game, c.seats)
        if fx.bot_due:
            bots.append(c.game.pk)
    if to_save:
        bulk_update_values(to_save, [f for f in _SEAT_FIELDS if f in fields])
    if rows:
        sql_rows.insert_many(rows, ignore_conflicts=True)
        notes_apply(notes)
        schedule_send_pending()
    for game_id in bots:
        queue_bot_on_commit(game_id)
    stream_log.record_many(
        [(c.game, c.seats or [], "game", None) for c in changes] + sheets,
        moves={c.game.pk: c.moves for c in changes},
        states={c.game.pk: (c.old_state, c.new_state) for c in changes},
    )


def on_takeback(
    *,
    game: Game,
    old_state: State | None,
    new_state: State,
    moves: list[Move],
    seats: list[Seat],
    requester: Seat,
    cancels: list[int],
    agreed: bool,
    notes: dict[int, str] | None = None,
    back: State | None = None,
) -> None:
    """The bookkeeping of a take-back (``games.services.takeback``), in its transaction:
    ``moves`` are the take-back's entry and the moves plans made after it; ``back``: the state
    the take-back went back to (the plans' moves start from it; without it ``new_state`` when
    no plan moved).

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
        queue_bot_on_commit(game_id)
    # The last write: the game event, then the take-back's own (games/stream/log.py).
    stream_log.record_many(
        [
            (game, seats, "game", None),
            (game, seats, hooks.TAKEBACK, {"takeback": facts}),
            *fx.stream_sheets(game, seats),
        ],
        moves={game.pk: moves},
        states={game.pk: (back if back is not None or len(moves) > 1 else new_state, new_state)},
    )


def _came_back(game: Game, seat: Seat) -> bool:
    """A player's own move (or sheet answer) for ``seat``: the bot gives it back and its count
    of timeouts in a row starts again. Whether a column of ``_SEAT_FIELDS`` changed."""
    changed = False
    if seat.bot_controlled or seat.timeouts_in_row:
        seat.bot_controlled = False
        seat.timeouts_in_row = 0
        changed = True
    if seat.offered == Seat.Offered.TIMED_OUT:  # back: no longer offered to substitutes
        seat.offered = Seat.Offered.NO
        tenures.came_back(game, seat)
    return changed


def _timed_out(
    game: Game, seat: Seat, seats: list[Seat], outbox: OutboxWriter, *, seq: int, now: datetime,
    action: dict[str, object], sheet_round: int | None = None,
) -> None:  # fmt: skip
    """One more timeout for ``seat`` (a default move, or a round sheet played at its deadline):
    its player is told, and after ``timeouts_before_bot`` in a row the bot takes the seat."""
    seat.timeouts_in_row += 1
    outbox.timeout(seat, seq=seq, action=action, sheet_round=sheet_round)
    limit = int(_option(game, "timeouts_before_bot") or 0)
    if limit and seat.timeouts_in_row >= limit and not seat.bot_controlled:
        seat.bot_controlled = True
        # Offered to substitutes until its player comes back (games.services.seats).
        seat.offered = Seat.Offered.TIMED_OUT
        tenures.timed_out(game, seat, now=now)
        outbox.bot_took_over(seat, seats, seq=seq)


def _effects(
    *,
    game: Game,
    old_state: State | None,
    new_state: State,
    moves: list[Move],
    seats: list[Seat],
    now: datetime,
    notes: dict[int, str] | None = None,
    answered: Answered | None = None,
) -> _Effects:
    """What a change means for the seats and the outbox (updates ``seats`` in place; writes
    nothing)."""
    initial = {s.pk: _seat_values(s) for s in seats}
    by_no = {s.seat: s for s in seats}
    finished = game.status == Game.Status.FINISHED
    new_to_act = set() if finished else {int(x) for x in (game.to_act or [])}
    old_to_act = set(engine.to_act(old_state)) if old_state is not None else set()
    # A sheet its player answered counts as their move (answered by the deadline: it does not).
    by_player = answered.by_player if answered is not None else frozenset()
    moved = {m.seat for m in moves} | by_player
    human_movers = {m.seat for m in moves if m.source in HUMAN_SOURCES} | by_player
    outbox = OutboxWriter(game=game)
    changed: set[int] = set()

    # 1. Seat bookkeeping from the moves' sources (and the round sheets answered).
    for seat_no in sorted(human_movers):
        seat = by_no.get(seat_no)
        if seat is not None and _came_back(game, seat):
            changed.add(seat.pk)
    for m in moves:
        seat = by_no.get(m.seat)
        if seat is not None and m.source == Move.Source.TIMEOUT:
            _timed_out(game, seat, seats, outbox, seq=m.seq, now=now, action=dict(m.action))
            changed.add(seat.pk)
    for seat_no, rnd in (answered.timed_out if answered is not None else {}).items():
        seat = by_no.get(seat_no)
        # Still awaited and not moved: its sheet could not decide, and the turn's default move
        # follows at once (the timeout counted then).
        if seat is not None and not (seat_no in new_to_act and seat_no not in moved):
            _timed_out(game, seat, seats, outbox, seq=game.seq, now=now, action={},
                       sheet_round=rnd)  # fmt: skip
            changed.add(seat.pk)

    # 2. Deadlines for the awaited seats (and the round sheets waiting), cleared for the rest.
    sheet = sheet_round(
        game=game, old_state=old_state, new_state=new_state, moves=moves, seats=seats,
        old_to_act=old_to_act, answered=answered,
    )  # fmt: skip
    bot_due = False
    for seat in seats:
        before = (seat.deadline, seat.reminder_at, seat.sheet_waits)
        waits = sheet is not None and sheet.waits(seat)
        if sheet is not None and seat.seat in sheet.asked:
            _sheet_asked(game, seat, sheet, outbox, now=now, started=old_state is None,
                         awaited=seat.seat in new_to_act)  # fmt: skip
        elif seat.seat not in new_to_act:
            if not waits:
                seat.deadline = seat.reminder_at = None
        elif seat.bot_controlled:
            seat.deadline, seat.reminder_at = now, None
            bot_due = True
        elif waits and sheet is not None:
            # Its round sheet's deadline; the sheet's email asked for this turn already. The
            # webhooks hear a turn that has just come all the same (``sheet_turn``).
            if seat.seat not in old_to_act or seat.seat in moved:
                outbox.turn_hook(seat, sheet_round=sheet.round)
        elif seat.seat not in old_to_act or seat.seat in moved or seat.deadline is None:
            seat.deadline, seat.reminder_at = seat_clock(game, seat, now=now)
            # At start the game-started email says it is your turn; a player who has just moved
            # and is awaited again (e.g. must discard a plant) is looking at the game already.
            if old_state is not None and seat.seat not in human_movers:
                outbox.turn(seat, seq=game.seq, note=(notes or {}).get(seat.seat, ""))
            elif old_state is not None:
                outbox.turn_hook(seat)  # a program told by its webhook is not looking
        elif notes and seat.seat in notes and not seat.bot_controlled:
            # Awaited already, but the order they counted on was not used: tell them why.
            outbox.turn(seat, seq=game.seq, note=notes[seat.seat])
        seat.sheet_waits = waits
        if (seat.deadline, seat.reminder_at, seat.sheet_waits) != before:
            changed.add(seat.pk)
    to_save = [s for s in seats if s.pk in changed]
    fields = [
        f
        for i, f in enumerate(_SEAT_FIELDS)
        if any(_seat_values(s)[i] != initial[s.pk][i] for s in to_save)
    ]

    # 3. Game started / game over.
    if old_state is None:
        outbox.game_started(
            seats,
            new_to_act,
            sheet_round=sheet.round if sheet is not None else None,
            asked=sheet.asked if sheet is not None else (),
        )
    if finished:
        outbox.game_over(seats, seq=game.seq)
        ratings.game_rate(game, seats)  # once, in the transaction that ends the game
        signals.game_finished.send(sender=Game, game=game)
    return _Effects(seats=to_save, fields=fields, outbox=outbox, bot_due=bot_due, sheet=sheet)


def _sheet_asked(
    game: Game, seat: Seat, sheet: SheetRound, outbox: OutboxWriter, *, now: datetime,
    started: bool, awaited: bool,
) -> None:  # fmt: skip
    """A round begins: ``seat`` is asked for its sheet (``games.sheets.asking``), with the
    deadline of a turn given now, one email (round 1's: the game-started email) and a
    ``sheet_asked`` webhook event."""
    seat.deadline, seat.reminder_at = seat_clock(game, seat, now=now)
    outbox.sheet(seat, seq=game.seq, sheet_round=sheet.round, awaited=awaited, email=not started)


def _queue_bot(game_id: int) -> None:
    try:
        queue.publish(queue.GAME_PLAY_DUE, game_id)
    except Exception:  # broker down: the deadline sweep plays the bot (its deadline is now)
        log.warning("could not queue the bot for game %s; the deadline sweep will", game_id)


class _BotTask:
    """The on-commit callback that queues ``game_id``'s bot task, known by its game."""

    def __init__(self, game_id: int) -> None:
        self.game_id = game_id

    def __call__(self) -> None:
        _queue_bot(self.game_id)


def queue_bot_on_commit(game_id: int) -> None:
    """Queue the game's bot task once the transaction commits, once per game and transaction.
    A task that plays 60 bot moves in one transaction queued 60 tasks for the same game (each
    move left the next bot awaited), which queued as many again: one task does, as it plays
    every move due and queues the next after its own commit (a rolled-back transaction's
    callbacks go with it, so no game is left without its task)."""
    pending = transaction.get_connection().run_on_commit
    if any(isinstance(f, _BotTask) and f.game_id == game_id for _sids, f, *_ in pending):
        return
    transaction.on_commit(_BotTask(game_id))
