"""The lobby: create, join, leave, start."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any, TypedDict, TypeGuard

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from accounts import blocks
from accounts.models import Profile
from games import engine, players, selectors, turns
from games.models import DEFAULT_OPTIONS, Game, Invitation, Notification, Removal, Seat, Webhook
from games.notifications.outbox import OutboxWriter
from games.selectors.visibility import invite_code_matches
from powergrid.levels import LEVEL_NAMES, LEVELS
from powergrid.state import PLANT_DECKS, VARIANTS
from powergrid.tables import COLOURS

from .errors import (
    AlreadyJoined,
    BelowReliability,
    Blocked,
    GameAlreadyStarted,
    GameFull,
    GameNotFound,
    InvalidSetup,
    InvitationRefused,
    InvitationsThrottled,
    NotAPlayer,
    NotCreator,
    NotEnoughPlayers,
    NotInvited,
    RemovedByCreator,
)

# The bounds of a game's set-up, in one place: the API serializers, the schema and the web form
# read them from here, and ``options_clean`` / ``game_create`` enforce them for every caller.
PLAYERS_MIN, PLAYERS_MAX = 2, 6
TURN_HOURS_MIN, TURN_HOURS_MAX = 12, 7 * 24  # 12 hours to 7 days per move
TIMEOUTS_BEFORE_BOT_MAX = 20  # 0: the bot never takes a seat over
TAKEBACKS_MAX = 10  # take-backs a player may make alone per game (0: none; asking is not counted)


def _lock(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update(no_key=True).get(pk=game_id)  # rows.game_for_update
    except Game.DoesNotExist:
        raise GameNotFound() from None


def _lock_open_as_creator(game_id: int, user: Any) -> Game:
    """The game locked, for a change only its creator may make while it is open."""
    game = _lock(game_id)
    if game.creator_id != user.pk:
        raise NotCreator()
    if game.status != Game.Status.OPEN:
        raise GameAlreadyStarted()
    return game


class GameOptions(TypedDict):
    """A game's options once cleaned (``options_clean``): every one present, each of its type
    and within its bounds, as ``Game.options`` holds them (their defaults:
    ``games.models.DEFAULT_OPTIONS``; the API's ``GameOptions`` schema and the web form's fields
    write the same names)."""

    turn_hours: int
    variant: str
    plant_deck: str
    pause_weekends: bool
    timeouts_before_bot: int
    auto_start: bool
    chat_public: bool
    private: bool
    min_on_time: int
    takebacks: int
    takebacks_rated: bool
    bot_level: str
    sheets: bool
    substitutes: bool


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _invalid(field: str, message: str, **details: object) -> InvalidSetup:
    return InvalidSetup(message, code="invalid_field", details={"field": field, **details})


def _whole(clean: dict[str, object], name: str, low: int, high: int, message: str) -> int:
    """The option ``name``, a whole number from ``low`` to ``high``; else ``message``'s 400."""
    value = clean[name]
    if not _is_int(value) or not low <= value <= high:
        raise _invalid(f"options.{name}", message, min=low, max=high)
    return value


def _choice(clean: dict[str, object], name: str, choices: Sequence[str]) -> str:
    """The option ``name``, one of ``choices``; else a 400 naming them."""
    value = clean[name]
    if not isinstance(value, str) or value not in choices:
        raise _invalid(
            f"options.{name}",
            f"{name} must be one of {', '.join(choices)}.",
            choices=list(choices),
        )
    return value


def _flag(clean: dict[str, object], name: str) -> bool:
    """The option ``name``, true or false; else a 400."""
    value = clean[name]
    if not isinstance(value, bool):
        raise _invalid(f"options.{name}", f"{name} must be true or false.")
    return value


