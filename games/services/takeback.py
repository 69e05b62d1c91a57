"""Taking moves back: alone at once, or by asking the others (the rules: ``games.takebacks``).

Each function owns its transaction and takes the game's row lock first, as a move does, so a
take-back and a move on the same game are serialised: a take-back checks ``expected_seq`` (the
position the player saw) and a request remembers the position it was asked in (a move meanwhile
makes it void). Everything is checked again here from a replay of the log, never from a cache:

1. the moves to cancel (``games.takebacks.tail_of``) and what each revealed, from the engine's
   states around them; the state to go back to is the one before the first of them;
2. the take-back entry is appended to the log (``Move`` with ``{"type": "takeback", ...}``, the
   seat of the player who took back, ``user`` them), the game's snapshot becomes that state;
3. the plans the cancelled moves used up are put back (``SpentPlan``), and the plans run as after
   any move (a plan that acted on a cancelled move is evaluated again when its turn comes);
4. ``games.turns.on_takeback``: deadlines, the outbox, webhooks and the stream, on commit.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games import engine, selectors, takebacks, turns
from games.callers import Caller, User
from games.fastpath import rows
from games.models import Game, Move, Plan, Seat, SpentPlan, TakebackRequest
from games.notifications.outbox import OutboxWriter
from games.selectors.seats import game_deadline
from games.stream import log as stream_log
from games.takebacks import LogRow, Tail
from games.webhooks import events as hooks
from powergrid.state import State

from .errors import (
    GameNotFound,
    NotAPlayer,
    StaleState,
    TakebackNeedsAgreement,
    TakebackRefused,
    TakebackRequestNotFound,
)
from .moves import _plans_follow, _seats_locked

Status = TakebackRequest.Status


@dataclass
class TakebackResult:
    """A take-back made: the game (as updated), its entry in the log, the state now."""

    game: Game
    move: Move
    state: State
    seats: list[Seat]


@dataclass
class Answer:
    """An answer to a request: the request as it stands, and the take-back if it was the last
    acceptance."""

    request: TakebackRequest
    result: TakebackResult | None = None


def _locked(game_id: int, user: Caller) -> tuple[Game, list[Seat], Seat]:
    game = rows.game_for_update(game_id)
    if game is None:
        raise GameNotFound()
    seats = _seats_locked(game)
    seat = next((s for s in seats if s.user_id == getattr(user, "pk", None)), None)
    if seat is None:
        raise NotAPlayer()
    return game, seats, seat


def _log(game: Game) -> list[LogRow]:
    return [
        LogRow(seq, seat, source, action)
        for seq, seat, source, action in Move.objects.filter(game=game)
        .order_by("seq")
        .values_list("seq", "seat", "source", "action")
    ]


def _tail(game: Game, seat: int) -> tuple[Tail, State, list[LogRow]]:
    """What ``seat`` would take back now, from a replay: the tail, the state before its first
    move, and the log."""
    log = _log(game)
    standing = takebacks.standing_rows(log)
    start = takebacks.tail_start(standing, seat)
    state = selectors.game_initial_state(game)
    reveals: dict[int, str | None] = {}
    back = state
    for i, r in enumerate(standing):
        after = engine.apply(state, r.seat, dict(r.action))
        if i >= start:
            if i == start:
                back = state
            reveals[r.seq] = engine.revealed(state, after)
        state = after
    return takebacks.tail_of(standing, seat, reveals.get), back, log


def _check_allowed(game: Game, seats: list[Seat]) -> None:
    refused = takebacks.refusal(game, seats)
    if refused is not None:
        raise refused


def _apply(
    *,
    game: Game,
    seats: list[Seat],
    requester: Seat,
    tail: Tail,
    back: State,
    accepted_by: list[int],
    source: str,
    user: User,
) -> TakebackResult:
    """Write the take-back of ``tail`` (the game row locked by the caller)."""
    old_state = selectors.game_engine_state(game)
    game.seq += 1
    entry = Move(
        game=game,
        seq=game.seq,
        seat=requester.seat,
        action=engine.takeback_entry(tail.cancels, accepted_by),
        source=source,
        user=user,
    )
    rows.insert(entry)
    entry.to_act_after = sorted(engine.to_act(back))
    _plans_back(game, tail.cancels[0])
    new_state = back
    more: list[Move] = []
    notes: dict[int, str] = {}
    if game.plans_active:
        new_state, more, notes = _plans_follow(game, back)
        for m in more:
            rows.insert(m)
    game.state_json = engine.to_json(new_state)
    game.to_act = engine.to_act(new_state)
    rows.update(game, ["seq", "state_json", "to_act", "plans_active"])
    if engine.is_finished(new_state):  # plans alone cannot end it, but say so if they did
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        rows.update(game, ["status", "finished_at"])
    turns.on_takeback(
        game=game,
        old_state=old_state,
        new_state=new_state,
        moves=[entry, *more],
        seats=seats,
        requester=requester,
        cancels=tail.cancels,
        agreed=bool(accepted_by),
        notes=notes,
        back=back,
    )
    game_pk, seed, seq = game.pk, game.seed, game.seq
    transaction.on_commit(
        lambda: engine.state_remember(game_id=game_pk, seed=seed, seq=seq, state=new_state)
    )
    return TakebackResult(game=game, move=entry, state=new_state, seats=seats)


def _plans_back(game: Game, first: int) -> None:
    """Put back the plans used up or dropped answering the moves from ``first`` on; a plan its
    owner has given again since (same kind and plant) stays as they gave it."""
    spent = list(SpentPlan.objects.filter(game=game, seq__gte=first).order_by("-seq"))
    if not spent:
        return
    live = set(Plan.objects.filter(game=game).values_list("seat", "kind", "key"))
    back = []
    for sp in spent:
        if (sp.seat, sp.kind, sp.key) not in live:
            live.add((sp.seat, sp.kind, sp.key))
            back.append(
                Plan(
                    game=game, seat=sp.seat, kind=sp.kind, key=sp.key, data=sp.data, sheet=sp.sheet
                )
            )
    Plan.objects.bulk_create(back)
    SpentPlan.objects.filter(pk__in=[sp.pk for sp in spent]).delete()
    if back and not game.plans_active:
        game.plans_active = True


def takeback_now(*, game_id: int, user: Caller, expected_seq: int, source: str) -> TakebackResult:
    """Take back the player's own last move at once, alone (``games.takebacks``).

    Raises GameNotFound, NotAPlayer, StaleState, TakebackRefused (``game_over``,
    ``takebacks_off``, ``nothing_to_take_back``, ``takeback_too_far``,
    ``takeback_limit_reached``) and TakebackNeedsAgreement (``details.reason``)."""
    with transaction.atomic():
        game, seats, seat = _locked(game_id, user)
        _check_allowed(game, seats)
        if expected_seq != game.seq:
            raise StaleState(details={"expected_seq": expected_seq, "seq": game.seq})
        tail, back, log = _tail(game, seat.seat)
        if not tail.alone:
            raise TakebackNeedsAgreement(
                "This needs the other players' agreement ("
                + (
                    "another player has moved since"
                    if tail.others_moved
                    else engine.REVEALS.get(tail.reason or "", "")
                )
                + "): ask them (POST .../takeback/requests/).",
                details={"reason": tail.reason, "cancels": tail.cancels},
            )
        cap = takebacks.limit(game)
        if takebacks.used(log, seat.seat) >= cap:
            raise TakebackRefused(
                f"You have used the take-backs this game allows alone ({cap}): ask the other "
                "players instead.",
                code="takeback_limit_reached",
                details={"limit": cap},
            )
        return _apply(
            game=game,
            seats=seats,
            requester=seat,
            tail=tail,
            back=back,
            accepted_by=[],
            source=source,
            user=seat.user,  # the caller (their seat's user)
        )


def _settle_pending(game: Game) -> None:
    """Write down what became of the game's waiting request (void, expired), if anything."""
    for req in TakebackRequest.objects.filter(game=game, status=Status.PENDING):
        state = takebacks.request_state(req, game)
        if state != Status.PENDING:
            req.status = state
            req.decided_at = timezone.now()
            req.save(update_fields=["status", "decided_at"])


