"""Leaving a running game and substitutes (docs/API.md, "Leaving and substitutes"): one
function per transaction.

* ``seat_resign``: the caller leaves at once. The seat goes to the game's bot level (it is due at
  once if awaited), is offered to substitutes (``Seat.offered = left``), and the caller may no
  longer move in it (``games.services.moves``); their tenure ends ``resigned``.
* ``seat_seek``: the caller offers their seat while still playing (``seeking``), or withdraws it.
* ``seat_claim``: someone the game's rules admit (and no block keeps from the players who stay:
  ``accounts.blocks``) takes an offered seat: the previous holder's tenure ends (``resigned``,
  ``timed_out`` or ``replaced``), the claimer's begins; the seat's secret plans are deleted
  (they were the previous holder's); the claimer gets a turn email at once when the seat is
  awaited; the others are told who joined.

The seat's moves keep the ``user`` who made them, so nothing is re-attributed. Every refusal is a
``ServiceError`` raised before anything is written: nothing changes.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts import blocks
from games import players, selectors, tenures, turns
from games.callers import Caller
from games.fastpath import rows
from games.models import (
    DEFAULT_OPTIONS,
    Game,
    Invitation,
    Notification,
    Plan,
    Removal,
    Seat,
    Tenure,
)
from games.notifications.outbox import OutboxWriter
from games.stream import log as stream_log

from .errors import (
    AlreadyJoined,
    BelowReliability,
    Blocked,
    GameNotFound,
    GameNotStarted,
    NotAPlayer,
    NotInvited,
    RemovedByCreator,
    ServiceError,
)
from .moves import _seats_locked


class SeatRefused(ServiceError):
    status = 409
    code = "seat_refused"
    default_message = "That cannot be done with this seat now."


def _game_over() -> SeatRefused:
    return SeatRefused("The game is over.", code="game_over")


def _lock_running(game_id: int) -> tuple[Game, list[Seat]]:
    game = rows.game_for_update(game_id)
    if game is None:
        raise GameNotFound()
    if game.status == Game.Status.OPEN:
        raise GameNotStarted()
    if game.status == Game.Status.FINISHED:
        raise _game_over()
    return game, _seats_locked(game)


def _own_seat(seats: list[Seat], user: Any) -> Seat:
    seat = next((s for s in seats if s.user_id == getattr(user, "pk", None)), None)
    if seat is None:
        raise NotAPlayer()
    if seat.offered == Seat.Offered.LEFT:
        raise SeatRefused("You have left this game.", code="seat_left")
    return seat


def _tell(game: Game, seats: list[Seat], *, about: Seat, event: str, **more: object) -> None:
    """A ``seat`` notice to every player but ``about``'s holder (names as they are now)."""
    out = OutboxWriter(game=game)
    for s in seats:
        if s.pk == about.pk:
            continue
        out.add(
            user=s.user,
            kind=Notification.Kind.SEAT,
            key=f"seat:{game.pk}:{game.seq}:{about.seat}:{event}:{about.user_id}:{s.user_id}",
            payload={"seat": about.seat, "event": event, "seq": game.seq, **more},
        )
    out.flush()


def seat_resign(*, game_id: int, user: Any) -> Seat:
    """Leave a running game now (see the module). Returns the seat, now the bot's."""
    with transaction.atomic():
        game, seats = _lock_running(game_id)
        seat = _own_seat(seats, user)
        now = timezone.now()
        tenures.close(tenures.current(game, seat), seq=game.seq, now=now, ended="resigned")
        Plan.objects.filter(game=game, seat=seat.seat).delete()
        seat.offered = Seat.Offered.LEFT
        seat.bot_controlled = True
        seat.timeouts_in_row = 0
        awaited = seat.seat in {int(x) for x in game.to_act or []}
        seat.deadline, seat.reminder_at = (now, None) if awaited else (None, None)
        seat.save(
            update_fields=[
                "offered",
                "bot_controlled",
                "timeouts_in_row",
                "deadline",
                "reminder_at",
            ]
        )
        _tell(game, seats, about=seat, event="left", player=selectors.seat_name(seat))
        if awaited:
            turns.queue_bot_on_commit(game.pk)
        stream_log.record(game, seats, moves=[])
        return seat


def resign_check(*, game_id: int, user: Caller) -> None:
    """Refuse as ``seat_resign`` would (the game not running, not a player, left already),
    changing nothing: the first step of leaving by email asks to confirm only a seat that can
    leave (``games.inbox.receive``)."""
    _game, seats = _lock_running(game_id)
    _own_seat(seats, user)