def options_clean(options: Mapping[str, object] | None) -> GameOptions:
    """The game options with defaults filled in; raises InvalidSetup (400 ``invalid_field``,
    ``details.field`` = ``options.<name>``, plus ``min``/``max`` or ``choices``) for any value out
    of bounds or of the wrong type, and for unknown options. The options are checked in this
    order, the first wrong one refused."""
    if options is not None and not isinstance(options, dict):
        raise _invalid("options", "options must be an object.")
    clean: dict[str, object] = dict(DEFAULT_OPTIONS)
    for key, value in (options or {}).items():
        if key not in DEFAULT_OPTIONS:
            raise _invalid(
                f"options.{key}",
                f"Unknown option {key!r}; known: {', '.join(sorted(DEFAULT_OPTIONS))}.",
                choices=sorted(DEFAULT_OPTIONS),
            )
        clean[key] = value
    turn_hours = _whole(
        clean,
        "turn_hours",
        TURN_HOURS_MIN,
        TURN_HOURS_MAX,
        f"turn_hours must be a whole number of hours from {TURN_HOURS_MIN} to "
        f"{TURN_HOURS_MAX} (12 hours to 7 days).",
    )
    variant = _choice(clean, "variant", VARIANTS)
    plant_deck = _choice(clean, "plant_deck", PLANT_DECKS)
    private = _flag(clean, "private")
    min_on_time = _whole(
        clean,
        "min_on_time",
        0,
        100,
        "min_on_time must be a whole percentage from 0 to 100 (0: anyone may join).",
    )
    chat_public = _flag(clean, "chat_public")
    auto_start = _flag(clean, "auto_start")
    pause_weekends = _flag(clean, "pause_weekends")
    bot_level = _choice(clean, "bot_level", LEVEL_NAMES)
    timeouts_before_bot = _whole(
        clean,
        "timeouts_before_bot",
        0,
        TIMEOUTS_BEFORE_BOT_MAX,
        f"timeouts_before_bot must be a whole number from 0 to {TIMEOUTS_BEFORE_BOT_MAX} "
        "(0: the bot never plays for a player).",
    )
    takebacks = _whole(
        clean,
        "takebacks",
        0,
        TAKEBACKS_MAX,
        f"takebacks must be a whole number from 0 to {TAKEBACKS_MAX} (take-backs each player "
        "may make alone; asking the others is not counted).",
    )
    return {
        "turn_hours": turn_hours,
        "variant": variant,
        "plant_deck": plant_deck,
        "pause_weekends": pause_weekends,
        "timeouts_before_bot": timeouts_before_bot,
        "auto_start": auto_start,
        "chat_public": chat_public,
        "private": private,
        "min_on_time": min_on_time,
        "takebacks": takebacks,
        "takebacks_rated": _flag(clean, "takebacks_rated"),
        "bot_level": bot_level,
        "sheets": _flag(clean, "sheets"),
        "substitutes": _flag(clean, "substitutes"),
    }