def _is_server_bot(seat: Seat) -> bool:
    return bool(getattr(getattr(seat.user, "profile", None), "bot_kind", ""))


def takeback_ask(*, game_id: int, user: Caller, expected_seq: int, source: str) -> Answer:
    """Ask the other players to agree to take back the player's moves (from their own last
    move). The server's bots agree at once; when only bots were asked, it is made at once.

    Raises GameNotFound, NotAPlayer, StaleState, TakebackRefused (as ``takeback_now``, and
    ``takeback_request_open`` while another request waits)."""
    with transaction.atomic():
        game, seats, seat = _locked(game_id, user)
        _check_allowed(game, seats)
        if expected_seq != game.seq:
            raise StaleState(details={"expected_seq": expected_seq, "seq": game.seq})
        _settle_pending(game)
        if TakebackRequest.objects.filter(game=game, status=Status.PENDING).exists():
            raise TakebackRefused(
                "A take-back request is waiting for answers in this game already.",
                code="takeback_request_open",
            )
        tail, back, _log_rows = _tail(game, seat.seat)
        deadline = game_deadline(game)
        now = timezone.now()
        if deadline is None or deadline <= now:
            deadline = now + timedelta(hours=turns.turn_hours_counted(game.turn_hours))
        others = [s for s in seats if s.seat != seat.seat]
        req = TakebackRequest.objects.create(
            game=game,
            seat=seat.seat,
            user=seat.user,  # the caller (their seat's user)
            cancels=tail.cancels,
            reason=tail.reason or "",
            at_seq=game.seq,
            accepted=sorted(s.seat for s in others if _is_server_bot(s)),
            deadline=deadline,
        )
        if len(req.accepted) == len(others):
            return _accepted(game, seats, seat, req, tail, back, source, seat.user)
        outbox = OutboxWriter(game=game)
        for s in others:
            if s.seat not in req.accepted:
                outbox.takeback_asked(s, request_id=req.pk, by=seat.seat, seq=game.seq)
        facts = {"request": req.pk, "seat": seat.seat, "cancels": tail.cancels}
        outbox.hook_events.append((hooks.TAKEBACK_ASKED, seat, {"takeback": facts}))
        outbox.flush()
        stream_log.record(game, seats, hooks.TAKEBACK_ASKED, {"takeback": facts})
        return Answer(req)


