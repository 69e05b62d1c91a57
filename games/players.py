"""What the site says about a player, from public facts: rating, reliability (turns made in time
versus timed out, over their last turns), games abandoned to the bot, median reply time, current
and finished games. The first thing a player checks before joining a game lasting weeks.

Facts only: the page (``games.web.players``) names maps and places in the reader's language.
"""

from __future__ import annotations

import logging
import statistics
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import cast

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.cache import cache
from django.core.paginator import Paginator
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Subquery
from django.db.models.expressions import Combinable

from games import engine, selectors, shapes
from games.models import Game, Move, Rating, Seat, Tenure
from games.selectors.moves import sealed_hidden
from games.selectors.visibility import game_visible_q
from powergrid.takeback import TAKEBACK

log = logging.getLogger(__name__)

#: Turns looked at for the reliability figure.
RECENT_TURNS = 50
#: A turn the player made themselves (a plan is their own order, made when the turn came).
HUMAN = (
    Move.Source.WEB,
    Move.Source.API,
    Move.Source.EMAIL,
    Move.Source.PLAN,
    Move.Source.SHEET,
)
#: The turns the figure counts: made by the player, or timed out. The server's bot playing a
#: seat is no turn of the player's (docs/BOTS.md: bots do not count toward a person's
#: reliability).
COUNTED = (*HUMAN, Move.Source.TIMEOUT)


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


@dataclass(frozen=True)
class Turn:
    """One of the player's turns: when it was made and since when it had been awaited (None
    when that cannot be told: a game without its start time, or a log the engine refuses)."""

    game_id: int
    seq: int
    source: str
    at: datetime
    awaited_since: datetime | None

    @property
    def reply_hours(self) -> float | None:
        if self.awaited_since is None:
            return None
        return max(0.0, (self.at - self.awaited_since).total_seconds() / 3600)


def reliability(user: AbstractBaseUser, *, replies: bool = True) -> Reliability:
    """The player's reliability: of their last ``RECENT_TURNS`` turns, how many they made and
    how many timed out; the games they left to the bot; the median time they took to reply.

    A reply is timed from the moment the seat became awaited (``recent_turns``), which is what
    the player's deadline counts from (``games.turns``), not from the move before it in the
    game: in phase 5 and in a sealed-bid auction everyone is asked at once, and the player who
    answers second was not asked when the first answered. ``replies=False`` skips the timing
    (the lobby and the join check need only the percentage).

    ``abandoned``: the seats the server's bot plays now because their player let the game's
    limit of turns in a row time out (``games.turns``); one whose player comes back and moves
    is theirs again and no longer counted. A seat the bot took over before its player ever
    moved counts like any other: the site's rules make no exception for it. The game stays
    rated and that player is ranked last in it (``games.rating_rule``, docs/RATINGS.md: a
    timeout the bot took over is leaving, unless it came within 24 h of an earlier one of
    theirs). The server's own
    bot accounts (``Profile.bot_kind``) play their seats from the start: nothing is left to the
    bot there, and their moves (source ``bot``) are no turns of a person's.

    Each holder of a seat keeps their own figure (issue 42's tenures, ``games.tenures``): a
    substitute inherits none of the turns before them, and a player whose seat someone took
    keeps their turns and, when they resigned or timed out, the game they left to the bot."""
    seats = list(
        Seat.objects.filter(user_id=user.pk)
        .exclude(game__practice=True)  # practice against the bots is nobody's record
        .order_by()
        .values_list("game_id", "bot_controlled", "user__profile__bot_kind")
    )
    server_bot = any(kind for *_rest, kind in seats)
    held = _tenures(user)
    games = sorted({g for g, *_rest in seats} | {g for g, _ended in held})
    turns = recent_turns(user, game_ids=games, timed=replies)
    timed_out = sum(1 for t in turns if t.source == Move.Source.TIMEOUT)
    hours = [t.reply_hours for t in turns if t.source in HUMAN]
    known = [h for h in hours if h is not None]
    abandoned = {g for g, ended in held if ended in LEFT_TO_THE_BOT}
    abandoned |= {g for g, bot, _kind in seats if bot}
    return Reliability(
        turns=len(turns),
        on_time=len(turns) - timed_out,
        timed_out=timed_out,
        abandoned=0 if server_bot else len(abandoned),
        median_reply_hours=statistics.median(known) if known else None,
    )


