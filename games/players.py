"""What the site says about a player, from public facts: rating, reliability (turns made in time
versus timed out, over their last turns), games abandoned to the bot, median reply time, current
and finished games. The first thing a player checks before joining a game lasting weeks."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache

from games.models import Game, Move, Rating, Seat

#: Turns looked at for the reliability figure.
RECENT_TURNS = 50
HUMAN = (Move.Source.WEB, Move.Source.API, Move.Source.EMAIL, Move.Source.PLAN)


@dataclass(frozen=True)
class Reliability:
    turns: int  # the player's recent turns counted (made or timed out)
    on_time: int
    timed_out: int
    abandoned: int  # games where the bot took the seat over
    median_reply_hours: float | None

    @property
    def percent(self) -> int | None:
        return round(100 * self.on_time / self.turns) if self.turns else None


def reliability(user: Any) -> Reliability:
    seats = list(Seat.objects.filter(user=user).values_list("game_id", "seat", "bot_controlled"))
    mine = {(g, s) for g, s, _b in seats}
    games = [g for g, _s, _b in seats]
    rows = list(
        Move.objects.filter(game_id__in=games)
        .order_by("-created_at")
        .values_list("game_id", "seq", "seat", "source", "created_at")[: RECENT_TURNS * 8]
    )
    rows.reverse()
    previous: dict[int, Any] = {}
    turns: list[tuple[str, float]] = []
    for game_id, _seq, seat, source, at in rows:
        if (game_id, seat) in mine and source in (*HUMAN, Move.Source.TIMEOUT):
            before = previous.get(game_id)
            hours = (at - before).total_seconds() / 3600 if before is not None else 0.0
            turns.append((source, hours))
        previous[game_id] = at
    turns = turns[-RECENT_TURNS:]
    timed_out = sum(1 for source, _h in turns if source == Move.Source.TIMEOUT)
    replies = [h for source, h in turns if source in HUMAN and h > 0]
    return Reliability(
        turns=len(turns),
        on_time=len(turns) - timed_out,
        timed_out=timed_out,
        abandoned=sum(1 for _g, _s, bot in seats if bot),
        median_reply_hours=statistics.median(replies) if replies else None,
    )


#: Seconds the lobby keeps a player's reliability figure (it moves a turn at a time).
LOBBY_CACHE_SECONDS = 600


def on_time_percents(user_ids: list[int]) -> dict[int, int | None]:
    """User id -> percent of recent turns in time (None: no record), for the lobby's rows:
    read from the cache, the missing ones computed and kept ``LOBBY_CACHE_SECONDS``."""
    keys = {uid: f"reliability:{uid}" for uid in set(user_ids)}
    cached = cache.get_many(list(keys.values()))
    out: dict[int, int | None] = {}
    fresh: dict[str, Any] = {}
    for uid, key in keys.items():
        if key in cached:
            out[uid] = cached[key]["percent"]
            continue
        percent = reliability(get_user_model()(pk=uid)).percent
        out[uid] = percent
        fresh[key] = {"percent": percent}
    if fresh:
        cache.set_many(fresh, LOBBY_CACHE_SECONDS)
    return out


def rating_of(user: Any) -> Rating | None:
    return Rating.objects.filter(user=user).first()


def ratings_for(user_ids: list[int]) -> dict[int, int]:
    """User id -> displayed rating, for the lobby's rows (one query)."""
    return {r.user_id: r.display for r in Rating.objects.filter(user_id__in=user_ids)}


def games_of(user: Any) -> dict[str, list[Game]]:
    qs = Game.objects.filter(seats__user=user).order_by("-created_at")
    return {
        "current": list(qs.exclude(status=Game.Status.FINISHED)[:30]),
        "finished": list(qs.filter(status=Game.Status.FINISHED)[:30]),
    }
