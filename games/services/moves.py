"""Submitting moves: the one path by which a game's state changes after start.

The flow of one move (``move_submit``), all in ONE database transaction:

1. Lock the game row: ``Game.objects.select_for_update(no_key=True).get(pk=game_id)`` (FOR NO
   KEY UPDATE: ``fastpath.rows.game_for_update`` says why). Every writer of a game's state
   takes this lock first, so moves on one game are serialised.
2. Check the caller holds a seat (``NotAPlayer``, 403), the game is running
   (``GameNotStarted`` 409 / ``game_over`` 400) and ``expected_seq == game.seq``
   (``StaleState``, 409).
3. Load the cached engine state (``games.engine.state_load``, per-process cache keyed by (id, seq))
   and call ``powergrid.apply(state, seat, action)``. The engine decides whose turn it is and raises
   ``IllegalAction`` (turned into ``MoveRejected`` with the engine's code, 400) otherwise.
4. Append the ``Move`` row (unique (game, seq)) and save the game's new ``seq``, ``state_json``,
   ``to_act``, ``status``.
5. Call ``games.turns.on_state_changed(game=..., old_state=..., new_state=..., moves=[move])``
   inside the transaction: it sets deadlines, writes the outbox (``Notification``) and schedules
   sending with ``transaction.on_commit``.

``move_apply_system`` is the same for moves made by the server itself (deadline timeouts, bots):
no user, no expected_seq; the caller may pass an already-locked game.

Web forms, the REST API, email replies and the deadline sweeper all go through these two functions.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from games import engine, turns
from games.callers import Caller
from games.fastpath import rows
from games.fastpath.bulk import bulk_update_values
from games.models import Game, Move, Seat
from games.plans import runner
from games.sheets.asking import Answered
from powergrid.state import State

from .errors import (
    GameNotFound,
    GameNotStarted,
    MoveRejected,
    NotAPlayer,
    ServiceError,
    StaleState,
)


@dataclass
class MoveResult:
    """A move written: the game (its row as updated), the seat that moved, the ``Move`` row, the
    engine state after it, and every seat of the game as read under the game's lock and updated
    by the turn hook (deadlines, counters): callers answer from these without reading again."""

    game: Game
    seat: Seat
    move: Move
    state: State
    seats: list[Seat]


def _seats_locked(game: Game) -> list[Seat]:
    """The game's seats with user and profile, read after the game row is locked (so current), and
    kept on the instance (``Game.seats_read``) for the selectors: the turn hook updates these same
    objects (deadlines), so the response built from them needs no second read. Read with SQL built
    once (``games.fastpath.rows``), as is the game row's lock: both run on every move."""
    _, seats = rows.seats_with_users(game.pk)
    for s in seats:
        s.game = game
    game.seats_read = seats
    return seats


def _check_running(game: Game) -> None:
    if game.status == Game.Status.OPEN:
        raise GameNotStarted()
    if game.status == Game.Status.FINISHED:
        raise MoveRejected("The game is over.", code="game_over")


def _engine_apply(game: Game, seat: Seat, action: object) -> tuple[State, State]:
    """The engine's verdict on ``action`` for ``seat``: (state before, state after), or
    ``MoveRejected`` with the engine's code. Every move, single or batched, passes here."""
    if not isinstance(action, dict):
        raise MoveRejected(
            "The action must be a JSON object.", code="invalid_field", details={"field": "action"}
        )
    old_state = engine.state_load(
        game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
    )
    try:
        new_state = engine.apply(old_state, seat.seat, action)
    except engine.IllegalAction as exc:
        raise MoveRejected(
            str(getattr(exc, "message", "") or exc) or "Illegal action.",
            code=str(getattr(exc, "code", "") or "illegal_action"),
            details=dict(getattr(exc, "details", None) or {}),
        ) from exc
    return old_state, new_state


def _apply_locked(
    *,
    game: Game,
    seats: list[Seat],
    seat: Seat,
    action: object,
    source: str,
    user: User | None = None,
    idempotency_key: str | None = None,
) -> MoveResult:
    """Apply ``action`` for ``seat`` on a game whose row this transaction has locked, then
    whatever moves the players' plans make after it (``_plans_follow``)."""
    old_state, new_state = _engine_apply(game, seat, action)

    game.seq += 1
    move = Move(
        game=game,
        seq=game.seq,
        seat=seat.seat,
        action=action,
        source=source,
        user=user,
        idempotency_key=idempotency_key,
    )
    rows.insert(move)
    move.to_act_after = sorted(engine.to_act(new_state))
    moves = [move]
    fields = ["seq", "state_json", "to_act"]
    notes: dict[int, str] = {}
    if game.plans_active:
        new_state, more, notes = _plans_follow(game, new_state)
        for m in more:
            rows.insert(m)
        moves += more
        fields.append("plans_active")
    game.state_json = engine.to_json(new_state)
    game.to_act = engine.to_act(new_state)
    if engine.is_finished(new_state):
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        fields += ["status", "finished_at"]
    rows.update(game, fields)
    # A human move resetting ``timeouts_in_row`` (and bot control) is the turn hook's bookkeeping.
    turns.on_state_changed(
        game=game,
        old_state=old_state,
        new_state=new_state,
        moves=moves,
        seats=seats,
        notes=notes,
    )
    # Only remember the new state once the transaction commits.
    game_pk, seed, seq = game.pk, game.seed, game.seq
    transaction.on_commit(
        lambda: engine.state_remember(game_id=game_pk, seed=seed, seq=seq, state=new_state)
    )
    return MoveResult(game=game, seat=seat, move=move, state=new_state, seats=seats)


