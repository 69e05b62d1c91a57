"""Open games that never fill are closed, after a warning to their creator (periodic).

An open game whose seats have not all been taken ``OPEN_GAME_WARN_DAYS`` after its creation
gets its creator a warning email (once: ``Game.open_warned_at``) naming the day it will be
closed; at ``OPEN_GAME_CLOSE_DAYS`` (and never sooner than a day after the warning, whatever the
settings) the game is closed: deleted, as a game is when its last player leaves, and everyone
seated told by email. A game that fills, or that its creator starts, is no longer open and
leaves the sweep. Each game is handled in its own transaction under its row lock (skipping a game
another sweep or a join holds), so the sweep is safe to run twice at once and a join racing it
either takes its seat first or finds the game gone."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Count, F
from django.utils import timezone

from games.models import Game, Notification, Seat
from games.notifications.outbox import schedule_send_pending, wants_email

Kind = Notification.Kind
#: The least time between the warning and the closing.
MIN_NOTICE = timedelta(days=1)


def _spans() -> tuple[timedelta, timedelta]:
    warn = timedelta(days=max(1, int(settings.OPEN_GAME_WARN_DAYS)))
    close = timedelta(days=int(settings.OPEN_GAME_CLOSE_DAYS))
    return warn, max(close, warn + MIN_NOTICE)


def _candidates(before: datetime) -> list[int]:
    return list(
        Game.objects.filter(status=Game.Status.OPEN, practice=False, created_at__lte=before)
        .annotate(taken=Count("seats"))
        .filter(taken__lt=F("max_players"))
        .order_by("created_at")
        .values_list("pk", flat=True)[:500]
    )


def open_games_sweep(now: datetime | None = None) -> dict[str, int]:
    """Warn and close what is due: {"warned": n, "closed": n}."""
    now = now or timezone.now()
    warn, close = _spans()
    counts = {"warned": 0, "closed": 0}
    for gid in _candidates(now - warn):
        outcome = _handle(gid, now, warn, close)
        if outcome:
            counts[outcome] += 1
    return counts


def _handle(gid: int, now: datetime, warn: timedelta, close: timedelta) -> str:
    """One game, in its own transaction: "warned", "closed" or "" (nothing due, or taken)."""
    with transaction.atomic():
        game = (
            Game.objects.select_for_update(skip_locked=True)
            .filter(pk=gid, status=Game.Status.OPEN)
            .first()
        )
        if game is None:
            return ""
        seats = list(Seat.objects.filter(game=game).select_related("user__profile"))
        if len(seats) >= game.max_players:
            return ""
        if game.open_warned_at is None:
            return _warn(game, now, close) if game.created_at <= now - warn else ""
        due = max(game.created_at + close, game.open_warned_at + MIN_NOTICE)
        if now < due:
            return ""
        _close(game, seats, now)
        return "closed"


def _warn(game: Game, now: datetime, close: timedelta) -> str:
    close_on = max(game.created_at + close, now + MIN_NOTICE)
    game.open_warned_at = now
    game.save(update_fields=["open_warned_at"])
    creator = game.creator
    if wants_email(creator, Kind.OPEN_WARNING):
        Notification.objects.get_or_create(
            dedupe_key=f"openwarn:{game.pk}",
            defaults={
                "recipient": creator,
                "game": game,
                "kind": Kind.OPEN_WARNING,
                "payload": {"close_on": close_on.isoformat()},
            },
        )
        schedule_send_pending()
    return "warned"


def _close(game: Game, seats: list[Seat], now: datetime) -> None:
    days = max(0, (now - game.created_at).days)
    told = False
    for s in seats:
        if not wants_email(s.user, Kind.OPEN_CLOSED):
            continue
        Notification.objects.get_or_create(
            dedupe_key=f"openclosed:{game.pk}:{s.user_id}",
            defaults={
                "recipient": s.user,
                "game": None,  # the game is gone: the row keeps what it was
                "kind": Kind.OPEN_CLOSED,
                "payload": {"game_id": game.pk, "map": game.map, "days_open": days},
            },
        )
        told = True
    game.delete()
    if told:
        schedule_send_pending()