def game_create(
    *,
    creator: Any,
    map: str,
    max_players: int,
    areas: list[str] | None = None,
    options: Mapping[str, object] | None = None,
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
        if not engine.cities_connected(map, areas):
            raise InvalidSetup(
                "The cities of these areas are not one network: some can be reached only "
                "through cities outside them, so the game could not end. Choose other areas.",
                code="areas_not_connected",
                details={"field": "areas", "areas": sorted(areas)},
            )
    clean = options_clean(options)
    with transaction.atomic():
        game = Game.objects.create(
            creator=creator,
            map=map,
            areas=areas,
            max_players=max_players,
            options=clean,
            rules_edition=engine.LATEST_EDITION,
            hooks_active=_has_webhooks(creator),
            invite_code=secrets.token_urlsafe(12),
        )
        Seat.objects.create(game=game, seat=0, user=creator, colour=COLOURS[0])
    return game


def _area_slug(area: object) -> str:
    if isinstance(area, str):
        return area
    if isinstance(area, dict):
        return str(area.get("slug"))
    return str(getattr(area, "slug", area))


def _filled(game: Game, n: int) -> None:
    """After a seat is taken: the last seat filled starts the game, unless its creator chose to
    start it; then the creator is told by email that the game is full (once)."""
    if n != game.max_players:
        return
    if (game.options or {}).get("auto_start", True):
        _start_locked(game, n)
        return
    writer = OutboxWriter(game=game)
    writer.add(
        user=game.creator,
        kind=Notification.Kind.GAME_FULL,
        key=f"full:{game.pk}",
        payload={"players": n},
    )
    writer.flush()


def _has_webhooks(user: Any) -> bool:
    """Whether the player has a webhook of their own (their games must look for webhooks)."""
    return Webhook.objects.filter(owner=user, game__isnull=True, active=True).exists()


def _may_join(game: Game, user: Any, code: str) -> None:
    """A private game takes its link's code or an invitation; a game asking for reliable players
    takes those with at least ``min_on_time`` percent of turns in time (or no record yet). The
    creator's invitation lets a player in past both. A player the creator removed stays out,
    link or not, until invited again (the invitation clears the removal)."""
    invited = Invitation.objects.filter(game=game, user=user).exists()
    if invited:
        return
    if Removal.objects.filter(game=game, user=user).exists():
        raise RemovedByCreator()
    if selectors.is_private(game) and not invite_code_matches(game, code):
        raise NotInvited()
    floor = int((game.options or {}).get("min_on_time") or 0)
    if floor:
        percent = players.reliability(user, replies=False).percent
        if percent is not None and percent < floor:
            raise BelowReliability(details={"min_on_time": floor, "yours": percent})


def game_join(*, game_id: int, user: Any, code: str = "", seated_apart: bool = False) -> Seat:
    """Take the next free seat of an open game (``code``: its private link's, when private).
    ``seated_apart``: the caller drew the table itself with blocks kept apart (a tournament's
    round, ``tournaments.seating``); a block made since the draw does not keep the table's game
    from being made, for its other players' sake (the next round's draw keeps the two apart)."""
    with transaction.atomic():
        game = _lock(game_id)
        if game.status != Game.Status.OPEN:
            raise GameAlreadyStarted()
        seats = list(game.seats.all())
        if any(s.user_id == user.pk for s in seats):
            raise AlreadyJoined()
        if len(seats) >= game.max_players:
            raise GameFull()
        if not seated_apart and blocks.blocked_among(user, [s.user_id for s in seats]):
            raise Blocked()  # a block with a player seated there (either made it)
        _may_join(game, user, code)
        used = {s.colour for s in seats}
        colour = next(c for c in COLOURS if c not in used)
        seat = Seat.objects.create(game=game, seat=len(seats), user=user, colour=colour)
        if not game.hooks_active and _has_webhooks(user):
            game.hooks_active = True
            game.save(update_fields=["hooks_active"])
        _filled(game, len(seats) + 1)
        return seat


def _played_together(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` have held seats in one game that started."""
    return Seat.objects.filter(
        user=a,
        game__status__in=(Game.Status.RUNNING, Game.Status.FINISHED),
        game__seats__user=b,
    ).exists()


def _invitation_allowed(inviter: Any, guest: Any) -> None:
    """What the guest accepts (their profile's ``invitations``) and how many invitations the
    inviter may send and the guest may receive in an hour (``INVITATIONS_SENT_PER_HOUR``,
    ``INVITATIONS_RECEIVED_PER_HOUR``): each invitation is an email to the guest, so nobody can
    make the server write to another player at will. Raises ``InvitationRefused`` (403) or
    ``InvitationsThrottled`` (429)."""
    choice = getattr(getattr(guest, "profile", None), "invitations", Profile.Invitations.ANYONE)
    if choice == Profile.Invitations.NOBODY or (
        choice == Profile.Invitations.PLAYED_WITH and not _played_together(guest, inviter)
    ):
        raise InvitationRefused()
    since = timezone.now() - timedelta(hours=1)
    recent = Invitation.objects.filter(created_at__gte=since)
    if recent.filter(invited_by=inviter).count() >= settings.INVITATIONS_SENT_PER_HOUR:
        raise InvitationsThrottled(
            f"You may send {settings.INVITATIONS_SENT_PER_HOUR} invitations an hour: wait a while.",
            details={"retry_after": 3600},
        )
    if recent.filter(user=guest).count() >= settings.INVITATIONS_RECEIVED_PER_HOUR:
        raise InvitationsThrottled(
            "That player has received many invitations lately: try again later.",
            details={"retry_after": 3600},
        )


def game_invite(*, game_id: int, user: Any, username: object) -> Invitation:
    """The creator invites a player by username (once; asking again changes nothing): they may
    join even a private game, see it among their invitations, and get an email. The guest's
    choice and the hourly limits are checked first (``_invitation_allowed``); an invitation
    readmits a player the creator had removed."""
    if not isinstance(username, str) or not username.strip():
        raise _invalid("username", "username: the invited player's username.")
    with transaction.atomic():
        game = _lock_open_as_creator(game_id, user)
        guest = get_user_model().objects.filter(username__iexact=username.strip()).first()
        if guest is None:
            raise _invalid("username", f"No player is called {username.strip()!r}.")
        if Seat.objects.filter(game=game, user=guest).exists():
            raise AlreadyJoined("That player already holds a seat in this game.")
        invitation = Invitation.objects.filter(game=game, user=guest).first()
        made = invitation is None
        if invitation is None:
            if blocks.blocked_between(user, guest):
                raise Blocked("A block stands between you and that player.")
            _invitation_allowed(user, guest)
            invitation = Invitation.objects.create(game=game, user=guest, invited_by=user)
            Removal.objects.filter(game=game, user=guest).delete()
        if made:
            writer = OutboxWriter(game=game)
            writer.add(
                user=guest,
                kind=Notification.Kind.INVITED,
                key=f"invite:{game.pk}:{guest.pk}",
                payload={"by": user.pk},
            )
            writer.flush()
        return invitation


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
        return _seat_remove(game, seat, leaving=user)


def _seat_remove(game: Game, seat: Seat, *, leaving: Any = None) -> Game | None:
    """Remove ``seat`` of an open, locked game; renumber the rest. The creator's role passes to
    the next person; a game left with bots only (or nobody) is deleted. The player's webhooks
    of this game stop with the seat (``games.webhooks.events`` posts a game's events only to
    webhooks of players seated in it)."""
    gone = seat.seat
    seat.delete()
    rest = list(game.seats.select_related("user__profile").order_by("seat"))
    people = [s for s in rest if not s.user.profile.bot_kind]
    if not people:
        game.delete()
        return None
    for s in rest:
        if s.seat > gone:
            s.seat -= 1
            s.save(update_fields=["seat"])
    if leaving is not None and game.creator_id == leaving.pk:
        game.creator_id = people[0].user_id
        game.save(update_fields=["creator"])
    return game


#: The server's bots a seat may be given: a level (``powergrid.levels``, weakest first) or the
#: random bot (for soak tests and practice of the rules).
BOT_KINDS = (*LEVEL_NAMES, "random")


def bot_account_create(kind: str) -> Any:
    """A server bot's account for one seat (``kind``: a level of ``powergrid.levels`` or
    ``random``): marked as a bot, no email, no notifications. Its name on the pages is its
    level's in the reader's language (``games.selectors.seat_name``)."""
    if kind not in BOT_KINDS:
        raise ValueError(f"unknown bot kind {kind!r}")
    bot = get_user_model().objects.create_user(
        username=f"bot-{kind}-{secrets.token_hex(5)}", email="", password=None
    )
    bot.profile.bot_kind = kind
    bot.profile.display_name = f"Bot ({LEVELS[kind].label})" if kind in LEVELS else "Bot (random)"
    bot.profile.notification_mode = "none"
    bot.profile.save()
    return bot


def game_bot_add(*, game_id: int, user: Any, kind: object = "heuristic") -> Seat:
    """The creator adds a bot seat to an open game (``kind``: a level of ``powergrid.levels``
    or ``random``). A bot is an account of its own, marked as a bot, with no email; the server's
    worker plays its moves (source ``bot``), never a request. The game starts when it is full,
    as on a join."""
    if kind not in BOT_KINDS:
        raise InvalidSetup(
            f"'kind' must be one of {', '.join(BOT_KINDS)}.",
            details={"field": "kind", "choices": list(BOT_KINDS)},
        )
    with transaction.atomic():
        game = _lock_open_as_creator(game_id, user)
        seats = list(game.seats.all())
        if len(seats) >= game.max_players:
            raise GameFull()
        bot = bot_account_create(kind)
        used = {s.colour for s in seats}
        colour = next(c for c in COLOURS if c not in used)
        seat = Seat.objects.create(
            game=game, seat=len(seats), user=bot, colour=colour, bot_controlled=True
        )
        _filled(game, len(seats) + 1)
        return seat


def game_seat_remove(*, game_id: int, user: Any, seat_no: int) -> Game | None:
    """The creator removes a seat (a bot's or a player's) before the start."""
    with transaction.atomic():
        game = _lock_open_as_creator(game_id, user)
        seat = Seat.objects.filter(game=game, seat=seat_no).first()
        if seat is None:
            raise InvalidSetup("No such seat.", details={"field": "seat"})
        if seat.user_id == user.pk:
            raise InvalidSetup("Leave the game instead.", details={"field": "seat"})
        removed = seat.user
        result = _seat_remove(game, seat)
        if result is not None and not removed.profile.bot_kind:
            # The removed player stays out: their invitation goes, the link they had no longer
            # opens the game (a new code for the others), and only a new invitation readmits them.
            Invitation.objects.filter(game=game, user=removed).delete()
            Removal.objects.get_or_create(game=game, user=removed)
            game.invite_code = secrets.token_urlsafe(12)
            game.save(update_fields=["invite_code"])
        return result


def game_start(*, game_id: int, user: Any) -> Game:
    """Start an open game (creator only, at least 2 players). The engine draws the seed-dependent
    set-up: initial player order, areas when none were chosen, the deck."""
    with transaction.atomic():
        game = _lock_open_as_creator(game_id, user)
        n = game.seats.count()
        if n < 2:
            raise NotEnoughPlayers()
        return _start_locked(game, n)


def _start_locked(game: Game, n: int) -> Game:
    """Start ``game`` (row locked by the caller's transaction) with its ``n`` seats: the engine
    draws the set-up, the turn hook sets the first deadlines and writes the game-started emails
    ("you move first" / "waiting for ...") to the outbox."""
    seed = secrets.randbits(63)
    try:
        state = engine.new_game(
            map=game.map,
            players=n,
            seed=seed,
            areas=game.areas,
            variant=game.variant,
            plant_deck=game.plant_deck,
            edition=engine.LATEST_EDITION,
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
    game.rules_edition = engine.LATEST_EDITION
    game.engine_data_version = engine.data_version()
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