def _plans_follow(game: Game, state: State) -> tuple[State, list[Move], dict[int, str]]:
    """The moves the plans make from ``state`` (``games.plans.runner``), as unsaved ``Move`` rows
    (source ``plan``) numbered after ``game.seq``, which advances; and the notes of orders not
    used. The runner applies each through the engine's own ``apply``: no move skips a check."""
    followed = runner.follow(game, state)
    more = []
    for (seat_no, plan_action), acting, by_sheet in zip(
        followed.moves, followed.acting, followed.by_sheet, strict=True
    ):
        game.seq += 1
        source = Move.Source.SHEET if by_sheet else Move.Source.PLAN
        move = Move(game=game, seq=game.seq, seat=seat_no, action=plan_action, source=source)
        move.to_act_after = acting
        more.append(move)
    return followed.state, more, followed.notes


def plans_follow_now(game_id: int, *, answered: Answered | None = None) -> tuple[int, int]:
    """Run the plans of a game now (a plan was just given that may apply at once): the moves
    they make are written and notified as one chain. ``answered``: the round sheets just
    answered (their seats' deadlines and counters, even when no move follows). Returns (moves
    made, the game's seq)."""
    with transaction.atomic():
        game = rows.game_for_update(game_id)
        if game is None:
            raise GameNotFound()
        return plans_follow_locked(game, answered=answered)


def plans_follow_locked(game: Game, *, answered: Answered | None = None) -> tuple[int, int]:
    """``plans_follow_now`` on a game whose row this transaction has locked (the deadline
    sweep's): ``game`` and its ``seats_read`` are updated in place."""
    if game.status != Game.Status.RUNNING or not game.plans_active:
        return 0, game.seq
    seats = _seats_locked(game)
    old_state = engine.state_load(
        game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
    )
    new_state, more, notes = _plans_follow(game, old_state)
    fields = ["plans_active"]
    if more:
        for m in more:
            rows.insert(m)
        game.state_json = engine.to_json(new_state)
        game.to_act = engine.to_act(new_state)
        fields += ["seq", "state_json", "to_act"]
        if engine.is_finished(new_state):
            game.status = Game.Status.FINISHED
            game.finished_at = timezone.now()
            fields += ["status", "finished_at"]
    rows.update(game, fields)
    if not more and answered is None:
        return 0, game.seq
    turns.on_state_changed(
        game=game, old_state=old_state, new_state=new_state, moves=more, seats=seats,
        notes=notes, answered=answered,
    )  # fmt: skip
    if more:
        game_pk, seed, seq = game.pk, game.seed, game.seq
        transaction.on_commit(
            lambda: engine.state_remember(game_id=game_pk, seed=seed, seq=seq, state=new_state)
        )
    return len(more), game.seq


def move_submit(
    *,
    game_id: int,
    user: Caller,
    action: object,
    expected_seq: int,
    source: str,
    idempotency_key: str | None = None,
) -> MoveResult:
    """A player's move.

    Raises GameNotFound, NotAPlayer, GameNotStarted, StaleState, MoveRejected (engine codes).
    """
    with transaction.atomic():
        game = rows.game_for_update(game_id)
        if game is None:
            raise GameNotFound()
        # One query for every seat (with user and profile): the caller's seat, the turn hook's
        # deadlines and the response's names all use these rows (games.selectors.game_seats).
        seats = _seats_locked(game)
        seat = next((s for s in seats if s.user_id == getattr(user, "pk", None)), None)
        if seat is None:
            raise NotAPlayer()
        _check_running(game)
        if seat.offered == Seat.Offered.LEFT:  # resigned: the bot plays it (services.seats)
            raise MoveRejected("You have left this game.", code="seat_left", status=409)
        if expected_seq != game.seq:
            raise StaleState(
                details={"expected_seq": expected_seq, "seq": game.seq},
            )
        return _apply_locked(
            game=game,
            seats=seats,
            seat=seat,
            action=action,
            source=source,
            user=seat.user,  # the caller (their seat's user, read with it)
            idempotency_key=idempotency_key,
        )