def seat_seek(*, game_id: int, user: Any, seeking: bool) -> Seat:
    """Offer the caller's seat to substitutes while they play on (or withdraw the offer)."""
    with transaction.atomic():
        game, seats = _lock_running(game_id)
        seat = _own_seat(seats, user)
        want = Seat.Offered.SEEKING if seeking else Seat.Offered.NO
        if seeking:
            _takes_substitutes(game)
        if seat.offered == Seat.Offered.TIMED_OUT and not seeking:
            raise SeatRefused(
                "The bot plays your seat after missed deadlines: make a move to take it back.",
                code="seat_timed_out",
            )
        if seat.offered != want:
            seat.offered = want
            seat.save(update_fields=["offered"])
            if seeking:
                _tell(game, seats, about=seat, event="seeking", player=selectors.seat_name(seat))
            stream_log.record(game, seats, moves=[])
        return seat


def _takes_substitutes(game: Game) -> None:
    """A game made with ``substitutes`` false (a tournament's table) offers no seat to anyone:
    the bot plays a seat its player left to the end, and the table's result stays its own."""
    if not {**DEFAULT_OPTIONS, **(game.options or {})}["substitutes"]:
        raise SeatRefused(
            "This game takes no substitutes: the bot plays a seat its player leaves.",
            code="no_substitutes",
        )


def _admit(game: Game, user: Any) -> None:
    """The game's rules for a newcomer: a private game takes its invitees only, a game asking
    for reliable players takes those with ``min_on_time`` percent of turns in time (or no
    record), a player its creator removed stays out (as ``lobby._may_join``, without a link:
    the private link is for the game's start)."""
    if Removal.objects.filter(game=game, user=user).exists():
        raise RemovedByCreator()
    if Invitation.objects.filter(game=game, user=user).exists():
        return
    if selectors.is_private(game):
        raise NotInvited("This game is by invitation: only its invitees may take a seat.")
    floor = int((game.options or {}).get("min_on_time") or 0)
    if floor:
        percent = players.reliability(user, replies=False).percent
        if percent is not None and percent < floor:
            raise BelowReliability(details={"min_on_time": floor, "yours": percent})


def seat_claim(*, game_id: int, user: Any, seat_no: int) -> Seat:
    """Take offered seat ``seat_no`` of a running game (see the module)."""
    with transaction.atomic():
        game, seats = _lock_running(game_id)
        if getattr(getattr(user, "profile", None), "is_bot", False):
            raise SeatRefused(
                "A bot account cannot take a seat as a substitute.", code="substitute_is_bot"
            )
        _takes_substitutes(game)
        seat = next((s for s in seats if s.seat == seat_no), None)
        if seat is None or not seat.offered:
            raise SeatRefused("That seat is not offered to substitutes.", code="seat_not_offered")
        if tenures.held_by(game, user.pk):
            raise AlreadyJoined("You hold or held a seat in this game.", code="already_seated")
        _admit(game, user)
        # A block with a player who stays (either made it) keeps the claimer out, as joining;
        # the seat's holder leaves it, so a block with them stands in nobody's way.
        if blocks.blocked_among(user, [s.user_id for s in seats if s.pk != seat.pk]):
            raise Blocked()
        now = timezone.now()
        ended = {
            Seat.Offered.LEFT: Tenure.Ended.RESIGNED,
            Seat.Offered.TIMED_OUT: Tenure.Ended.TIMED_OUT,
        }.get(Seat.Offered(seat.offered), Tenure.Ended.REPLACED)
        before = selectors.seat_name(seat)
        if seat.offered != Seat.Offered.LEFT:  # a resignation closed its tenure already
            tenures.close(tenures.current(game, seat), seq=game.seq, now=now, ended=ended)
        Tenure.objects.create(
            game=game, seat=seat.seat, user_id=user.pk, from_seq=game.seq, started_at=now
        )
        Plan.objects.filter(game=game, seat=seat.seat).delete()
        seat.user = user
        seat.offered = Seat.Offered.NO
        seat.bot_controlled = False
        seat.timeouts_in_row = 0
        seat.page_seen_at = None
        out = OutboxWriter(game=game)
        if seat.seat in {int(x) for x in game.to_act or []}:
            seat.deadline, seat.reminder_at = turns.seat_clock(game, seat, now=now)
            out.turn(seat, seq=game.seq)
        seat.save()
        out.flush()
        _tell(
            game,
            seats,
            about=seat,
            event="joined",
            player=selectors.seat_name(seat),
            before=before,
        )
        stream_log.record(game, seats, moves=[])
        return seat
