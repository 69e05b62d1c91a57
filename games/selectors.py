"""Reads. ``game_state_for`` is THE door through which game state leaves the server: pages, the API
and emails build what they show from it (or from ``game_detail_for``), never from
``Game.state_json``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q, QuerySet

from games import engine
from games.models import Game, Move, Seat


def game_seats(game: Game) -> list[Seat]:
    """Seats with user and profile, cached on the instance for the request."""
    cached = getattr(game, "_seats_cache", None)
    if cached is None:
        qs = Seat.objects.filter(game=game).select_related("user__profile").order_by("seat")
        cached = list(qs)
        game._seats_cache = cached  # type: ignore[attr-defined]
    return cached


def seat_name(seat: Seat) -> str:
    profile = getattr(seat.user, "profile", None)
    return (profile.display_name if profile else "") or seat.user.get_username()


def seat_of(game: Game, user: Any) -> Seat | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return next((s for s in game_seats(game) if s.user_id == user.pk), None)


def game_deadline(game: Game) -> datetime | None:
    """The earliest deadline among the seats whose move is awaited."""
    awaited = set(game.to_act or [])
    deadlines = [s.deadline for s in game_seats(game) if s.seat in awaited and s.deadline]
    return min(deadlines) if deadlines else None


def game_list(*, user: Any, status: str | None = None, mine: bool = False) -> QuerySet[Game]:
    qs = Game.objects.all().order_by("-created_at", "-id")
    if status:
        qs = qs.filter(status=status)
    if mine:
        if not getattr(user, "is_authenticated", False):
            return qs.none()
        qs = qs.filter(seats__user=user)
    return qs.prefetch_related("seats__user__profile")


def game_get(*, game_id: int) -> Game | None:
    return Game.objects.filter(pk=game_id).first()


def game_detail_for(game: Game, user: Any = None) -> dict[str, Any]:
    """The public description of a game (API.md's game object). Nothing secret."""
    seats = game_seats(game)
    return {
        "id": game.pk,
        "status": game.status,
        "map": game.map,
        "areas": game.areas,
        "max_players": game.max_players,
        "options": dict(game.options or {}),
        "creator": game.creator.get_username() if game.creator_id else None,
        "seats": [
            {
                "seat": s.seat,
                "username": s.user.get_username(),
                "display_name": seat_name(s),
                "colour": s.colour,
                "bot_controlled": s.bot_controlled,
            }
            for s in seats
        ],
        "seq": game.seq,
        "to_act": list(game.to_act or []),
        "deadline": game_deadline(game),
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
    }


def game_engine_state(game: Game) -> Any:
    return engine.state_load(
        game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
    )


def game_state_for(game: Game, user: Any = None, *, state: Any = None) -> dict[str, Any]:
    """The state as ``user`` may see it: ``powergrid.view`` for the user's seat (spectator view for
    non-players), with deadline, names and colours filled in and ``legal`` for the caller.

    ``state`` may pass the engine state when the caller already holds it (after a move).
    """
    if game.status == Game.Status.OPEN or not game.state_json:
        raise ValueError("The game has not started")
    if state is None:
        state = game_engine_state(game)
    seat = seat_of(game, user)
    seat_no = seat.seat if seat is not None else None
    data = engine.view(state, seat_no)
    seats = {s.seat: s for s in game_seats(game)}
    for p in data.get("players", []):
        s = seats.get(p.get("seat"))
        if s is not None:
            p["name"] = seat_name(s)
            p["colour"] = p.get("colour") or s.colour
            p["username"] = s.user.get_username()
    data["deadline"] = game_deadline(game)
    if "legal" not in data or seat_no is None:
        data["legal"] = engine.legal(state, seat_no) if seat_no is not None else []
    data["game"] = game.pk
    data["seq"] = game.seq
    data["seat"] = seat_no
    return data


def move_list(*, game: Game, since: int = 0) -> QuerySet[Move]:
    return Move.objects.filter(game=game, seq__gt=since).order_by("seq")


def games_awaiting(user: Any) -> QuerySet[Game]:
    """Running games where the user's move is awaited (for pages and digests)."""
    seats = Seat.objects.filter(user=user, game__status=Game.Status.RUNNING).select_related("game")
    ids = [s.game_id for s in seats if s.seat in (s.game.to_act or [])]
    return Game.objects.filter(Q(pk__in=ids))