#: How a tenure ends that left the game to the bot (a seat sought and handed over did not).
LEFT_TO_THE_BOT = (Tenure.Ended.RESIGNED, Tenure.Ended.TIMED_OUT)


def _tenures(user: AbstractBaseUser) -> list[tuple[int, str]]:
    """(game id, how it ended) of each seat ``user`` holds or held that changed hands (practice
    games aside): a seat someone took from them is no longer theirs, its turns still are."""
    return list(
        Tenure.objects.filter(user_id=user.pk)
        .exclude(game__practice=True)
        .order_by()
        .values_list("game_id", "ended")
    )


def _turns_of(user: AbstractBaseUser) -> Combinable:
    """THE rule of whose a move is (``Move`` rows of a seat): the holder's whose tenure covers
    it (``from_seq`` exclusive, ``to_seq`` inclusive), or the seat's user when the seat never
    changed hands (no tenure rows: ``games.tenures``)."""
    seat_now = Seat.objects.filter(
        user_id=user.pk, game_id=OuterRef("game_id"), seat=OuterRef("seat")
    )
    changed = Tenure.objects.filter(game_id=OuterRef("game_id"), seat=OuterRef("seat"))
    mine = Tenure.objects.filter(
        game_id=OuterRef("game_id"),
        seat=OuterRef("seat"),
        user_id=user.pk,
        from_seq__lt=OuterRef("seq"),
    ).filter(Q(to_seq__isnull=True) | Q(to_seq__gte=OuterRef("seq")))
    return (Exists(seat_now) & ~Exists(changed)) | Exists(mine)


def recent_turns(
    user: AbstractBaseUser,
    *,
    game_ids: list[int] | None = None,
    limit: int = RECENT_TURNS,
    timed: bool = True,
) -> list[Turn]:
    """The player's last ``limit`` turns (moves of a seat while they held it, ``_turns_of``:
    made by them or timed out), oldest first, each with the moment its seat became awaited
    (``timed``).

    No column keeps that moment once the turn is over: ``Seat.deadline`` is counted from it but
    holds only the turn awaited now, and the turn notices of the outbox are written only for
    players who get every email, one while it is pending. The move log is the game (everything
    else is derived from it), so the moment is read from it as ``games.turns`` sets deadlines:
    the game is replayed through the engine, and a seat is awaited from the game's start when
    the engine awaits it then, else from the time of the move after which the engine awaits it
    and did not before (or awaits it again after its own move). Two queries (the games, their
    moves up to the last turn wanted) and one replay per game, only for the games of the
    turns in the window."""
    if game_ids is None:
        now = Seat.objects.filter(user_id=user.pk).exclude(game__practice=True).order_by()
        game_ids = sorted(
            {*now.values_list("game_id", flat=True), *(g for g, _ended in _tenures(user))}
        )
    if not game_ids:
        return []
    rows = list(
        Move.objects.filter(game_id__in=game_ids, source__in=COUNTED)
        .exclude(action__type=TAKEBACK)  # a take-back is no turn
        .filter(_turns_of(user))
        .order_by("-created_at", "-pk")
        .values_list("game_id", "seq", "source", "created_at")[:limit]
    )
    rows.reverse()
    # A sealed answer still hidden is not a turn yet for anyone to read: made by the deadline,
    # it is a pass, and a timeout counted now would tell it before the bids are opened.
    sealed_games = {g for g, _seq, _source, _at in rows}
    hidden = {
        (game.pk, seq)
        for game in Game.objects.filter(pk__in=sealed_games, status=Game.Status.RUNNING)
        for seq in sealed_hidden(game)
    }
    rows = [r for r in rows if (r[0], r[1]) not in hidden]
    since: dict[tuple[int, int], datetime | None] = {}
    if timed:
        wanted: dict[int, set[int]] = defaultdict(set)
        for game_id, seq, source, _at in rows:
            if source in HUMAN:
                wanted[game_id].add(seq)
        since = _awaited_since(wanted)
    return [
        Turn(game_id=g, seq=seq, source=source, at=at, awaited_since=since.get((g, seq)))
        for g, seq, source, at in rows
    ]


