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

# The bounds of a game's set-up, in one place: the API serializers, the schema and the web form
# read them from here, and ``options_clean`` / ``game_create`` enforce them for every caller.
PLAYERS_MIN, PLAYERS_MAX = 2, 6
TURN_HOURS_MIN, TURN_HOURS_MAX = 12, 7 * 24  # 12 hours to 7 days per move
TIMEOUTS_BEFORE_BOT_MAX = 20  # 0: the bot never takes a seat over


def _lock(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise GameNotFound() from None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _invalid(field: str, message: str, **details: Any) -> InvalidSetup:
    return InvalidSetup(message, code="invalid_field", details={"field": field, **details})


def options_clean(options: dict[str, Any] | None) -> dict[str, Any]:
    """The game options with defaults filled in; raises InvalidSetup (400 ``invalid_field``,
    ``details.field`` = ``options.<name>``, plus ``min``/``max`` or ``choices``) for any value out
    of bounds or of the wrong type, and for unknown options."""
    if options is not None and not isinstance(options, dict):
        raise _invalid("options", "options must be an object.")
    clean = dict(DEFAULT_OPTIONS)
    for key, value in (options or {}).items():
        if key not in DEFAULT_OPTIONS:
            raise _invalid(
                f"options.{key}",
                f"Unknown option {key!r}; known: {', '.join(sorted(DEFAULT_OPTIONS))}.",
                choices=sorted(DEFAULT_OPTIONS),
            )
        clean[key] = value
    th = clean["turn_hours"]
    if not _is_int(th) or not TURN_HOURS_MIN <= th <= TURN_HOURS_MAX:
        raise _invalid(
            "options.turn_hours",
            f"turn_hours must be a whole number of hours from {TURN_HOURS_MIN} to "
            f"{TURN_HOURS_MAX} (12 hours to 7 days).",
            min=TURN_HOURS_MIN,
            max=TURN_HOURS_MAX,
        )
    if clean["variant"] not in VARIANTS:
        raise _invalid(
            "options.variant",
            f"variant must be one of {', '.join(VARIANTS)}.",
            choices=list(VARIANTS),
        )
    if not isinstance(clean["pause_weekends"], bool):
        raise _invalid("options.pause_weekends", "pause_weekends must be true or false.")
    tb = clean["timeouts_before_bot"]
    if not _is_int(tb) or not 0 <= tb <= TIMEOUTS_BEFORE_BOT_MAX:
        raise _invalid(
            "options.timeouts_before_bot",
            f"timeouts_before_bot must be a whole number from 0 to {TIMEOUTS_BEFORE_BOT_MAX} "
            "(0: the bot never plays for a player).",
            min=0,
            max=TIMEOUTS_BEFORE_BOT_MAX,
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
    if not _is_int(max_players) or not PLAYERS_MIN <= max_players <= PLAYERS_MAX:
        raise _invalid(
            "max_players",
            f"max_players must be a whole number from {PLAYERS_MIN} to {PLAYERS_MAX}.",
            min=PLAYERS_MIN,
            max=PLAYERS_MAX,
        )
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
