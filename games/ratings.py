"""Ratings: a multiplayer rating per player (openskill's Plackett-Luce model), changed once when
a game ends, from its final ranking (the rules' ranks, ties shared).

``game_rate`` runs inside the transaction of the move that ends the game (the turn hook calls
it), so a game is rated exactly once: a retried finishing move is refused as stale, and the
``RatedGame`` row (primary key: the game) would refuse a second rating anyway. Not rated: games
with a bot seat, and games where a bot took over a player's seat (timeouts). ``ratings_recompute``
replays every finished game in the order they ended and must give the same ratings.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from openskill.models import PlackettLuce

from games import engine
from games.models import Game, Move, RatedGame, Rating, Seat

MODEL = PlackettLuce()


def rated_so_far(game: Game, seats: list[Seat], *, bot_moved: bool | None = None) -> bool:
    """Whether the game would be rated if it ended now: no bot in a seat, and no seat the bot
    has played (a rated game's take-backs depend on it, ``games.takebacks``). ``bot_moved``:
    whether a move of source ``bot`` is in the log, when the caller knows (else it is read)."""
    if game.practice or any(
        getattr(getattr(s.user, "profile", None), "is_bot", False) for s in seats
    ):
        return False
    if bot_moved is not None:
        return not bot_moved
    return not Move.objects.filter(game=game, source=Move.Source.BOT).exists()


_eligible = rated_so_far


def _ranks(game: Game) -> dict[int, int]:
    """Seat -> rank (1 = winner) from the engine's final result."""
    state = engine.state_load(
        game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
    )
    result = state.result or ()
    return {seat: int(row[3]) for seat, row in enumerate(result)}


def game_rate(game: Game, seats: list[Seat]) -> RatedGame | None:
    """Rate a finished game once (None if it was rated before). Call in the transaction that
    finished it (or any transaction: the RatedGame row makes it once)."""
    if game.status != Game.Status.FINISHED:
        return None
    if RatedGame.objects.filter(game=game).exists():
        return None
    if not _eligible(game, seats):
        return RatedGame.objects.create(game=game, rated=False)
    ranks = _ranks(game)
    people = sorted(seats, key=lambda s: s.seat)
    stored = {r.user_id: r for r in Rating.objects.select_for_update().filter(
        user_id__in=[s.user_id for s in people]
    )}  # fmt: skip
    before = [
        MODEL.rating(mu=stored[s.user_id].mu, sigma=stored[s.user_id].sigma)
        if s.user_id in stored
        else MODEL.rating()
        for s in people
    ]
    after = MODEL.rate(
        [[r] for r in before], ranks=[ranks.get(s.seat, len(people)) for s in people]
    )
    changes: dict[str, Any] = {}
    for s, old, (new,) in zip(people, before, after, strict=True):
        row = stored.get(s.user_id) or Rating(user_id=s.user_id, mu=new.mu, sigma=new.sigma)
        row.mu, row.sigma, row.games = new.mu, new.sigma, row.games + 1
        row.save()
        changes[str(s.user_id)] = [old.mu, old.sigma, new.mu, new.sigma]
    return RatedGame.objects.create(game=game, rated=True, changes=changes)


def ratings_recompute() -> int:
    """Every rating again from the finished games, in the order they ended; returns the number
    of games rated. The same figures as the ratings made one game at a time."""
    with transaction.atomic():
        Rating.objects.all().delete()
        RatedGame.objects.all().delete()
        n = 0
        for game in Game.objects.filter(status=Game.Status.FINISHED).order_by("finished_at", "pk"):
            seats = list(Seat.objects.filter(game=game).select_related("user__profile"))
            made = game_rate(game, seats)
            n += bool(made and made.rated)
        return n