def _awaited_since(wanted: dict[int, set[int]]) -> dict[tuple[int, int], datetime | None]:
    """(game id, seq) -> when the seat that made that move became awaited, for the moves
    ``wanted`` (game id -> seqs): replays each game up to its last move wanted."""
    if not wanted:
        return {}
    games = {
        g.pk: g
        for g in Game.objects.filter(pk__in=list(wanted))
        .annotate(n_seats=Count("seats"))
        .only("map", "seed", "areas", "areas_random", "options", "started_at")
    }
    upto = Q()
    for game_id, seqs in wanted.items():
        upto |= Q(game_id=game_id, seq__lte=max(seqs))
    moves: dict[int, list[tuple[int, int, Mapping[str, object], datetime]]] = defaultdict(list)
    for game_id, seq, seat, action, at in (
        Move.objects.filter(upto)
        .order_by("game_id", "seq")
        .values_list("game_id", "seq", "seat", "action", "created_at")
    ):
        moves[game_id].append((seq, seat, action, at))
    out: dict[tuple[int, int], datetime | None] = {}
    for game_id, seqs in wanted.items():
        game = games.get(game_id)
        if game is None or game.seed is None:
            continue
        try:
            found = replay_awaited(
                game, moves[game_id], seqs, players=int(getattr(game, "n_seats", 0))
            )
        except Exception:  # a log the engine no longer replays: those replies stay untimed
            log.warning("reliability: could not replay game %s", game_id, exc_info=True)
            continue
        out.update(((game_id, seq), at) for seq, at in found.items())
    return out


def replay_awaited(
    game: Game,
    moves: list[tuple[int, int, Mapping[str, object], datetime]],
    wanted: set[int],
    *,
    players: int | None = None,
) -> dict[int, datetime | None]:
    """seq -> since when its seat was awaited, for the ``wanted`` moves of ``game``'s log
    (``moves``: (seq, seat, action, created_at) from the first, in order).

    The one measure of a reply's time (profiles, reliability, the finish forecast): from the
    moment the engine awaited the seat, not from the move before. In a simultaneous phase
    (bureaucracy, a sealed auction) the move before is another player's reply to the same
    question, so the second to answer would seem to have taken only the gap between them."""
    state = selectors.game_initial_state(game, players=players)
    # A take-back goes back to an earlier position; whoever it awaits is awaited from then.
    replay = engine.Replay(state)
    awaited = set(engine.to_act(state))
    since: dict[int, datetime | None] = dict.fromkeys(awaited, game.started_at)
    out: dict[int, datetime | None] = {}
    for seq, seat, action, at in moves:
        if seq in wanted:
            out[seq] = since.get(seat)
        state = replay.play(seq, seat, action)
        now = set(engine.to_act(state))
        since = {s: at if s not in awaited or s == seat else since.get(s) for s in now}
        awaited = now
    return out


#: Seconds the lobby keeps a player's reliability figure (it moves a turn at a time).
LOBBY_CACHE_SECONDS = 600


