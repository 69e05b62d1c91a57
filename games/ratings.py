"""Ratings: a multiplayer rating per player (openskill's Plackett-Luce model), changed once when
a game ends, from its final ranking (the rules' ranks, ties shared).

``game_rate`` runs inside the transaction of the move that ends the game (the turn hook calls
it), so a game is rated exactly once: a retried finishing move is refused as stale, and the
``RatedGame`` row (primary key: the game) would refuse a second rating anyway. Not rated for
people: games with a server bot's seat. **A game stays rated when someone leaves or times out**:
who is rated, and at which rank, is THE rule ``games.rating_rule.rating_plan`` (the leaver last,
the others by their places among themselves, substitutes over a share of the game, only the first
of simultaneous timeouts; docs/RATINGS.md), fed here from the seat's tenures
(``games.tenures``). ``ratings_recompute`` replays every finished game in the order they ended
and must give the same ratings.

**Only games played from the start count** (``counts_for_ratings``, THE rule, for people and
levels alike, wherever ratings are computed or shown): a game begun from a position
(``Game.start_state``: a practice game) is not a game of its players' strength, and rating it
would let anyone move a level's rating at will (five practice games from a won position, one
build each, moved the expert's rating by two points in two seconds). Such a game still gets its
``RatedGame`` row (``rated=False``, no changes), so it is settled once like any other.

Each bot level (``powergrid.levels``) is rated as a player of its own: one rating identity per
level (``level_identity``: an account that holds no seat), changed by every finished game the
level's bots played from the start, against the others' ratings as they stand. The
people's ratings do not change in such a game (bot games stay unrated for people); two bots of
one level in a game each count as a player, and the level takes the mean of their new ratings.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from openskill.models import PlackettLuce

from games import engine, rating_rule, tenures
from games.callers import Caller
from games.models import Game, RatedGame, Rating, Seat, Tenure
from powergrid.levels import LEVEL_NAMES, LEVELS

MODEL = PlackettLuce()


def counts_for_ratings(game: Game) -> bool:
    """THE rule of which games may change any rating (a person's or a level's): a game played
    from its start, set up from its seed; not one begun from a position (``Game.start_state``:
    practice games), whose result says nothing of its players' strength."""
    return not game.start_state and not game.practice


def rated_so_far(game: Game, seats: list[Seat]) -> bool:
    """Whether the game is one rated for its people: played from the start
    (``counts_for_ratings``) and no bot account in a seat (a rated game's take-backs depend on
    it, ``games.takebacks``). A seat the server's bot took over does not change it: the game
    stays rated (``games.rating_rule``)."""
    return counts_for_ratings(game) and not any(
        getattr(getattr(s.user, "profile", None), "is_bot", False) for s in seats
    )


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
    if not counts_for_ratings(game):  # begun from a position: nobody's rating moves
        return RatedGame.objects.create(game=game, rated=False, changes={})
    if not rated_so_far(game, seats):
        return RatedGame.objects.create(game=game, rated=False, changes=_rate_levels(game, seats))
    plan = plan_for(game, seats)
    if not plan.rated:
        return RatedGame.objects.create(game=game, rated=False, changes={})
    users = list(plan.ranks)
    stored = {r.user_id: r for r in Rating.objects.select_for_update().filter(user_id__in=users)}
    before = [
        MODEL.rating(mu=stored[u].mu, sigma=stored[u].sigma) if u in stored else MODEL.rating()
        for u in users
    ]
    after = MODEL.rate([[r] for r in before], ranks=[plan.ranks[u] for u in users])
    changes: dict[str, Any] = {}
    for u, old, (new,) in zip(users, before, after, strict=True):
        row = stored.get(u) or Rating(user_id=u, mu=new.mu, sigma=new.sigma)
        row.mu, row.sigma, row.games = new.mu, new.sigma, row.games + 1
        row.save()
        changes[str(u)] = [old.mu, old.sigma, new.mu, new.sigma]
    return RatedGame.objects.create(game=game, rated=True, changes=changes)


def timeouts_excused(user_id: int) -> set[int]:
    """The games in which ``user_id``'s lasting timeout (the bot took their seat over and they
    never came back) is excused: not the first within ``TIMEOUT_WINDOW``. Walked in time order,
    each counted timeout opens a window; the timeouts inside it are excused, the first after it
    counts and opens the next (so a player who drops out every 20 hours still loses each day)."""
    excused: set[int] = set()
    window_end: datetime | None = None
    rows = (
        Tenure.objects.filter(user_id=user_id, timed_out_at__isnull=False)
        .order_by("timed_out_at", "game_id")
        .values_list("game_id", "timed_out_at")
    )
    for game_id, at in rows:
        if at is None:
            continue
        if window_end is not None and at < window_end:
            excused.add(game_id)
        else:
            window_end = at + rating_rule.TIMEOUT_WINDOW
    return excused


