"""Reads. ``game_state_for`` is THE door through which game state leaves the server: pages, the API
and emails build what they show from it (or from ``game_detail_for``), never from
``Game.state_json``.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import TypedDict, cast

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet
from django.urls import reverse
from django.utils.translation import gettext as _

import powergrid
from games import checkpoints, engine, shapes
from games.fastpath import rows
from games.models import DEFAULT_OPTIONS, Game, Invitation, Move, Seat, Tenure, Watcher
from games.services.errors import MoveRejected, NotAPlayer, ServiceError
from powergrid.actions import SEALED_SHOWN, sealed_move
from powergrid.levels import DEFAULT_LEVEL, LEVELS
from powergrid.shapes import Colour, PlantDeck, Resource, Variant, View
from powergrid.state import SEALED_BID, State
from powergrid.tables import RESOURCES, market_prices

#: Who reads a game: a signed-in user, a visitor without an account, or nobody (a task's read).
Reader = AbstractBaseUser | AnonymousUser | None


def game_seats(game: Game) -> list[Seat]:
    """Seats with user and profile, cached on the instance for the request."""
    cached = game.seats_read
    if cached is None:
        prefetched = getattr(game, "_prefetched_objects_cache", {}).get("seats")
        if prefetched is not None:  # a list's prefetch_related("seats__user__profile")
            cached = sorted(prefetched, key=lambda s: s.seat)
        else:
            qs = Seat.objects.filter(game=game).select_related("user__profile").order_by("seat")
            cached = list(qs)
        game.seats_read = cached
    return cached


def seat_bot_level(game: Game, seat: Seat) -> str | None:
    """The level of the server's bot that plays ``seat``: its own (a server bot's seat), the
    game's ``bot_level`` option for a person's seat taken over after timeouts, else None (the
    random bot, a person, a third party's program)."""
    profile = getattr(seat.user, "profile", None)
    kind = getattr(profile, "bot_kind", "") if profile else ""
    if kind:
        return kind if kind in LEVELS else None
    if seat.bot_controlled and not (profile is not None and profile.bot_account):
        level = (game.options or {}).get("bot_level", DEFAULT_LEVEL)
        return str(level) if level in LEVELS else DEFAULT_LEVEL
    return None


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


def bot_name(kind: str, seat: int | None = None) -> str:
    """THE name of a server bot (``Profile.bot_kind``) in the reader's language: its level's
    ("Expert bot 3", エキスパートボット 3: the seat's number, from 1, tells two bots apart), or the
    level itself as a player (a level's rating identity, no seat: "Expert bot"). Every page,
    the API's seats and profiles name a server bot through it, never by its stored display
    name (English, for the admin)."""
    label = _(LEVELS[kind].bot_label) if kind in LEVELS else _("Random bot")
    return label if seat is None else f"{label} {seat + 1}"


def seat_name(seat: Seat) -> str:
    """What the others see: the display name, else the username; a server bot by
    ``bot_name`` (its seat number tells two bots apart); a third party's bot account as
    "name (bot)"."""
    profile = getattr(seat.user, "profile", None)
    kind = getattr(profile, "bot_kind", "") if profile else ""
    if kind:
        return bot_name(kind, seat.seat)
    name = (profile.display_name if profile else "") or seat.user.get_username()
    if profile is not None and profile.bot_account:
        return _("%(name)s (bot)") % {"name": name}
    return name


def player_name(user: AbstractBaseUser) -> str:
    """A player's name outside a game (their page, the API's profile): a server bot by
    ``bot_name`` (a seat's bot with its seat's number: a server bot's account holds one seat;
    a level's rating identity, which holds none, by its level), else the display name, else
    the username."""
    profile = getattr(user, "profile", None)
    kind = getattr(profile, "bot_kind", "") if profile else ""
    if kind:
        seat = Seat.objects.filter(user_id=user.pk).values_list("seat", flat=True).first()
        return bot_name(kind, seat)
    return (profile.display_name if profile else "") or user.get_username()


def seat_of(game: Game, user: Reader) -> Seat | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return next((s for s in game_seats(game) if s.user_id == user.pk), None)


def game_deadline(game: Game) -> datetime | None:
    """The earliest deadline among the seats whose move is awaited from a person (or a bot of
    their own). A seat the server's bot plays (``bot_controlled``) is due at once and moves
    within seconds: its deadline is bookkeeping for the worker, not a time anyone waits for, so
    it is no deadline of the game's (a page said "deadline 0 minutes ago" while a bot moved)."""
    awaited = set(game.to_act or [])
    deadlines = [
        s.deadline
        for s in game_seats(game)
        if s.seat in awaited and s.deadline and not s.bot_controlled
    ]
    return min(deadlines) if deadlines else None


def not_private() -> Q:
    """Games anyone may find listed: not private, games from before the option (no key) too.

    Written as a filter, not as ``exclude(options__private=True)``: for a game whose options
    lack the key that comparison is SQL NULL, and the exclusion would drop the game as well."""
    return Q(options__private__isnull=True) | ~Q(options__private=True)


# -- who may see a game ---------------------------------------------------------------------
# THE rule, for every channel (pages, the API, the event stream, the calendar, chat, webhooks,
# emails): a game that is not private is anyone's to read; a private game exists only for its
# players, the players its creator invited, its watchers (``Watcher``: granted by what made it,
# a private tournament's director and entrants), and staff. To everyone else it answers as a
# game that does not exist (404), whatever they ask of it. Only the invitation link's code lets
# a stranger see a private game's lobby, while it is open (and join it). docs/API.md, "Private
# games", says what this guarantees; tests/games/test_private_games.py walks every game-scoped
# URL of the URL configuration against it.

#: The largest id a game can have (a signed 64-bit key): a larger one is no game of ours, and
#: some databases refuse to compare it.
_MAX_ID = 2**63 - 1


def is_private(game: Game) -> bool:
    return bool((game.options or {}).get("private"))


def game_visible_q(user: Reader, *, listing: bool = False) -> Q:
    """The games ``user`` may see, as a filter: every game not private; a private one if they
    hold a seat in it, held one and left it (a substitute took it: they watch it as its other
    watchers do, for what a seat hides is its holder's only), are invited, or are its watchers
    (``Watcher``: seeing it without a seat, as anyone sees a public game). ``listing``: for
    lists (the lobby, games in progress), where staff see what everyone sees (they open a
    private game by its number)."""
    public = not_private()
    if not getattr(user, "is_authenticated", False):
        return public
    if getattr(user, "is_staff", False) and not listing:
        return Q()
    uid = cast(int, getattr(user, "pk", None))  # signed in: a user's key
    theirs = Seat.objects.filter(user_id=uid).values("game_id")
    held = Tenure.objects.filter(user_id=uid).values("game_id")  # a seat they left
    invited = Invitation.objects.filter(user_id=uid).values("game_id")
    watched = Watcher.objects.filter(user_id=uid).values("game_id")
    return public | Q(pk__in=theirs) | Q(pk__in=held) | Q(pk__in=invited) | Q(pk__in=watched)


def games_visible_among(user: Reader, game_ids: Iterable[int]) -> set[int]:
    """Which of ``game_ids`` ``user`` may see (the rule above), in one query: a page naming many
    games (a tournament's tables) links only those."""
    ids = set(game_ids)
    if not ids:
        return ids
    return set(Game.objects.filter(game_visible_q(user), pk__in=ids).values_list("pk", flat=True))


def invite_code_matches(game: Game, code: object) -> bool:
    """Whether ``code`` is the game's invitation link's code (compared in constant time)."""
    return bool(
        isinstance(code, str)
        and code
        and game.invite_code
        and secrets.compare_digest(code.encode(), game.invite_code.encode())
    )


def game_visible(game: Game, user: Reader, *, code: object = "") -> bool:
    """Whether ``user`` may see ``game`` at all (see the rule above). ``code``: the invitation
    link's code, which shows an open private game's lobby to whoever holds it. Uses the seats
    already read for the request (``game_seats``) when there are; at most one query else."""
    if not is_private(game):
        return True
    if game.status == Game.Status.OPEN and invite_code_matches(game, code):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    if getattr(user, "is_staff", False):
        return True
    uid = cast(int, getattr(user, "pk", None))  # signed in: a user's key
    if game.seats_read is not None:
        if seat_of(game, user) is not None:
            return True
    elif Seat.objects.filter(game=game, user_id=uid).exists():
        return True
    return any(  # invited, held a seat and left it, or a watcher
        m.objects.filter(game=game, user_id=uid).exists() for m in (Invitation, Tenure, Watcher)
    )


def game_for(
    *, game_id: object, user: Reader, seats: bool = False, code: object = ""
) -> Game | None:
    """The game ``game_id`` if ``user`` may see it (``game_visible``), else None: what every
    game-scoped page, API view and stream asks first, so that a private game is answered as
    one that does not exist. ``seats``: read its seats (with users and profiles) too."""
    if not isinstance(game_id, int | str):  # a path's or a query's value: a number or text
        return None
    try:
        number = int(game_id)
    except ValueError:
        return None
    if not 0 < number <= _MAX_ID:
        return None
    game = game_get_with_seats(game_id=number) if seats else game_get(game_id=number)
    if game is None or not game_visible(game, user, code=code):
        return None
    return game


def game_list(
    *, user: Reader, status: str | None = None, mine: bool = False, seeking_substitute: bool = False
) -> QuerySet[Game]:
    """Games, newest first. A private game is listed only to its players and the players it
    invited, whatever its status (``game_visible_q``): lists of games in progress and players'
    profiles do not show it either. ``seeking_substitute``: only running games with a seat
    offered to substitutes (``Seat.offered``)."""
    qs = Game.objects.all().order_by("-created_at", "-id")
    qs = qs.filter(game_visible_q(user, listing=True))
    if status:
        qs = qs.filter(status=status)
    if seeking_substitute:
        offered = Seat.objects.filter(game=OuterRef("pk")).exclude(offered="")
        qs = qs.filter(Exists(offered), status=Game.Status.RUNNING)
        qs = qs.filter(Q(options__substitutes=True) | Q(options__substitutes__isnull=True))
    if mine:
        if not getattr(user, "is_authenticated", False):
            return qs.none()
        qs = qs.filter(seats__user_id=cast(int, getattr(user, "pk", None)))
    return qs.prefetch_related("seats__user__profile")


def open_games(
    *,
    map: str = "",
    players: int | None = None,
    max_turn_hours: int | None = None,
    free: bool = False,
) -> QuerySet[Game]:
    """Open games for the lobby, with its filters (map, number of players, longest turn, a free
    seat); private games are not listed."""
    qs = (
        Game.objects.filter(status=Game.Status.OPEN)
        .filter(not_private())
        .order_by("-created_at", "-id")
    )
    if map:
        qs = qs.filter(map=map)
    if players:
        qs = qs.filter(max_players=players)
    if max_turn_hours:
        qs = qs.filter(options__turn_hours__lte=max_turn_hours)
    if free:  # in the query, not after the page's slice (full games left open would hide others)
        qs = qs.alias(taken=Count("seats")).filter(taken__lt=F("max_players"))
    return qs.prefetch_related("seats__user__profile")


def invitations_for(user: Reader) -> list[Game]:
    """Open games ``user`` was invited to and has not joined (their home page lists them)."""
    if not getattr(user, "is_authenticated", False):
        return []
    uid = cast(int, getattr(user, "pk", None))  # signed in: a user's key
    return list(
        Game.objects.filter(status=Game.Status.OPEN, invitations__user_id=uid)
        .exclude(seats__user_id=uid)
        .order_by("-created_at")
        .prefetch_related("seats__user__profile")[:20]
    )


def game_get(*, game_id: int) -> Game | None:
    return Game.objects.filter(pk=game_id).first()


def game_get_with_seats(*, game_id: int) -> Game | None:
    """The game with its seats (user, profile) cached for ``game_seats``, read in ONE statement
    (one snapshot; SQL built once by ``games.fastpath.rows``: this runs on every state read).
    For reads only: a writer locks the game row first and then reads the seats (a row-locking
    join would hand back seat rows from before the lock was granted)."""
    game, seats = rows.seats_with_users(game_id, with_game=True)
    if not seats:  # no such game (a game keeps at least its creator's seat while it exists)
        game = game_get(game_id=game_id)
        if game is not None:
            game.seats_read = []
        return game
    assert game is not None  # read with its seats
    game.seats_read = seats
    return game


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


def game_record(game: Game) -> shapes.GameRecord:
    """A finished game's record for anyone to verify with the engine alone
    (``python -m powergrid verify``): the set-up with the revealed seed, every move, the results.
    Only for a finished game: before its end the seed is secret (callers check)."""
    if game.status != Game.Status.FINISHED or game.seed is None:
        raise ValueError("the record of a game comes at its end (its seed is secret until then)")
    if game.practice:
        raise ValueError("a practice game began from a position, not from its seed: no record")
    log = game_log(game)
    result = engine.view(game_engine_state(game), None)["result"]
    if result is None:
        raise ValueError("a finished game has its result")
    return {
        "game_id": game.pk,
        "map": game.map,
        "players": len(game_seats(game)),
        "areas": _initial_areas(game),
        "variant": cast(Variant, game.variant),
        "house_rules": engine.house_rules(game.variant),
        "plant_deck": cast(PlantDeck, game.plant_deck),
        "edition": game.rules_edition,
        "seed": game.seed,
        "commitment": engine.seed_commitment(game.pk, game.seed),
        "moves": [(seat, dict(action)) for _seq, seat, action in log],
        # The take-backs among the moves, for the reader: who, which moves, who agreed.
        "takebacks": [
            {
                "seq": seq,
                "seat": seat,
                "cancels": list(action.get("cancels", [])),
                "accepted_by": list(action.get("accepted_by", [])),
            }
            for seq, seat, action in log
            if engine.is_takeback(action)
        ],
        "result": result,
    }


def game_engine_state(game: Game) -> State:
    return engine.state_load(
        game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
    )


def game_state_for(game: Game, user: Reader = None, *, state: State | None = None) -> shapes.State:
    """The state as ``user`` may see it: ``powergrid.view`` for the user's seat (spectator view for
    non-players, whose ``legal`` is empty, as it is for a player who resigned), with the players'
    names and the server's keys (``games.shapes.State``).

    ``state`` may pass the engine state when the caller already holds it (after a move).
    """
    if game.status == Game.Status.OPEN or not game.state_json:
        raise ValueError("The game has not started")
    if state is None:
        state = game_engine_state(game)
    seat = seat_of(game, user)
    seat_no = seat.seat if seat is not None else None
    view = engine.view(state, seat_no)
    if seat is not None and seat.offered == Seat.Offered.LEFT:
        view["legal"] = []  # resigned: the bot plays their seat, and no move is theirs
    seats = {s.seat: s for s in game_seats(game)}
    players: list[shapes.Player] = [
        {**p, "name": seat_name(seats[p["seat"]]), "username": seats[p["seat"]].user.get_username()}
        for p in view["players"]
    ]
    out: shapes.State = {
        **view,
        "players": players,
        "game": game.pk,
        "seq": game.seq,
        "seat": seat_no,
        "deadline": game_deadline(game),
    }
    return out


def move_list(*, game: Game, since: int = 0) -> QuerySet[Move]:
    return Move.objects.filter(game=game, seq__gt=since).order_by("seq")


def move_list_public(*, game: Game, since: int = 0) -> list[shapes.Move]:
    """The move log after ``since`` as anyone may read it: every move as sent, except a sealed
    answer (``powergrid.actions.sealed_move``: a sealed bid, or a pass in a sealed auction)
    while its auction is under way, which shows as ``{"type": "seal_bid"}`` whether it bid or
    passed, with the source ``sealed`` whoever gave it (a pass made by the deadline would
    otherwise say ``timeout``: a timeout in a sealed auction is a pass); once the last answer
    is in they are shown like the rest."""
    moves = list(
        move_list(game=game, since=since).only("seq", "seat", "action", "created_at", "source")
    )
    sealed = _sealed_auctions(game)
    hidden = _secret_hidden(game) if any(_secret(m.action, sealed) for m in moves) else set()
    return [
        {
            "seq": m.seq,
            "seat": m.seat,
            "action": {"type": SEALED_SHOWN} if m.seq in hidden else m.action,
            "time": m.created_at,
            "source": SEALED_SOURCE if m.seq in hidden else cast(shapes.MoveSource, m.source),
        }
        for m in moves
    ]


#: The source a sealed answer shows until its auction's bids are opened (``move_list_public``).
SEALED_SOURCE: shapes.MoveSource = "sealed"


def _sealed_auctions(game: Game) -> bool:
    """Whether the game's auctions are sealed (the sealed-bid variant: every auction is)."""
    return game.variant == SEALED_BID


def _secret(action: object, sealed_auction: bool) -> bool:
    """Whether a move is a sealed answer (the engine's one rule, ``sealed_move``)."""
    return isinstance(action, dict) and sealed_move(action, sealed_auction)


def _secret_hidden(game: Game) -> set[int]:
    """The seqs of the sealed answers (sealed bids, and passes in a sealed auction) that stay
    hidden: those of the sealed auction under way, and every one taken back (its auction may
    never have been resolved: a take-back of the auction's opening withdraws the bids given,
    unopened)."""
    log = game_log(game)
    standing = engine.standing(log)
    kept = {seq for seq, _seat, _action in standing}
    start = _sealed_auction_start(game, standing)
    sealed = _sealed_auctions(game)
    return {
        seq
        for seq, _seat, action in log
        if _secret(action, sealed) and (seq not in kept or (start is not None and seq > start))
    }


def sealed_hidden(game: Game) -> set[int]:
    """The seqs of the sealed answers still hidden (``_secret_hidden``), for a sealed-bid game;
    empty for any other. Whatever counts moves for others to read (a player's reliability, the
    forecast's replies) leaves these out until the bids are opened: a sealed answer made by the
    deadline is a pass, so counting it as a timeout would tell it."""
    if not _sealed_auctions(game) or game.status != Game.Status.RUNNING:
        return set()
    return _secret_hidden(game)


def _sealed_auction_start(game: Game, standing: list[engine.LogEntry]) -> int | None:
    """The seq of the move that opened the sealed auction under way (the latest plant put up
    among the ``standing`` moves), or None if none is under way."""
    if game.status != Game.Status.RUNNING or not game.state_json:
        return None
    state = engine.state_load(
        game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
    )
    if state.auction is None or state.auction.sealed is None:
        return None
    opened = [seq for seq, _seat, a in standing if a.get("type") == "choose_plant"]
    return opened[-1] if opened else 0


def games_awaiting(user: Reader) -> QuerySet[Game]:
    """Running games where the user's move is awaited (for pages and digests)."""
    uid = cast(int, getattr(user, "pk", None))  # a user's key (callers pass users)
    seats = Seat.objects.filter(user_id=uid, game__status=Game.Status.RUNNING).select_related(
        "game"
    )
    ids = [s.game_id for s in seats if s.seat in (s.game.to_act or [])]
    return Game.objects.filter(Q(pk__in=ids))


# -- history and helpers for the web pages (added by the web-play work) ---------------------------
# Replays use the secret seed here, inside the door; only ``powergrid.view`` output (and a few
# public numbers for the viewer's own seat) leave these functions.

# (game id, seed) -> (last seq replayed, state): the seed tells apart two games that had the same
# id (a test database reusing ids, a game deleted and another created), as in engine.state_load.
_timeline_cache: OrderedDict[tuple[int, int | None], tuple[int, State]] = OrderedDict()
_TIMELINE_CACHE_SIZE = 64


def _moves_upto(game: Game, since: int, upto: int) -> list[Move]:
    return list(Move.objects.filter(game=game, seq__gt=since, seq__lte=upto).order_by("seq"))


def game_initial_state(game: Game, *, players: int | None = None) -> State:
    """The engine state a started game began from: its set-up and its secret seed, no move yet.

    The one way to rebuild a recorded game (replays, results, reply times, the replay check);
    ``players`` saves the seat count's query when the caller has it.
    """
    if game.seed is None:  # drawn when the game starts; a replay without it would be another game
        raise ValueError("The game has not started")
    if game.start_state:  # a practice game began from a position, not from its seed
        return engine.from_json(game.start_state)
    return engine.new_game(
        map=game.map,
        players=len(game_seats(game)) if players is None else players,
        seed=game.seed,
        areas=_initial_areas(game),
        variant=game.variant,
        plant_deck=game.plant_deck,
        edition=game.rules_edition,
    )


def _replay_from_scratch(game: Game, moves: list[Move]) -> State:
    """The state after ``moves`` (the log from its first entry), take-backs in it applied."""
    return engine.replay(game_initial_state(game), [(m.seq, m.seat, m.action) for m in moves])


def game_log(game: Game, *, upto: int | None = None) -> list[engine.LogEntry]:
    """The game's move log as the engine replays it: (seq, seat, action), take-backs among
    them, in order (up to move ``upto``)."""
    qs = Move.objects.filter(game=game)
    if upto is not None:
        qs = qs.filter(seq__lte=upto)
    return list(qs.order_by("seq").values_list("seq", "seat", "action"))


def game_replay(game: Game) -> State:
    """The state rebuilt from the game's set-up and its whole move log (``check_replays``)."""
    return engine.replay(game_initial_state(game), game_log(game))


def _initial_areas(game: Game) -> list[str] | None:
    """The ``areas`` argument the game was started with (None when drawn at random)."""
    return None if game.areas_random else list(game.areas or [])


def game_engine_state_at(game: Game, seq: int) -> State:
    """The engine state (secrets included: for the server's own checks, never shown) after
    ``seq`` moves of a started game: the cached one for its current position, else a replay."""
    return _state_at(game, seq)


def _state_at(game: Game, seq: int) -> State:
    """The engine state after ``seq`` moves (private: never returned to callers): the current
    one cached, a past one from the checkpoint before it (``games.checkpoints``: checked against
    the log, rebuilt from it when missing), the log read from there only."""
    if seq >= game.seq:
        return game_engine_state(game)

    def read(since: int) -> list[checkpoints.Entry]:
        moves = Move.objects.filter(game=game, seq__gte=since, seq__lte=seq).order_by("seq")
        return list(moves.values_list("seq", "seat", "action", "created_at"))

    return checkpoints.state_at((game.pk, game.seed), seq, read, lambda: game_initial_state(game))


def _state_at_from_scratch(game: Game, seq: int) -> State:
    """``_state_at`` the plain way: the log replayed from the start (the checkpoints' test and
    benchmark compare with it)."""
    if seq >= game.seq:
        return game_engine_state(game)
    return _replay_from_scratch(game, _moves_upto(game, 0, seq))


def game_history_state_for(game: Game, user: Reader, seq: int) -> shapes.State:
    """The state after move ``seq`` as ``user`` may see it (``powergrid.view`` of the replayed
    state for the user's seat): nothing hidden then is shown now, and ``legal`` is empty."""
    if game.status == Game.Status.OPEN or not game.state_json:
        raise ValueError("The game has not started")
    seq = max(0, min(int(seq), game.seq))
    data = game_state_for(game, user, state=_state_at(game, seq))
    data["legal"] = []
    data["deadline"] = None
    data["seq"] = seq
    return data


def game_public_timeline(
    game: Game, *, since: int = 0
) -> Iterator[tuple[Move, View, View, str | None]]:
    """For each entry of the log after ``since``: (move, spectator view before, spectator view
    after, what the move revealed: a code of ``engine.REVEALS`` or None). A take-back's "after"
    is the position it went back to.

    Spectator views hold only public facts, so whatever is derived from them (the move log's
    sentences) is safe to show anyone; so is what a move revealed (a card drawn, sealed bids
    opened, the end), which the views show. Keeps the last replayed state per game to go on
    from."""
    if game.status == Game.Status.OPEN or not game.state_json:
        return
    key = (game.pk, game.seed)
    hit = _timeline_cache.get(key)
    if hit is not None and hit[0] == since:
        state = hit[1]
    else:
        state = _state_at(game, since) if since else _replay_from_scratch(game, [])
    before = engine.view(state, None)
    last = since
    for m in _moves_upto(game, since, game.seq):
        if engine.is_takeback(m.action):
            # Back to the position before the moves it cancels: a replay of the log up to it
            # (take-backs are rare; the moves in between are not kept).
            state, revealed = _replay_from_scratch(game, _moves_upto(game, 0, m.seq)), None
        else:
            previous, state = state, engine.apply(state, m.seat, m.action)
            revealed = engine.revealed(previous, state)
        after = engine.view(state, None)
        last = m.seq
        yield m, before, after, revealed
        before = after
    _timeline_cache[key] = (last, state)
    _timeline_cache.move_to_end(key)
    while len(_timeline_cache) > _TIMELINE_CACHE_SIZE:
        _timeline_cache.popitem(last=False)


#: The most cities one build quote prices (a build of more is no real question).
QUOTE_MAX_CITIES = 30


def game_build_quote(game: Game, user: Reader, cities: list[str]) -> shapes.BuildQuote:
    """What adding ``cities`` now would cost the user's seat (the engine's cheapest order), and
    their money left: the one quote the page and the API give, whoever asks and however they
    authenticate. Raises ``NotAPlayer`` (no seat), ``ServiceError`` ``game_not_running`` (the game
    is not under way), ``ServiceError`` ``invalid_field`` (more than ``QUOTE_MAX_CITIES``: the
    limit is here so that the page and the API refuse alike) or ``MoveRejected`` with the
    engine's code (a city that cannot be added)."""
    if len(cities) > QUOTE_MAX_CITIES:
        raise ServiceError(
            f"At most {QUOTE_MAX_CITIES} cities.",
            code="invalid_field",
            details={"field": "cities", "max": QUOTE_MAX_CITIES},
        )
    seat = seat_of(game, user)
    if seat is None:
        raise NotAPlayer()
    if game.status != Game.Status.RUNNING:
        raise ServiceError(
            "Only a game under way takes a build.", code="game_not_running", status=409
        )
    state = game_engine_state(game)
    try:
        cost = powergrid.quote_build(state, seat.seat, list(cities))
    except engine.IllegalAction as exc:
        raise MoveRejected(exc.message, code=exc.code, details=dict(exc.details or {})) from None
    money = state.players[seat.seat].money
    return {"cities": list(cities), "cost": cost, "money_left": money - cost}


class HybridBurn(TypedDict):
    coal: int
    oil: int


class BestPower(TypedDict):
    """The engine's best choice of plants to fire now: their ids, the coal and oil each hybrid
    burns, the cities they power."""

    plants: list[int]
    hybrid: dict[int, HybridBurn]
    cities: int


def game_best_power_for(game: Game, user: Reader) -> BestPower | None:
    """The user's best choice of plants to fire now (the engine's), or None."""
    seat = seat_of(game, user)
    if seat is None or game.status != Game.Status.RUNNING:
        return None
    state = game_engine_state(game)
    plants, cities, hybrid = powergrid.best_power(state, seat.seat)
    return {
        "plants": list(plants),
        "hybrid": {int(k): {"coal": v[0], "oil": v[1]} for k, v in hybrid.items()},
        "cities": cities,
    }


def map_rules_for(slug: str) -> shapes.MapRules:
    """A map's own set-up rules as the API and the lobby describe them: the tokens each resource
    market starts with and the cheapest price, the plant on top of the deck, the plants out of
    the game, the areas that must be in play, and the rules in words (English)."""
    rules = engine.map_rules(slug)
    gmap = engine.map_load(slug)
    market: dict[Resource, int] = dict(zip(RESOURCES, rules.starting_market, strict=True))
    cheapest: dict[Resource, int | None] = {}
    for i, (r, n) in enumerate(market.items()):
        prices = market_prices(i, n)
        cheapest[r] = prices[0] if prices else None
    return {
        "starting_market": market,
        "cheapest_price": cheapest,
        "top_plant": rules.top_plant,
        "removed_plants": list(engine.removed_plants(slug)),
        "required_areas": sorted(gmap.required_areas),
        "notes": list(rules.notes),
    }


def map_summary(slug: str) -> shapes.MapSummary:
    """A map as ``GET /api/v1/maps/`` lists it: names, areas and its rules."""
    d = engine.map_load(slug).to_dict()
    return {
        "slug": d["slug"],
        "name_en": d["name_en"],
        "name_ja": d["name_ja"],
        "areas": d["areas"],
        "required_areas": d["required_areas"],
        "rules": map_rules_for(slug),
    }


def map_detail(slug: str) -> shapes.Map:
    """A whole map (cities, connections, drawing area) with its rules."""
    out: shapes.Map = {**engine.map_load(slug).to_dict(), "rules": map_rules_for(slug)}
    return out