def on_time_percents(user_ids: list[int]) -> dict[int, int | None]:
    """User id -> percent of recent turns in time (None: no record), for the lobby's rows:
    read from the cache, the missing ones computed and kept ``LOBBY_CACHE_SECONDS``."""
    keys = {uid: f"reliability:{uid}" for uid in set(user_ids)}
    cached = cache.get_many(list(keys.values()))
    out: dict[int, int | None] = {}
    fresh: dict[str, dict[str, int | None]] = {}
    for uid, key in keys.items():
        if key in cached:
            out[uid] = cached[key]["percent"]
            continue
        percent = reliability(get_user_model()(pk=uid), replies=False).percent
        out[uid] = percent
        fresh[key] = {"percent": percent}
    if fresh:
        cache.set_many(fresh, LOBBY_CACHE_SECONDS)
    return out


def rating_of(user: AbstractBaseUser) -> Rating | None:
    return Rating.objects.filter(user_id=user.pk).first()


def ratings_for(user_ids: list[int]) -> dict[int, int]:
    """User id -> displayed rating, for the lobby's rows (one query)."""
    return {r.user_id: r.display for r in Rating.objects.filter(user_id__in=user_ids)}


# -- the player's games ------------------------------------------------------------------------

#: Games under way or open shown on the player's page (the newest).
CURRENT_GAMES = 30
#: Finished games per page of the player's page.
FINISHED_PER_PAGE = 20


@dataclass(frozen=True)
class GameRow:
    """One of the player's games as their page lists it."""

    game_id: int
    map: str  # slug
    status: str
    players: int  # seats taken
    max_players: int
    place: int | None  # finished games: the player's rank (1 = won; ties share it)
    finished_at: datetime | None


