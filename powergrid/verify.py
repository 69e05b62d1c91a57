"""A verifiable shuffle: the seed behind a game's deck is committed to at the start and shown at the
end, so any player can check that the deck was not arranged and that every move was legal.

When a game starts, the server publishes :func:`commitment` of its secret seed (SHA-256 of the
game's id and the seed): the deck order, the plants removed face down and the first player order
all follow from the seed, and the commitment fixes it without telling it. When the game ends, the
seed is shown; :func:`verify` then checks, with the engine alone, that

1. the seed matches the commitment published at the start;
2. the game set up from that seed (map, players, areas, variant) and replayed move by move accepts
   every move (each was legal in its turn); a take-back in the log (:mod:`powergrid.takeback`)
   must cancel the latest moves that stand, and the moves it cancels are not replayed;
3. the replay ends where the server says the game ended (the final results).

A player can run it on what the API gives (``python -m powergrid verify record.json``; the record
is the finished game's ``GET /api/v1/games/{id}/record/``).

>>> c = commitment(7, 12345)
>>> len(c), c == commitment(7, 12345), c == commitment(8, 12345)
(64, True, False)
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from powergrid import editions
from powergrid.engine import apply
from powergrid.errors import IllegalAction
from powergrid.setup import new_game
from powergrid.state import FINISHED, State
from powergrid.takeback import LogEntry, standing
from powergrid.view import view


def commitment(game_id: int, seed: int | str) -> str:
    """The published commitment to a game's seed: SHA-256 of ``"<game id>:<seed>"``, in hex.

    The game id in it means one seed's commitment cannot be replayed as another game's."""
    return hashlib.sha256(f"{game_id}:{seed}".encode()).hexdigest()


@dataclass(frozen=True)
class Verdict:
    """The outcome of :func:`verify`: ``ok``, or the first thing that failed, in words."""

    ok: bool
    reason: str
    moves: int = 0
    state: State | None = None


def verify(record: Mapping[str, Any]) -> Verdict:
    """Check a finished game's record (see the module). ``record`` holds ``game_id``, ``seed``,
    ``commitment``, ``map``, ``players``, ``areas`` (None when they were drawn at random),
    ``variant``, ``plant_deck`` (absent: the base deck), ``edition`` (the rules edition; absent:
    the first), ``moves`` (``[seat, action]`` in order)
    and ``result`` (the final results as the game's state shows them)."""
    try:
        game_id, seed = int(record["game_id"]), record["seed"]
        if commitment(game_id, seed) != record["commitment"]:
            return Verdict(False, "the seed does not match the commitment published at the start")
        state = new_game(
            map=record["map"],
            players=int(record["players"]),
            seed=seed,
            areas=record.get("areas"),
            variant=record.get("variant", "standard"),
            plant_deck=record.get("plant_deck", "base"),
            edition=int(record.get("edition", editions.FIRST)),
        )
        moves: Sequence[Any] = record["moves"]
    except (KeyError, TypeError, ValueError, IllegalAction) as exc:
        return Verdict(False, f"the record cannot be read: {exc!r}")
    log: list[LogEntry] = []
    try:
        for i, (seat, action) in enumerate(moves, start=1):
            log.append((i, seat, dict(action)))
        kept = standing(log)
    except (IllegalAction, TypeError, ValueError) as exc:
        return Verdict(False, f"the record's take-backs do not replay: {exc}", 0, state)
    for i, seat, action in kept:
        try:
            state = apply(state, seat, dict(action))
        except (IllegalAction, TypeError, ValueError) as exc:
            return Verdict(False, f"move {i} is not legal at its turn: {exc}", i - 1, state)
    if state.phase != FINISHED:
        return Verdict(False, "the moves do not finish the game", len(moves), state)
    if view(state)["result"] != record.get("result"):
        return Verdict(False, "the replay ends with other results", len(moves), state)
    return Verdict(
        True, "the seed matches its commitment and every move replays", len(moves), state
    )