def plan_for(game: Game, seats: list[Seat]) -> rating_rule.RatingPlan:
    """The rule's answer for a finished people's game, from its tenures and seats."""
    by_seat = {s.seat: s for s in seats}
    holders = []
    for t in tenures.of_game(game, seats):
        seat = by_seat.get(t.seat)
        at_end = t.to_seq is None and seat is not None and seat.user_id == t.user_id
        bot_at_end = bool(at_end and seat is not None and seat.bot_controlled)
        holders.append(
            rating_rule.Holder(
                seat=t.seat,
                user_id=t.user_id,
                from_seq=t.from_seq,
                to_seq=t.to_seq,
                ended=t.ended,
                bot_at_end=bot_at_end,
                excused=(bot_at_end or t.ended == "timed_out")
                and game.pk in timeouts_excused(t.user_id),
            )
        )
    return rating_rule.rating_plan(total_moves=game.seq, places=_ranks(game), holders=holders)


def _identities() -> Any:
    """Level identities: accounts named ``bot-level-...`` marked with a level (a person who
    signed up with such a name has no ``bot_kind`` and is never taken for one)."""
    return get_user_model().objects.filter(
        username__startswith="bot-level-", profile__bot_kind__in=list(LEVELS)
    )


def level_identity(level: str) -> Any:
    """The account that carries ``level``'s rating (made on first use; it holds no seat)."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    found = _identities().filter(profile__bot_kind=level).order_by("pk").first()
    if found is not None:
        return found
    users = get_user_model().objects
    name = f"bot-level-{level}"
    if users.filter(username=name).exists():  # a person took the name first
        name = f"{name}-{secrets.token_hex(4)}"
    user = users.create_user(username=name, email="", password=None)
    user.profile.bot_kind = level
    user.profile.display_name = f"Bot ({LEVELS[level].label})"
    user.profile.notification_mode = "none"
    user.profile.save()
    return user


def identity_level(user: Caller) -> str:
    """The level whose rating ``user`` carries ('' for any other account: a person, a seat's
    bot, a person who signed up with a ``bot-level-`` name)."""
    kind = getattr(getattr(user, "profile", None), "bot_kind", "")
    name = user.get_username() if user is not None else ""
    return kind if kind in LEVELS and name.startswith("bot-level-") else ""


def level_table() -> list[dict[str, Any]]:
    """Every level, weakest first, with its rating as the site shows it: ``level``,
    ``rating`` (the displayed figure, None before its first rated game), ``games`` (the games
    that rated it) and ``username`` (its page, None before it has one). Made nowhere: a
    level that has not played has no identity yet."""
    rated = level_ratings()
    names = dict(
        _identities().order_by("pk").values_list("profile__bot_kind", "username").reverse()
    )
    return [
        {
            "level": lv,
            "rating": rated[lv].display if lv in rated else None,
            "games": rated[lv].games if lv in rated else 0,
            "username": names.get(lv),
        }
        for lv in LEVEL_NAMES
    ]


def level_ratings() -> dict[str, Rating]:
    """Each rated level's rating (levels that have not played yet are left out)."""
    rows = Rating.objects.filter(user__in=_identities()).select_related("user__profile")
    return {r.user.profile.bot_kind: r for r in rows}


def _level_of(seat: Seat) -> str:
    """The level of a server bot's seat ('' for anyone else, a seat taken over included)."""
    kind = getattr(getattr(seat.user, "profile", None), "bot_kind", "")
    return kind if kind in LEVELS else ""


def _rate_levels(game: Game, seats: list[Seat]) -> dict[str, Any]:
    """Rate the levels whose bots played ``game`` (see the module); returns the changes
    (``{"levels": {level: [mu, sigma, mu', sigma']}}``, or {} when no level played)."""
    levels = {_level_of(s) for s in seats} - {""}
    if not levels:
        return {}
    ranks = _ranks(game)
    people = sorted(seats, key=lambda s: s.seat)
    ids = {lv: level_identity(lv).pk for lv in sorted(levels)}
    owner = [ids[_level_of(s)] if _level_of(s) else s.user_id for s in people]
    stored = {r.user_id: r for r in Rating.objects.select_for_update().filter(user_id__in=owner)}
    before = [
        MODEL.rating(mu=stored[u].mu, sigma=stored[u].sigma) if u in stored else MODEL.rating()
        for u in owner
    ]
    after = MODEL.rate(
        [[r] for r in before], ranks=[ranks.get(s.seat, len(people)) for s in people]
    )
    changes: dict[str, list[float]] = {}
    for lv, uid in ids.items():
        new = [a[0] for s, a in zip(people, after, strict=True) if _level_of(s) == lv]
        mu = sum(r.mu for r in new) / len(new)
        sigma = sum(r.sigma for r in new) / len(new)
        row = stored.get(uid) or Rating(user_id=uid, mu=mu, sigma=sigma)
        old = (row.mu, row.sigma) if uid in stored else (MODEL.rating().mu, MODEL.rating().sigma)
        row.mu, row.sigma, row.games = mu, sigma, row.games + 1
        row.save()
        changes[lv] = [old[0], old[1], mu, sigma]
    return {"levels": changes}


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
