"""Practice games: a position of another game played again, alone against the bots.

``practice_create`` makes an ordinary game (pages, API, the bots' worker, take-backs) that begins
from a position instead of from its seed (``Game.start_state``), with the player in one seat and
the server's bots in the others. It is unrated (bots), unlisted (``options.private``), out of the
player's record (``games.players``), sends no email unless the player asked (``Game.notify``),
and is deleted ``PRACTICE_DAYS`` after it was made (``practice_purge``, daily).

Two kinds of position:

* **a finished game's, after any move** (``seq``; the viewer picks the seat): the exact state,
  deck and seed included, since the end of a game makes all of it public (its record);
* **one's own running game, now**, for one's own seat: what the player does not know does not
  come with it (``powergrid.practice.practice_position``): the unseen cards are dealt again with
  the practice game's own seed, every other player's money is the account the public move log
  gives (``powergrid.describe.public_money``: every payment is public in Power Grid), and the
  others' sealed bids under way are withdrawn. ``tests/games/test_practice_leaks.py`` walks
  every channel of such a game for the original's hidden facts.

  **Not during a sealed auction** (``why: sealed_auction``) in which another bidder than the
  player and the opener takes part: the practice game's bots would bid again, in the player's
  sight, from the very position the real bots bid from, and a person's or bot's sealed bid is
  secret until the bids are opened. The bots' own bids follow the game's secret
  (``games.deadlines.sweep.bot_seed``), so the practice bots' bids would differ anyway; the
  refusal is defence in depth, and it keeps the others' answers (a bid or a pass) out of
  reach. Once the bids are opened the game can be practised from again.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games import engine, log, selectors, turns
from games.models import Game, Seat
from powergrid.levels import DEFAULT_LEVEL, LEVEL_NAMES, LEVELS
from powergrid.tables import COLOURS

from .errors import GameNotFound, InvalidSetup, PracticeRefused, PracticeThrottled
from .lobby import TAKEBACKS_MAX, bot_account_create, options_clean

#: Days a practice game is kept.
PRACTICE_DAYS = 30


def practice_bot_kind(level: str | None = None) -> str:
    """The server bot that plays a practice game's other seats for ``level``: the one place a
    level is chosen. ``level`` is a name of ``powergrid.levels.LEVELS`` (None: the default,
    the heuristic bot); another name is refused (400 ``invalid_field``, ``details.choices``)."""
    if level is None or level == "":
        return DEFAULT_LEVEL
    if level not in LEVELS:
        raise InvalidSetup(
            f"level must be one of {', '.join(LEVEL_NAMES)}.",
            code="invalid_field",
            details={"field": "level", "choices": list(LEVEL_NAMES)},
        )
    return str(level)


def practice_limit(user: Any, now: Any = None) -> None:
    """At most ``PRACTICE_GAMES_PER_HOUR`` practice games made by one player in an hour (each
    is a game the worker plays for its bots): raises ``PracticeThrottled`` (429 ``throttled``,
    ``details.retry_after``: the seconds until the oldest of the hour's games leaves it)."""
    limit = int(settings.PRACTICE_GAMES_PER_HOUR)
    now = now or timezone.now()
    since = now - timedelta(hours=1)
    made = list(
        Game.objects.filter(practice=True, creator_id=user.pk, created_at__gte=since)
        .order_by("-created_at")
        .values_list("created_at", flat=True)[:limit]
    )
    if len(made) >= limit:
        wait = int((made[-1] - since).total_seconds()) + 1
        raise PracticeThrottled(
            f"You may start {limit} practice games an hour: wait a while.",
            details={"retry_after": max(1, min(3600, wait))},
        )


def _refuse(why: str, message: str) -> PracticeRefused:
    return PracticeRefused(message, details={"why": why})


def _position(game: Game, user: Any, seq: int | None, seat: int | None) -> tuple[Any, int, int]:
    """(the practice's first state, the player's seat, the move it follows) for ``game``."""
    seats = selectors.game_seats(game)
    if game.status == Game.Status.OPEN:
        raise _refuse("open", "The game has not started: there is no position to practise.")
    mine = selectors.seat_of(game, user)
    if game.status == Game.Status.FINISHED:
        if seq is None or not 0 <= seq < game.seq:
            raise _refuse("seq", f"Name the move to practise from: seq from 0 to {game.seq - 1}.")
        chosen = seat if seat is not None else (mine.seat if mine is not None else 0)
        if not 0 <= chosen < len(seats):
            raise _refuse("seat", f"There is no seat {chosen} in this game.")
        state = selectors.game_engine_state_at(game, seq)
        if engine.is_finished(state):
            raise _refuse("game_end", "That move ended the game: practise from an earlier one.")
        return state, chosen, seq
    if mine is None:
        raise _refuse(
            "not_a_player", "Only its players may practise from a game under way, from now."
        )
    if seq is not None and seq != game.seq:
        raise _refuse("not_current", "A game under way is practised from its position now.")
    if seat is not None and seat != mine.seat:
        raise _refuse("not_your_seat", "A game under way is practised from your own seat.")
    now = selectors.game_engine_state(game)
    auc = now.auction
    # Another bidder in a sealed auction under way (the opener's bid is public).
    others = () if auc is None or auc.sealed is None else auc.bidders
    opener = -1 if auc is None else auc.opener
    if any(i not in (mine.seat, opener) for i in others):
        raise _refuse(
            "sealed_auction",
            "A sealed auction is under way: practise from this game once its bids are "
            "opened (a practice game now would have the others bid again in your sight).",
        )
    money = log.public_accounts(game)
    state = engine.practice_position(now, mine.seat, seed=secrets.randbits(63), money=money)
    return state, mine.seat, game.seq


def practice_create(
    *,
    user: Any,
    game_id: int,
    seq: int | None = None,
    seat: int | None = None,
    emails: bool = False,
    level: str | None = None,
) -> Game:
    """A practice game for ``user`` from ``game_id``'s position (see the module): after move
    ``seq`` of a finished game in ``seat`` (their own or the first by default), or now in their
    own seat of a game under way, against bots of ``level`` (``practice_bot_kind``). Raises
    GameNotFound, PracticeRefused (``details.why``) and InvalidSetup (an unknown level)."""
    kind = practice_bot_kind(level)
    practice_limit(user)
    source = selectors.game_get(game_id=game_id)
    if source is None:
        raise GameNotFound()
    state, chosen, at = _position(source, user, seq, seat)
    n = state.n
    options = options_clean(
        {
            "turn_hours": source.turn_hours,
            "variant": source.variant,
            "plant_deck": source.plant_deck,
            "private": True,
            "auto_start": False,
            "takebacks": TAKEBACKS_MAX,
            "bot_level": kind,
        }
    )
    now = timezone.now()
    with transaction.atomic():
        text = engine.to_json(state)
        game = Game.objects.create(
            creator=user,
            map=state.map,
            areas=list(state.areas),
            areas_random=False,
            max_players=n,
            options=options,
            status=Game.Status.RUNNING,
            seed=state.seed,
            engine_data_version=engine.data_version(),
            rules_edition=state.edition,
            seq=0,
            state_json=text,
            start_state=text,
            to_act=engine.to_act(state),
            engine_version=engine.engine_version(),
            started_at=now,
            practice=True,
            practice_from=source,
            practice_seq=at,
            notify=bool(emails),
        )
        for i in range(n):
            player = user if i == chosen else bot_account_create(kind)
            Seat.objects.create(
                game=game, seat=i, user=player, colour=COLOURS[i], bot_controlled=i != chosen
            )
        turns.on_state_changed(game=game, old_state=None, new_state=state, moves=[])
    return game


def practice_purge(*, now: Any = None) -> int:
    """Delete the practice games made more than ``PRACTICE_DAYS`` ago, with their bots'
    accounts; returns how many games went."""
    cutoff = (now or timezone.now()) - timedelta(days=PRACTICE_DAYS)
    ids = list(
        Game.objects.filter(practice=True, created_at__lt=cutoff).values_list("pk", flat=True)
    )
    if not ids:
        return 0
    with transaction.atomic():
        bots = list(
            Seat.objects.filter(game_id__in=ids)
            .exclude(user__profile__bot_kind="")
            .values_list("user_id", flat=True)
        )
        Game.objects.filter(pk__in=ids).delete()
        # A server bot's account plays one seat of one game: it goes with its game.
        get_user_model().objects.filter(pk__in=bots, seats__isnull=True).delete()
    return len(ids)
