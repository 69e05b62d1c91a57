"""The lobby: create, join, leave, start."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import engine, turns
from games.models import COLOURS, DEFAULT_OPTIONS, Game, Seat

from .errors import (
    AlreadyJoined,
    GameAlreadyStarted,
    GameFull,
    GameNotFound,
    InvalidSetup,
    NotAPlayer,
    NotCreator,
    NotEnoughPlayers,
)

VARIANTS = ("standard", "first_game")


def _lock(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise GameNotFound() from None


def options_clean(options: dict[str, Any] | None) -> dict[str, Any]:
    clean = dict(DEFAULT_OPTIONS)
    for key, value in (options or {}).items():
        if key not in DEFAULT_OPTIONS:
            raise InvalidSetup(f"Unknown option {key!r}.", details={"field": f"options.{key}"})
        clean[key] = value
    th = clean["turn_hours"]
    if isinstance(th, bool) or not isinstance(th, int) or not 1 <= th <= 24 * 14:
        raise InvalidSetup(
            "turn_hours must be a whole number of hours from 1 to 336.",
            details={"field": "options.turn_hours"},
        )
    if clean["variant"] not in VARIANTS:
        raise InvalidSetup(
            f"variant must be one of {', '.join(VARIANTS)}.", details={"field": "options.variant"}
        )
    if not isinstance(clean["pause_weekends"], bool):
        raise InvalidSetup("pause_weekends must be true or false.", details={"field": "options"})
    tb = clean["timeouts_before_bot"]
    if isinstance(tb, bool) or not isinstance(tb, int) or not 0 <= tb <= 20:
        raise InvalidSetup(
            "timeouts_before_bot must be a whole number from 0 to 20.",
            details={"field": "options.timeouts_before_bot"},
        )
    return clean


def game_create(
    *,
    creator: Any,
    map: str,
    max_players: int,
    areas: list[str] | None = None,
    options: dict[str, Any] | None = None,
) -> Game:
    """Create an open game; the creator takes seat 0."""
    if map not in engine.maps_available():
        raise InvalidSetup(f"Unknown map {map!r}.", code="unknown_map", details={"field": "map"})
    if (
        not isinstance(max_players, int)
        or isinstance(max_players, bool)
        or not 2 <= max_players <= 6
    ):
        raise InvalidSetup("max_players must be from 2 to 6.", details={"field": "max_players"})
    if areas is not None:
        game_map = engine.map_load(map)
        known = {_area_slug(a) for a in game_map.areas}
        if (
            not isinstance(areas, list)
            or not areas
            or len(set(areas)) != len(areas)
            or not all(isinstance(a, str) and a in known for a in areas)
        ):
            raise InvalidSetup(
                f"areas must be distinct area slugs of {map}: {', '.join(sorted(known))}.",
                details={"field": "areas", "known": sorted(known)},
            )
    clean = options_clean(options)
    with transaction.atomic():
        game = Game.objects.create(
            creator=creator, map=map, areas=areas, max_players=max_players, options=clean
        )
        Seat.objects.create(game=game, seat=0, user=creator, colour=COLOURS[0])
    return game


def _area_slug(area: Any) -> str:
    if isinstance(area, str):
        return area
    if isinstance(area, dict):
        return str(area.get("slug"))
    return str(getattr(area, "slug", area))


def game_join(*, game_id: int, user: Any) -> Seat:
    with transaction.atomic():
        game = _lock(game_id)
        if game.status != Game.Status.OPEN:
            raise GameAlreadyStarted()
        seats = list(game.seats.all())
        if any(s.user_id == user.pk for s in seats):
            raise AlreadyJoined()
        if len(seats) >= game.max_players:
            raise GameFull()
        used = {s.colour for s in seats}
        colour = next(c for c in COLOURS if c not in used)
        return Seat.objects.create(game=game, seat=len(seats), user=user, colour=colour)


def game_leave(*, game_id: int, user: Any) -> Game | None:
    """Leave an open game. Seats are renumbered 0..n-1; the creator's role passes to the next seat.

    Returns the game, or None when the last player left and the game was deleted.
    """
    with transaction.atomic():
        game = _lock(game_id)
        seat = Seat.objects.filter(game=game, user=user).first()
        if seat is None:
            raise NotAPlayer()
        if game.status != Game.Status.OPEN:
            raise GameAlreadyStarted("You cannot leave a game that has started.")
        gone = seat.seat
        seat.delete()
        rest = list(game.seats.order_by("seat"))
        if not rest:
            game.delete()
            return None
        for s in rest:
            if s.seat > gone:
                s.seat -= 1
                s.save(update_fields=["seat"])
        if game.creator_id == user.pk:
            game.creator_id = rest[0].user_id
            game.save(update_fields=["creator"])
        return game


def game_start(*, game_id: int, user: Any) -> Game:
    """Start an open game (creator only, at least 2 players). The engine draws the seed-dependent
    set-up: initial player order, areas when none were chosen, the deck."""
    with transaction.atomic():
        game = _lock(game_id)
        if game.creator_id != user.pk:
            raise NotCreator()
        if game.status != Game.Status.OPEN:
            raise GameAlreadyStarted()
        n = game.seats.count()
        if n < 2:
            raise NotEnoughPlayers()
        seed = secrets.randbits(63)
        try:
            state = engine.new_game(
                map=game.map, players=n, seed=seed, areas=game.areas, variant=game.variant
            )
        except engine.IllegalAction as exc:
            raise InvalidSetup(
                str(getattr(exc, "message", exc)),
                code=str(getattr(exc, "code", "invalid_field")),
                details={"field": "areas", **dict(getattr(exc, "details", None) or {})},
            ) from exc
        except (ValueError, KeyError) as exc:
            raise InvalidSetup(
                f"The engine refused this set-up for {n} players: {exc}",
                details={"field": "areas"},
            ) from exc
        game.seed = seed
        game.areas_random = game.areas is None
        game.areas = engine.areas_of(state)
        game.status = Game.Status.RUNNING
        game.started_at = timezone.now()
        game.seq = 0
        game.state_json = engine.to_json(state)
        game.to_act = engine.to_act(state)
        game.engine_version = engine.engine_version()
        game.save()
        turns.on_state_changed(game=game, old_state=None, new_state=state, moves=[])
        return game
