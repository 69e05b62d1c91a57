"""The server's one adapter to the rules engine (``powergrid``).

Everything Django-side that needs the engine goes through here, so the engine's API is used in one
place: loading a game's cached state (with a small per-process cache keyed by (game id, seq)),
applying actions, viewing. The engine is pure Python and knows nothing of Django.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence

import powergrid
from powergrid import editions, maps, network, practice, takeback, verify, version
from powergrid.describe import Entry, public_money
from powergrid.map_rules import MapRules, rules_for
from powergrid.maps import GameMap
from powergrid.shapes import HouseRule, LegalMove, View
from powergrid.state import BASE_DECK, FINISHED, HOUSE_RULES, State

IllegalAction = powergrid.IllegalAction

_CACHE_SIZE = 512
# game id -> ((seed, seq), state). The seed tells games apart should an id ever be reused.
_cache: OrderedDict[int, tuple[tuple[int | None, int], State]] = OrderedDict()
_lock = threading.Lock()


def engine_version() -> str:
    return str(getattr(powergrid, "__version__", "") or "")


def data_version() -> str:
    """The fingerprint of the engine's data files (``powergrid.version``), recorded per game."""
    return version.data_version()


def state_load(*, game_id: int, seed: int | None, seq: int, state_json: str) -> State:
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


def state_remember(*, game_id: int, seed: int | None, seq: int, state: State) -> None:
    with _lock:
        _cache[game_id] = ((seed, seq), state)
        _cache.move_to_end(game_id)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def state_forget(*, game_id: int) -> None:
    with _lock:
        _cache.pop(game_id, None)


def new_game(
    *,
    map: str,
    players: int,
    seed: int,
    areas: list[str] | None,
    variant: str,
    plant_deck: str = BASE_DECK,
    edition: int,
) -> State:
    return powergrid.new_game(
        map=map,
        players=players,
        seed=seed,
        areas=areas,
        variant=variant,
        plant_deck=plant_deck,
        edition=edition,
    )


def apply(state: State, seat: int, action: dict[str, object]) -> State:
    """The state after ``seat``'s ``action`` (a JSON object: the engine checks every field)."""
    return powergrid.apply(state, seat, action)


# -- take-backs (powergrid.takeback) --------------------------------------------------------------

#: A take-back's entry type in the move log; what a move revealed (code -> English phrase).
TAKEBACK = takeback.TAKEBACK
REVEALS = takeback.REVEALS
#: The move log replayed as it happened (take-backs going back), for histories.
Replay = takeback.Replay
LogEntry = takeback.LogEntry


def replay(initial: State, log: list[LogEntry]) -> State:
    """The state after a move log (take-backs in it applied: cancelled moves skipped)."""
    return takeback.replay(initial, log)


def standing(log: list[LogEntry]) -> list[LogEntry]:
    """The moves of a log that no take-back cancelled, in order."""
    return takeback.standing(log)


def is_takeback(action: object) -> bool:
    return takeback.is_takeback(action)


def revealed(before: State, after: State) -> str | None:
    """What a move revealed that was hidden (a code of ``REVEALS``), or None."""
    return takeback.revealed(before, after)


def takeback_entry(cancels: list[int], accepted_by: list[int]) -> dict[str, object]:
    return takeback.entry(cancels, accepted_by)


# -- practice (powergrid.practice) ---------------------------------------------------------------


def practice_position(state: State, seat: int, *, seed: int, money: list[int]) -> State:
    """A running game's position as ``seat`` knows it (``powergrid.practice``)."""
    return practice.practice_position(state, seat, seed=seed, money=money)


def money_from_log(
    players: int, entries: Sequence[Entry], start: Sequence[int] | None = None
) -> list[int]:
    """Each seat's money from the public move log's entries (``powergrid.describe``), from
    ``start`` (default: the rules' starting money)."""
    return public_money(players, entries, start)


def view(state: State, seat: int | None) -> View:
    """The engine's view (``powergrid.shapes.View``); ``games.selectors.game_state_for`` adds the
    server's keys (``games.shapes.State``)."""
    return powergrid.view(state, seat)


def legal(state: State, seat: int) -> list[LegalMove]:
    return powergrid.legal(state, seat)


def to_json(state: State) -> str:
    return powergrid.to_json(state)


def from_json(text: str) -> State:
    return powergrid.from_json(text)


def to_act(state: State) -> list[int]:
    """Seats whose move is awaited."""
    return list(powergrid.to_act(state))


def is_finished(state: State) -> bool:
    return state.phase == FINISHED


def areas_of(state: State) -> list[str]:
    return list(state.areas)


def default_action(state: State, seat: int) -> dict[str, object]:
    return powergrid.default_action(state, seat)


def maps_available() -> list[str]:
    return list(maps.available_maps())


def map_load(slug: str) -> GameMap:
    return maps.load_map(slug)


def seed_commitment(game_id: int, seed: int) -> str:
    """The commitment to a game's seed published at its start (``powergrid.verify``)."""
    return verify.commitment(game_id, seed)


def record_verify(record: Mapping[str, object]) -> verify.Verdict:
    """Check a finished game's record with the engine alone (``powergrid.verify``)."""
    return verify.verify(record)


def cities_connected(map_slug: str, areas: list[str]) -> bool:
    """Whether the areas' cities are one network through cities in play (a game can end)."""
    return network.cities_connected(map_slug, areas)


def map_rules(map_slug: str) -> MapRules:
    """A map's own set-up rules (starting markets, top plant)."""
    return rules_for(map_slug)


def house_rules(variant: str) -> list[HouseRule]:
    """The house rules (not the published game) among a game's variant: ``["sealed_bid"]`` or
    ``[]``. One variant today; a list, so a client need not change when another is added."""
    return ["sealed_bid"] if variant in HOUSE_RULES else []


#: The rules edition new games start with (``powergrid.editions``).
LATEST_EDITION = editions.LATEST


def removed_plants(map_slug: str, edition: int = editions.LATEST) -> tuple[int, ...]:
    """The plants out of the game from the start on ``map_slug`` in ``edition``."""
    return editions.edition(edition).removed_plants(map_slug)
