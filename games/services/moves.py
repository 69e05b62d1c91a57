"""Submitting moves: the one path by which a game's state changes after start.

The flow of one move (``move_submit``), all in ONE database transaction:

1. Lock the game row: ``Game.objects.select_for_update().get(pk=game_id)``. Every writer of a
   game's state takes this lock first, so moves on one game are serialised.
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
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import engine, rows, turns
from games.bulk import bulk_update_values
from games.models import Game, Move, Seat

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
    game: Game
    seat: Seat
    move: Move
    state: Any  # the engine state after the move


def _seats_locked(game: Game) -> list[Seat]:
    """The game's seats with user and profile, read after the game row is locked (so current), and
    kept on the instance as ``games.selectors.game_seats`` does: the turn hook updates these same
    objects (deadlines), so the response built from them needs no second read. Read with SQL built
    once (``games.rows``), as is the game row's lock: both run on every move."""
    _, seats = rows.seats_with_users(game.pk)
    for s in seats:
        s.game = game
    game._seats_cache = seats  # type: ignore[attr-defined]
    return seats


def _check_running(game: Game) -> None:
    if game.status == Game.Status.OPEN:
        raise GameNotStarted()
    if game.status == Game.Status.FINISHED:
        raise MoveRejected("The game is over.", code="game_over")


def _engine_apply(game: Game, seat: Seat, action: Any) -> tuple[Any, Any]:
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
    seat: Seat,
    action: Any,
    source: str,
    user: Any = None,
    idempotency_key: str | None = None,
) -> MoveResult:
    """Apply ``action`` for ``seat`` on a game whose row this transaction has locked."""
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
    game.state_json = engine.to_json(new_state)
    game.to_act = engine.to_act(new_state)
    fields = ["seq", "state_json", "to_act"]
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
        moves=[move],
        seats=getattr(game, "_seats_cache", None),
    )
    # Only remember the new state once the transaction commits.
    game_pk, seed, seq = game.pk, game.seed, game.seq
    transaction.on_commit(
        lambda: engine.state_remember(game_id=game_pk, seed=seed, seq=seq, state=new_state)
    )
    return MoveResult(game=game, seat=seat, move=move, state=new_state)


def move_submit(
    *,
    game_id: int,
    user: Any,
    action: Any,
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
        if expected_seq != game.seq:
            raise StaleState(
                details={"expected_seq": expected_seq, "seq": game.seq},
            )
        return _apply_locked(
            game=game,
            seat=seat,
            action=action,
            source=source,
            user=user,
            idempotency_key=idempotency_key,
        )


def move_apply_system(
    *,
    game: Game | int,
    seat: int,
    action: dict[str, Any],
    source: str,
    expected_seq: int | None = None,
) -> MoveResult:
    """A move made by the server for ``seat`` (timeout default, bot). Same transaction discipline.

    ``game`` may be a Game or an id; the row is (re)locked here. Pass ``expected_seq`` to act only
    if nothing moved since you decided (a sweeper that computed a default action should).
    """
    game_id = game if isinstance(game, int) else game.pk
    with transaction.atomic():
        locked = rows.game_for_update(game_id)
        if locked is None:
            raise GameNotFound()
        _check_running(locked)
        if expected_seq is not None and expected_seq != locked.seq:
            raise StaleState(details={"expected_seq": expected_seq, "seq": locked.seq})
        seat_row = next((s for s in _seats_locked(locked) if s.seat == seat), None)
        if seat_row is None:
            raise NotAPlayer("No such seat.")
        return _apply_locked(game=locked, seat=seat_row, action=action, source=source)


# -- several system moves at once (the deadline sweeper) -----------------------------------------


@dataclass
class SystemMove:
    """One system move for ``move_apply_system_batch``: ``game`` locked by the caller."""

    game: Game
    seat: int
    action: dict[str, Any]
    source: str
    expected_seq: int | None = None


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
    need = [it.game for it in items if getattr(it.game, "_seats_cache", None) is None]
    if need:
        by_game = rows.seats_for_games([g.pk for g in need])
        for g in need:
            g._seats_cache = by_game[g.pk]  # type: ignore[attr-defined]
    now = timezone.now()
    out: list[MoveResult | ServiceError] = []
    accepted: list[tuple[Game, Move, Any, Any]] = []
    for it in items:
        game = it.game
        try:
            _check_running(game)
            if it.expected_seq is not None and it.expected_seq != game.seq:
                raise StaleState(details={"expected_seq": it.expected_seq, "seq": game.seq})
            seats: list[Seat] = game._seats_cache  # type: ignore[attr-defined]
            seat = next((s for s in seats if s.seat == it.seat), None)
            if seat is None:
                raise NotAPlayer("No such seat.")
            old_state, new_state = _engine_apply(game, seat, it.action)
        except ServiceError as exc:
            out.append(exc)
            continue
        game.seq += 1
        move = Move(game=game, seq=game.seq, seat=seat.seat, action=it.action, source=it.source)
        game.state_json = engine.to_json(new_state)
        game.to_act = engine.to_act(new_state)
        if engine.is_finished(new_state):
            game.status = Game.Status.FINISHED
            game.finished_at = now
        accepted.append((game, move, old_state, new_state))
        out.append(MoveResult(game=game, seat=seat, move=move, state=new_state))
    if accepted:
        rows.insert_many([m for _, m, _, _ in accepted])
        bulk_update_values(
            [g for g, _, _, _ in accepted], ["seq", "state_json", "to_act", "status", "finished_at"]
        )
        turns.on_states_changed(
            [
                turns.StateChange(
                    game=g,
                    old_state=old,
                    new_state=new,
                    moves=[m],
                    seats=g._seats_cache,  # type: ignore[attr-defined]
                )
                for g, m, old, new in accepted
            ]
        )
        remembered = [(g.pk, g.seed, g.seq, new) for g, _, _, new in accepted]

        def remember() -> None:
            for game_id, seed, seq, state in remembered:
                engine.state_remember(game_id=game_id, seed=seed, seq=seq, state=state)

        transaction.on_commit(remember)
    return out
