"""A game as the API describes it (API.md's game object): its options, each one given, its
seats, its invitation link for its creator, and the commitment to its secret seed. Nothing
secret: the seed itself only once the game is over.
"""

from __future__ import annotations

from typing import cast

from django.conf import settings
from django.urls import reverse

from games import engine, shapes
from games.models import DEFAULT_OPTIONS, Game, Seat
from games.selectors.names import seat_bot_level, seat_name
from games.selectors.seats import Reader, game_deadline, game_seats
from powergrid.shapes import Colour


def game_options(game: Game) -> shapes.GameOptions:
    """The game's options, each one given: a game stored before an option existed has its
    default (``games.models.DEFAULT_OPTIONS``)."""
    o = {**DEFAULT_OPTIONS, **(game.options or {})}
    return {
        "turn_hours": int(o["turn_hours"]),
        "variant": o["variant"],
        "plant_deck": o["plant_deck"],
        "pause_weekends": bool(o["pause_weekends"]),
        "auto_start": bool(o["auto_start"]),
        "chat_public": bool(o["chat_public"]),
        "private": bool(o["private"]),
        "min_on_time": int(o["min_on_time"]),
        "timeouts_before_bot": int(o["timeouts_before_bot"]),
        "takebacks": int(o["takebacks"]),
        "takebacks_rated": bool(o["takebacks_rated"]),
        "bot_level": cast(shapes.BotLevel, o["bot_level"]),
        # Games made before round sheets have no key: move by move.
        "sheets": bool((game.options or {}).get("sheets", False)),
        "substitutes": bool(o["substitutes"]),
    }


def _seat_detail(game: Game, s: Seat) -> shapes.Seat:
    out: shapes.Seat = {
        "seat": s.seat,
        "username": s.user.get_username(),
        "display_name": seat_name(s),
        "colour": cast(Colour, s.colour),
        "bot_controlled": s.bot_controlled,
        "offered": cast(shapes.SeatOffered, s.offered),
    }
    level = seat_bot_level(game, s)
    if level is not None:
        out["bot_level"] = cast(shapes.BotLevel, level)
    return out


def game_detail_for(game: Game, user: Reader = None) -> shapes.Game:
    """The public description of a game (API.md's game object). Nothing secret."""
    seats = game_seats(game)
    out: shapes.Game = {
        "id": game.pk,
        "status": cast(shapes.GameStatus, game.status),
        "map": game.map,
        "areas": game.areas,
        "max_players": game.max_players,
        "options": game_options(game),
        "house_rules": engine.house_rules(game.variant),
        "rules_edition": game.rules_edition,
        "creator": game.creator.get_username() if game.creator_id else None,
        "seats": [_seat_detail(game, s) for s in seats],
        "seq": game.seq,
        "to_act": list(game.to_act or []),
        "deadline": game_deadline(game),
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "seed_commitment": game_seed_commitment(game),
        # The seed itself only once the game is over: then anyone can check the shuffle.
        "seed": game.seed if game.status == Game.Status.FINISHED else None,
    }
    if (
        game.status == Game.Status.OPEN
        and getattr(user, "pk", None) == game.creator_id
        and game.invite_code
    ):
        out["invite_url"] = settings.SITE_URL + invite_path(game)
    return out


def invite_path(game: Game) -> str:
    """The private invitation link of ``game`` (its creator's to hand out)."""
    return reverse("game_invite", args=[game.pk, game.invite_code])


def game_seed_commitment(game: Game) -> str | None:
    """SHA-256 of the game's id and secret seed, published from the start (None while open)."""
    if game.seed is None:
        return None
    return engine.seed_commitment(game.pk, game.seed)