def move_apply_system(
    *,
    game: Game | int,
    seat: int,
    action: dict[str, object],
    source: str,
    expected_seq: int | None = None,
) -> MoveResult:
    """A move made by the server for ``seat`` (timeout default, bot): a batch of one.

    ``game`` may be a Game or an id; the row is (re)locked here. Pass ``expected_seq`` to act only
    if nothing moved since you decided (a sweeper that computed a default action should).
    Raises what ``move_apply_system_batch`` answers for it.
    """
    game_id = game if isinstance(game, int) else game.pk
    with transaction.atomic():
        locked = rows.game_for_update(game_id)
        if locked is None:
            raise GameNotFound()
        (result,) = move_apply_system_batch(
            [SystemMove(locked, seat, action, source, expected_seq=expected_seq)]
        )
        if isinstance(result, ServiceError):
            raise result
        return result


# -- several system moves at once (the deadline sweeper) -----------------------------------------


@dataclass
class SystemMove:
    """One system move for ``move_apply_system_batch``: ``game`` locked by the caller, with its
    ``seats`` when the caller read them under that lock (else they are read here)."""

    game: Game
    seat: int
    action: dict[str, object]
    source: str
    expected_seq: int | None = None
    seats: list[Seat] | None = None


def move_apply_system_batch(items: list[SystemMove]) -> list[MoveResult | ServiceError]:
    """Several system moves (timeouts, bots), at most one per game, on games whose rows the
    caller's transaction has locked (``games.deadlines.sweep.due_games_claim``).

    Each is checked exactly as ``move_apply_system`` checks it (running, ``expected_seq``, the seat,
    the engine's ``apply``); a rejected one gets its ``ServiceError`` in the answer and nothing of
    it is written. The accepted ones are written together: one INSERT of their ``Move`` rows, one
    UPDATE of their games (``seq``, ``state_json``, ``to_act``, ``status``, ``finished_at``), then
    the turn hook's batch (``turns.on_states_changed``: one seat UPDATE, one outbox INSERT, in this
    same transaction). Returns, per item in order, its ``MoveResult`` or its error.
    """
    if not items:
        return []
    need = [it.game.pk for it in items if it.seats is None]
    read = rows.seats_for_games(need) if need else {}
    now = timezone.now()
    out: list[MoveResult | ServiceError] = []
    accepted: list[tuple[Game, list[Move], State, State, list[Seat], dict[int, str]]] = []
    for it in items:
        game = it.game
        seats = it.seats if it.seats is not None else read[game.pk]
        game.seats_read = seats
        try:
            _check_running(game)
            if it.expected_seq is not None and it.expected_seq != game.seq:
                raise StaleState(details={"expected_seq": it.expected_seq, "seq": game.seq})
            seat = next((s for s in seats if s.seat == it.seat), None)
            if seat is None:
                raise NotAPlayer("No such seat.")
            old_state, new_state = _engine_apply(game, seat, it.action)
        except ServiceError as exc:
            out.append(exc)
            continue
        game.seq += 1
        move = Move(game=game, seq=game.seq, seat=seat.seat, action=it.action, source=it.source)
        move.to_act_after = sorted(engine.to_act(new_state))
        chain = [move]
        notes: dict[int, str] = {}
        if game.plans_active:
            new_state, more, notes = _plans_follow(game, new_state)
            chain += more
        game.state_json = engine.to_json(new_state)
        game.to_act = engine.to_act(new_state)
        if engine.is_finished(new_state):
            game.status = Game.Status.FINISHED
            game.finished_at = now
        accepted.append((game, chain, old_state, new_state, seats, notes))
        out.append(MoveResult(game=game, seat=seat, move=move, state=new_state, seats=seats))
    if accepted:
        rows.insert_many([m for _, chain, _, _, _, _ in accepted for m in chain])
        bulk_update_values(
            [g for g, _, _, _, _, _ in accepted],
            ["seq", "state_json", "to_act", "status", "finished_at", "plans_active"],
        )
        turns.on_states_changed(
            [
                turns.StateChange(
                    game=g, old_state=old, new_state=new, moves=chain, seats=seats, notes=notes
                )
                for g, chain, old, new, seats, notes in accepted
            ]
        )
        remembered = [(g.pk, g.seed, g.seq, new) for g, _, _, new, _, _ in accepted]

        def remember() -> None:
            for game_id, seed, seq, state in remembered:
                engine.state_remember(game_id=game_id, seed=seed, seq=seq, state=state)

        transaction.on_commit(remember)
    return out
