"""The deadline sweeper, the bot's turn, and reminders.

``deadlines_sweep`` (periodic, beat) finds seats whose ``deadline`` has passed with one indexed
query, then handles each game in its own short transaction: the game row is locked with
``SELECT ... FOR UPDATE SKIP LOCKED`` (a game being moved by a player, or handled by a second
sweeper running at the same time, is skipped - it is picked up again on the next run if still due),
the due seats are re-read under the lock, and for each one a move is made through
``games.services.moves.move_apply_system``:
  * an ordinary seat gets the engine's ``default_action`` with source ``timeout`` (the turn hook
    counts the timeout, tells the player, and hands the seat to the bot after
    ``timeouts_before_bot`` in a row);
  * a bot-controlled seat gets the heuristic bot's choice with source ``bot``. Such a seat's
    deadline is "now" as soon as it is awaited; ``games.tasks.game_play_due`` (queued on commit by
    the hook) plays it at once and the sweep is only the fallback.
``expected_seq`` is passed, so nothing is applied on a game that moved since it was read.

``reminders_queue`` (periodic) writes a reminder row for each seat whose ``reminder_at`` passed.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Min
from django.utils import timezone

from games import engine, selectors
from games.models import Game, Notification, Seat
from games.notifications.outbox import schedule_send_pending, wants_email
from games.services.errors import MoveRejected, ServiceError

log = logging.getLogger(__name__)

_bot: Any = None


def heuristic_bot() -> Any:
    """The engine's heuristic bot (stateless; one instance per process)."""
    global _bot
    if _bot is None:
        from powergrid import bots

        _bot = bots.HeuristicBot()
    return _bot


def due_game_ids(*, now: datetime | None = None, limit: int = 1000) -> list[int]:
    """Games with at least one seat past its deadline, earliest first (uses the deadline index)."""
    now = now or timezone.now()
    rows = (
        Seat.objects.filter(deadline__lte=now)
        .values("game_id")
        .annotate(first=Min("deadline"))
        .order_by("first")[:limit]
    )
    return [r["game_id"] for r in rows]


def _action_for(state: Any, seat: Seat) -> tuple[dict[str, Any], str]:
    if seat.bot_controlled:
        try:
            return dict(heuristic_bot().choose(state, seat.seat)), "bot"
        except Exception:  # a bot bug must not stall the game: fall back to the default
            log.exception("heuristic bot failed on game %s seat %s", seat.game_id, seat.seat)
            return dict(engine.default_action(state, seat.seat)), "bot"
    return dict(engine.default_action(state, seat.seat)), "timeout"


def game_handle_due(
    *, game_id: int, now: datetime | None = None, wait: bool = False, max_moves: int = 60
) -> int:
    """Make the moves due on one game (timeouts, bot turns). Returns how many were made.

    ``wait=False`` (the sweeper) skips a game whose row is locked; ``wait=True`` (the bot task,
    queued after the commit that awaited the bot) waits for the lock.
    """
    from games.services.moves import move_apply_system

    made = 0
    with transaction.atomic():
        qs = Game.objects.select_for_update(skip_locked=not wait).filter(pk=game_id)
        game = qs.first()
        if game is None:
            return 0
        while made < max_moves:
            if game.status != Game.Status.RUNNING:
                Seat.objects.filter(game=game, deadline__isnull=False).update(
                    deadline=None, reminder_at=None
                )
                break
            at = now or timezone.now()
            to_act = [int(x) for x in game.to_act or []]
            # Deadlines left on seats no longer awaited (should not happen): clear them.
            Seat.objects.filter(game=game, deadline__isnull=False).exclude(seat__in=to_act).update(
                deadline=None, reminder_at=None
            )
            seat = (
                Seat.objects.filter(game=game, seat__in=to_act, deadline__lte=at)
                .order_by("deadline", "seat")
                .first()
            )
            if seat is None:
                break
            state = selectors.game_engine_state(game)
            action, source = _action_for(state, seat)
            try:
                result = move_apply_system(
                    game=game, seat=seat.seat, action=action, source=source, expected_seq=game.seq
                )
            except MoveRejected:
                if source != "bot":
                    raise
                action = dict(engine.default_action(state, seat.seat))
                result = move_apply_system(
                    game=game, seat=seat.seat, action=action, source=source, expected_seq=game.seq
                )
            game = result.game
            made += 1
    return made


@dataclass
class SweepReport:
    found: int = 0
    handled_games: int = 0
    moves: int = 0
    errors: int = 0
    find_seconds: float = 0.0
    handle_seconds: float = 0.0


def deadlines_sweep(
    *, now: datetime | None = None, limit: int = 1000, budget_seconds: float = 50.0
) -> SweepReport:
    """Handle every game with a passed deadline (up to ``limit`` per run, within a time budget)."""
    report = SweepReport()
    t0 = time.perf_counter()
    ids = due_game_ids(now=now, limit=limit)
    report.found = len(ids)
    t1 = time.perf_counter()
    report.find_seconds = t1 - t0
    for game_id in ids:
        if time.perf_counter() - t1 > budget_seconds:
            break  # the next run continues
        try:
            made = game_handle_due(game_id=game_id, now=now)
        except (ServiceError, engine.IllegalAction):
            report.errors += 1
            log.exception("deadline handling failed for game %s", game_id)
            continue
        if made:
            report.handled_games += 1
            report.moves += made
    report.handle_seconds = time.perf_counter() - t1
    return report


def reminders_queue(*, now: datetime | None = None, limit: int = 1000) -> int:
    """Write a reminder row for each awaited seat past its ``reminder_at``; returns the number."""
    now = now or timezone.now()
    written = 0
    with transaction.atomic():
        seats = list(
            Seat.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(reminder_at__lte=now)
            .select_related("user__profile", "game")
            .order_by("reminder_at")[:limit]
        )
        if not seats:
            return 0
        rows = []
        for s in seats:
            game = s.game
            if (
                game.status == Game.Status.RUNNING
                and s.seat in (game.to_act or [])
                and s.deadline is not None
                and s.deadline > now
                and not s.bot_controlled
                and wants_email(s.user, Notification.Kind.REMINDER)
            ):
                rows.append(
                    Notification(
                        recipient=s.user,
                        game=game,
                        kind=Notification.Kind.REMINDER,
                        payload={"seat": s.seat, "deadline": s.deadline.isoformat()},
                        dedupe_key=f"reminder:{game.pk}:{s.user_id}:{int(s.deadline.timestamp())}",
                    )
                )
        Seat.objects.filter(pk__in=[s.pk for s in seats]).update(reminder_at=None)
        if rows:
            Notification.objects.bulk_create(rows, ignore_conflicts=True)
            written = len(rows)
            schedule_send_pending()
    return written