@dataclass(frozen=True)
class FinishedPage:
    """A page of the player's finished games, newest first."""

    rows: list[GameRow]
    number: int
    num_pages: int
    count: int

    @property
    def previous(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def next(self) -> int | None:
        return self.number + 1 if self.number < self.num_pages else None


def visible_games(user: AbstractBaseUser, viewer: selectors.Reader) -> QuerySet[Game]:
    """The games ``user`` holds a seat in, or held one in and left (a substitute took it; no
    place is shown: the seat's result is its last holder's), that ``viewer`` may see listed on
    their page (and in the API's profile, ``profile_json``).

    A private game (by invitation only: ``options.private``) is listed only to ``user``
    themselves and to those who may see it (``games.selectors.visibility.game_visible_q``: its
    players and the players it invited): anyone else learns neither its number nor that
    ``user`` plays in private games at all, so the page does not count the hidden ones either
    ("and 3 private games" would tell exactly that). The rest of the page is the same for
    everyone: the reliability and the rating are figures over all the player's games, which
    name none of them."""
    qs = Game.objects.filter(
        Exists(Seat.objects.filter(game=OuterRef("pk"), user_id=user.pk))
        | Exists(Tenure.objects.filter(game=OuterRef("pk"), user_id=user.pk))  # a seat they left
    )
    if getattr(viewer, "is_authenticated", False) and getattr(viewer, "pk", None) == user.pk:
        return qs
    # THE rule of who may see a game, as lists apply it (staff see what everyone sees).
    return qs.filter(game_visible_q(viewer, listing=True))


def _rows(qs: QuerySet[Game]) -> QuerySet[Game]:
    """The columns a row needs: the number of seats and the player's seat counted in SQL."""
    return qs.annotate(
        n_seats=Subquery(
            Seat.objects.filter(game=OuterRef("pk"))
            .order_by()
            .values("game")
            .annotate(n=Count("pk"))
            .values("n")[:1]
        )
    ).only("map", "status", "max_players", "finished_at", "state_json", "seed")


def games_current(
    user: AbstractBaseUser, viewer: selectors.Reader, *, limit: int = CURRENT_GAMES
) -> list[GameRow]:
    """The player's games under way or open (the newest ``limit``) that ``viewer`` may see."""
    qs = (
        _rows(visible_games(user, viewer))
        .exclude(status=Game.Status.FINISHED)
        .defer("state_json", "seed")
        .order_by("-created_at", "-pk")[:limit]
    )
    return [_row(g, None) for g in qs]


def games_finished(
    user: AbstractBaseUser, viewer: selectors.Reader, *, page: int | str | None = None
) -> FinishedPage:
    """Page ``page`` of the player's finished games that ``viewer`` may see, newest first,
    ``FINISHED_PER_PAGE`` a page, each with the player's place. A page number that is not a
    number gives the first page, one out of range the last (``Paginator.get_page``): a link
    kept from when there were more games still opens a page. Two queries (the count, the
    page), whatever the number of games."""
    seat_of_user = (
        Seat.objects.filter(game=OuterRef("pk"), user_id=user.pk).order_by().values("seat")
    )
    qs = (
        _rows(visible_games(user, viewer))
        .filter(status=Game.Status.FINISHED)
        .annotate(user_seat=Subquery(seat_of_user))
        .order_by(F("finished_at").desc(nulls_last=True), "-pk")
    )
    paginator = Paginator(qs, FINISHED_PER_PAGE)
    current = paginator.get_page(page)
    rows = [_row(g, _place(g, getattr(g, "user_seat", None))) for g in current.object_list]
    return FinishedPage(
        rows=rows, number=current.number, num_pages=paginator.num_pages, count=paginator.count
    )


def _row(game: Game, place: int | None) -> GameRow:
    return GameRow(
        game_id=game.pk,
        map=game.map,
        status=game.status,
        players=int(getattr(game, "n_seats", 0) or 0),
        max_players=game.max_players,
        place=place,
        finished_at=game.finished_at,
    )


def _place(game: Game, seat: int | None) -> int | None:
    """The rank of ``seat`` in a finished game (the engine's final result, as the ratings and
    the result page read it), from the state cached on the row: no replay, no query. Read
    without ``engine.state_load``: a page of finished games must not push the states of games
    under way out of its cache."""
    if seat is None or not game.state_json:
        return None
    try:
        result = engine.from_json(game.state_json).result or ()
        return int(result[seat][3])
    except (ValueError, KeyError, IndexError, TypeError):
        return None


# -- the API's profile ------------------------------------------------------------------------


def _game_json(row: GameRow) -> shapes.PlayerGame:
    return {
        "id": row.game_id,
        "map": row.map,
        "status": cast(shapes.GameStatus, row.status),
        "players": row.players,
        "max_players": row.max_players,
        "place": row.place,
        "finished_at": row.finished_at,
    }


def profile_json(
    user: AbstractBaseUser, viewer: selectors.Reader, *, page: int = 1
) -> shapes.PlayerProfile:
    """What the player's page says, as the API gives it (``GET /api/v1/players/{username}/``):
    the same facts (``rating_of``, ``reliability``, the games ``viewer`` may see listed), the
    ``page``-th page of finished games."""
    profile = getattr(user, "profile", None)
    rating = rating_of(user)
    server_bot = bool(getattr(profile, "bot_kind", ""))
    rel = None if server_bot else reliability(user)  # a server bot has no turns of its own
    finished = games_finished(user, viewer, page=page)
    return {
        "username": user.get_username(),
        "display_name": selectors.player_name(user),
        "bot_account": bool(getattr(profile, "bot_account", False)),
        "server_bot": server_bot,
        "rating": None
        if rating is None
        else {
            "value": rating.display,
            "mu": rating.mu,
            "sigma": rating.sigma,
            "games": rating.games,
            "updated_at": rating.updated_at,
        },
        "reliability": None
        if rel is None
        else {
            "turns": rel.turns,
            "on_time": rel.on_time,
            "timed_out": rel.timed_out,
            "percent": rel.percent,
            "abandoned": rel.abandoned,
            "median_reply_hours": rel.median_reply_hours,
        },
        "current_games": [_game_json(r) for r in games_current(user, viewer)],
        "finished_games": {
            "count": finished.count,
            "page": finished.number,
            "pages": finished.num_pages,
            "results": [_game_json(r) for r in finished.rows],
        },
    }