def _accepted(
    game: Game,
    seats: list[Seat],
    requester: Seat,
    req: TakebackRequest,
    tail: Tail,
    back: State,
    source: str,
    user: User,
) -> Answer:
    result = _apply(
        game=game,
        seats=seats,
        requester=requester,
        tail=tail,
        back=back,
        accepted_by=sorted(req.accepted),
        source=source,
        user=requester.user,
    )
    req.status = Status.ACCEPTED
    req.decided_at = timezone.now()
    req.move_seq = result.move.seq
    req.save(update_fields=["status", "decided_at", "move_seq", "accepted"])
    return Answer(req, result)


def _request_locked(game: Game, request_id: int) -> TakebackRequest:
    req = (
        TakebackRequest.objects.select_for_update()
        .filter(game=game, pk=request_id)
        .select_related("user")
        .first()
    )
    if req is None:
        raise TakebackRequestNotFound()
    return req


_CLOSED = {
    Status.ACCEPTED: ("takeback_request_closed", "Everyone agreed: the moves were taken back."),
    Status.DECLINED: ("takeback_request_closed", "A player declined this take-back."),
    Status.WITHDRAWN: ("takeback_request_closed", "The request was withdrawn."),
    Status.VOID: (
        "takeback_moved_on",
        "The game has moved on since the request: it can no longer be taken back this way.",
    ),
    Status.EXPIRED: ("takeback_expired", "The deadline passed before everyone agreed."),
}


