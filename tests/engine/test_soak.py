"""Random soak: complete games by random-legal, heuristic and mixed bots on both maps with 2-6
players, invariants checked after every action.

Default run: 510 complete games. The cheap invariants (tokens, money, plants, cities, deck,
market, who acts) are checked after every action of every game; the expensive ones (every type
``legal`` offers is accepted by ``apply`` with sampled parameters, broken moves refused with
``IllegalAction``, views clean) after every action of the first game of each group. Every game
must finish within the move cap, replay from its moves to the identical state and JSON, and
round-trip through JSON at checkpoints. ``-m slow`` plays thousands more.
"""

from __future__ import annotations

import random

import pytest

import powergrid
from powergrid import bots
from powergrid.state import FINISHED, State
from tests.engine.invariants import check_cheap, check_full, check_fuzz, check_transition

MAPS = ("germany", "usa", "france", "italy")
PLAYERS = (2, 3, 4, 5, 6)
MAX_MOVES = 3000
JSON_EVERY = 25

# Games per (map, players) group in the default run: 20 groups x (25 + 20 + 6) = 1,020 games.
DEFAULT_GAMES = {"heuristic": 25, "random": 20, "mixed": 6}
SLOW_GAMES = {"heuristic": 150, "random": 100, "mixed": 60}


def soak_game(
    map: str,
    players: int,
    seed: int,
    kind: str,
    *,
    full: bool = False,
    variant: str = "standard",
    plant_deck: str = "base",
) -> tuple[State, list[bots.Move]]:
    """Play one game with invariant checks after every action; return the final state and moves."""
    table = bots.make_bots(kind, players, seed)
    rng = random.Random(f"soak:{seed}")
    state = powergrid.new_game(
        map=map, players=players, seed=seed, variant=variant, plant_deck=plant_deck
    )
    moves: list[bots.Move] = []
    while state.phase != FINISHED:
        if full:
            check_full(state, rng)
            check_fuzz(state, rng)
        else:
            check_cheap(state)
        if len(moves) % JSON_EVERY == 0:
            assert powergrid.from_json(powergrid.to_json(state)) == state
        awaited = bots.to_act(state)
        # Phase 5 is simultaneous: take the awaited seats in a random order.
        seat = awaited[0] if len(awaited) == 1 else rng.choice(awaited)
        action = table[seat].choose(state, seat)
        before = powergrid.to_json(state) if full else None
        try:
            state_after = powergrid.apply(state, seat, action)
        except powergrid.IllegalAction as exc:
            pytest.fail(f"{map} {players}p seed {seed} {kind}: bot move {action} refused: {exc!r}")
        if before is not None:
            assert powergrid.to_json(state) == before, "apply changed its input state"
        check_transition(state, state_after, seat, action)
        state = state_after
        moves.append((seat, action))
        assert len(moves) <= MAX_MOVES, f"{map} {players}p seed {seed} {kind}: no end"
    check_full(state, rng)
    assert state.result is not None
    assert powergrid.legal(state, 0) == []
    # JSON round trip at the end, and determinism: the moves alone rebuild the identical state.
    text = powergrid.to_json(state)
    assert powergrid.from_json(text) == state
    setup = {
        "map": map,
        "players": players,
        "seed": seed,
        "variant": variant,
        "plant_deck": plant_deck,
    }
    again = bots.replay(setup, moves)
    assert again == state
    assert powergrid.to_json(again) == text
    return state, moves


def _groups(games: dict[str, int]) -> list[tuple[str, str, int, int]]:
    return [(kind, m, n, count) for kind, count in games.items() for m in MAPS for n in PLAYERS]


def _ids(group: tuple[str, str, int, int]) -> str:
    kind, m, n, count = group
    return f"{kind}-{m}-{n}p-x{count}"


@pytest.mark.parametrize("group", _groups(DEFAULT_GAMES), ids=_ids)
def test_soak(group: tuple[str, str, int, int]) -> None:
    kind, m, n, count = group
    base = 1000 * n + 250 * MAPS.index(m)
    rounds = []
    for i in range(count):
        state, _ = soak_game(m, n, base + i, kind, full=(i == 0))
        rounds.append(state.round)
    assert min(rounds) >= 2


@pytest.mark.parametrize("map", MAPS)
@pytest.mark.parametrize("kind", ["heuristic", "random"])
def test_soak_first_game_variant(map: str, kind: str) -> None:
    for seed in range(4):
        state, _ = soak_game(map, 3 + seed, seed, kind, full=(seed == 0), variant="first_game")
        assert state.step == 1
        assert max(len(p.cities) for p in state.players) == 7


def test_seeds_differ() -> None:
    """Different seeds give different games (the soak is not playing one game 500 times)."""
    logs = {str(bots.play_game("germany", 4, seed)[1][:40]) for seed in range(5)}
    assert len(logs) == 5


def _skip_unless_asked(config: pytest.Config) -> None:
    """The project's pytest options do not deselect ``slow`` by default: do it here, so the
    long soak runs only when asked for with ``-m slow``."""
    expr = str(config.getoption("markexpr") or "")
    if "slow" not in expr.replace("not slow", ""):
        pytest.skip("long soak: run with -m slow")


@pytest.mark.slow
@pytest.mark.parametrize("group", _groups(SLOW_GAMES), ids=_ids)
def test_soak_slow(group: tuple[str, str, int, int], request: pytest.FixtureRequest) -> None:
    _skip_unless_asked(request.config)
    kind, m, n, count = group
    base = 100_000 + 1000 * n + 250 * MAPS.index(m)
    for i in range(count):
        soak_game(m, n, base + i, kind, full=(i % 25 == 0))


def test_checkers_catch_broken_states() -> None:
    """The invariant and transition checks are not vacuous: broken states fail them."""
    from tests.engine.invariants import InvariantError

    _, moves = bots.play_game("germany", 4, 77)
    s = powergrid.new_game(map="germany", players=4, seed=77)
    caught = 0
    for seat, action in moves:
        after = powergrid.apply(s, seat, action)
        if action["type"] in ("power", "buy_resources") and caught < 6:
            players = list(after.players)
            players[seat] = players[seat].replace(money=players[seat].money + 1)
            broken = after.replace(players=tuple(players))
            with pytest.raises(InvariantError):
                check_transition(s, broken, seat, action)
            caught += 1
        s = after
        if s.round == 4 and s.phase == "build":
            middle = s
    assert caught == 6
    broken = middle.replace(market=(*middle.market[1:], middle.market[0]))
    with pytest.raises(InvariantError):
        check_cheap(broken)
    broken = middle.replace(resources=(24, 24, 24, 12))
    with pytest.raises(InvariantError):
        check_cheap(broken)
