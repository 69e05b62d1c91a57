"""The server's one adapter to the rules engine (``powergrid``).

Everything Django-side that needs the engine goes through here, so the engine's API is used in one
place: loading a game's cached state (with a small per-process cache keyed by (game id, seq)),
applying actions, viewing. The engine is pure Python and knows nothing of Django.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import powergrid

IllegalAction = powergrid.IllegalAction

_CACHE_SIZE = 512
# game id -> ((seed, seq), state). The seed tells games apart should an id ever be reused.
_cache: OrderedDict[int, tuple[tuple[int | None, int], Any]] = OrderedDict()
_lock = threading.Lock()


def engine_version() -> str:
    return str(getattr(powergrid, "__version__", "") or "")


def state_load(*, game_id: int, seed: int | None, seq: int, state_json: str) -> Any:
    """The engine state for a game after ``seq`` moves, from the per-process cache or the JSON.

    Engine states are immutable, so one cached object can be shared by requests and threads.
    """
    with _lock:
        hit = _cache.get(game_id)
        if hit is not None and hit[0] == (seed, seq):
            _cache.move_to_end(game_id)
            return hit[1]
    state = powergrid.from_json(state_json)
    state_remember(game_id=game_id, seed=seed, seq=seq, state=state)
    return state


def state_remember(*, game_id: int, seed: int | None, seq: int, state: Any) -> None:
    with _lock:
        _cache[game_id] = ((seed, seq), state)
        _cache.move_to_end(game_id)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def state_forget(*, game_id: int) -> None:
    with _lock:
        _cache.pop(game_id, None)


def new_game(*, map: str, players: int, seed: int, areas: list[str] | None, variant: str) -> Any:
    return powergrid.new_game(map=map, players=players, seed=seed, areas=areas, variant=variant)


def apply(state: Any, seat: int, action: dict[str, Any]) -> Any:
    return powergrid.apply(state, seat, action)


def view(state: Any, seat: int | None) -> dict[str, Any]:
    return powergrid.view(state, seat)


def legal(state: Any, seat: int) -> list[dict[str, Any]]:
    return powergrid.legal(state, seat)


def to_json(state: Any) -> str:
    return powergrid.to_json(state)


def from_json(text: str) -> Any:
    return powergrid.from_json(text)


def to_act(state: Any) -> list[int]:
    """Seats whose move is awaited."""
    return [int(x) for x in powergrid.to_act(state)]


def is_finished(state: Any) -> bool:
    return bool(state.phase == "finished")


def areas_of(state: Any) -> list[str]:
    return list(state.areas)


def default_action(state: Any, seat: int) -> dict[str, Any]:
    return powergrid.default_action(state, seat)


def maps_available() -> list[str]:
    from powergrid import maps

    return list(maps.available_maps())


def map_load(slug: str) -> Any:
    from powergrid import maps

    return maps.load_map(slug)