def _closed(req: TakebackRequest, game: Game) -> TakebackRefused | None:
    """Why ``req`` can no longer be answered (None: it can). A request found void or expired
    is written so here; the caller raises the refusal after its transaction commits, so that
    what it wrote stays."""
    state = takebacks.request_state(req, game)
    if state != req.status:
        req.status = state
        req.decided_at = timezone.now()
        req.save(update_fields=["status", "decided_at"])
    if state == Status.PENDING:
        return None
    code, message = _CLOSED[Status(state)]
    return TakebackRefused(message, code=code, details={"status": state})


def takeback_answer(
    *, game_id: int, request_id: int, user: Caller, accept: bool, source: str
) -> Answer:
    """Accept or decline another player's take-back request. The last acceptance makes the
    take-back (checked again from a replay: the same moves, in the same position).

    Raises GameNotFound, NotAPlayer, TakebackRequestNotFound, TakebackRefused
    (``not_asked`` for the one who asked; ``takeback_moved_on``, ``takeback_expired``,
    ``takeback_request_closed``)."""
    with transaction.atomic():
        game, seats, seat = _locked(game_id, user)
        req = _request_locked(game, request_id)
        if seat.seat == req.seat:
            raise TakebackRefused(
                "This is your own request: withdraw it instead.", code="not_asked", status=403
            )
        refused = _closed(req, game)
        if refused is None:
            return _answer_open(
                game, seats, seat, req, accept=accept, source=source, user=seat.user
            )
    raise refused


def _answer_open(
    game: Game,
    seats: list[Seat],
    seat: Seat,
    req: TakebackRequest,
    *,
    accept: bool,
    source: str,
    user: User,
) -> Answer:
    """``takeback_answer`` for a request still open (its transaction, the game locked)."""
    _check_allowed(game, seats)
    requester = next(s for s in seats if s.seat == req.seat)
    if not accept:
        req.status = Status.DECLINED
        req.declined_by = seat.seat
        req.decided_at = timezone.now()
        req.save(update_fields=["status", "declined_by", "decided_at"])
        outbox = OutboxWriter(game=game)
        outbox.takeback_declined(requester, request_id=req.pk, by=seat.seat)
        outbox.flush()
        return Answer(req)
    if seat.seat not in req.accepted:
        req.accepted = sorted([*req.accepted, seat.seat])
    if len(req.accepted) < len(seats) - 1:
        req.save(update_fields=["accepted"])
        return Answer(req)
    tail, back, _log_rows = _tail(game, req.seat)
    if tail.cancels != list(req.cancels):  # pragma: no cover - the same position
        raise TakebackRefused(_CLOSED[Status.VOID][1], code="takeback_moved_on")
    return _accepted(game, seats, requester, req, tail, back, source, user)


def takeback_withdraw(*, game_id: int, request_id: int, user: Caller) -> TakebackRequest:
    """The player who asked withdraws their request (``not_yours`` for anyone else)."""
    with transaction.atomic():
        game, _seats, seat = _locked(game_id, user)
        req = _request_locked(game, request_id)
        if seat.seat != req.seat:
            raise TakebackRefused(
                "Only the player who asked may withdraw the request.",
                code="not_yours",
                status=403,
            )
        refused = _closed(req, game)
        if refused is None:
            req.status = Status.WITHDRAWN
            req.decided_at = timezone.now()
            req.save(update_fields=["status", "decided_at"])
            return req
    raise refused
