"""A game's past: its move log as the engine replays it, the state it began from, the state
after any move (from the checkpoints, ``games.checkpoints``), the public timeline (the spectator's
views around each move, which the move log's sentences are written from), the replay check, and
a finished game's record for anyone to verify.

Replays use the secret seed here, inside the door; only ``powergrid.view`` output (and a few
public numbers for the viewer's own seat) leave these functions.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from typing import cast

from games import checkpoints, engine, shapes
from games.models import Game, Move
from games.selectors.seats import Reader, game_seats
from games.selectors.state import game_engine_state, game_state_for
from powergrid.shapes import PlantDeck, Variant, View
from powergrid.state import State

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
