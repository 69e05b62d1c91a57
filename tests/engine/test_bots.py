"""The bots: they only make legal moves, they are deterministic, and the heuristic one plays
well enough to beat random play."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import powergrid
from powergrid import bots
from powergrid.state import FINISHED


def _within_legal(state: powergrid.State, seat: int, action: dict[str, Any]) -> None:
    """``action`` is one of the types ``legal`` offers, with parameters inside its bounds."""
    offered = {o["type"]: o for o in powergrid.legal(state, seat)}
    kind = action["type"]
    assert kind in offered, (action, offered)
    o = offered[kind]
    if kind == "choose_plant":
        plants = {p["number"]: p["min_bid"] for p in o["plants"]}
        assert action["plant"] in plants
        assert plants[action["plant"]] <= action["bid"] <= o["max_bid"]
    elif kind == "bid":
        assert o["min"] <= action["amount"] <= o["max"]
    elif kind == "discard_plant":
        assert action["plant"] in o["plants"]
    elif kind == "buy_resources":
        for r in ("coal", "oil", "garbage", "uranium"):
            assert 0 <= action.get(r, 0) <= o["max"][r]
    elif kind == "build":
        assert set(action["cities"]) <= set(o["cities"])
        assert len(set(action["cities"])) == len(action["cities"])
    elif kind == "power" and "plants" in action:
        assert set(action["plants"]) <= set(o["plants"])


@pytest.mark.parametrize("kind", ["heuristic", "random"])
@pytest.mark.parametrize(("map", "players"), [("germany", 2), ("usa", 4), ("germany", 6)])
def test_bots_only_make_legal_moves(kind: str, map: str, players: int) -> None:
    for seed in range(3):
        table = bots.make_bots(kind, players, seed)
        state = powergrid.new_game(map=map, players=players, seed=seed)
        count = 0
        while state.phase != FINISHED:
            for seat in powergrid.to_act(state):
                _within_legal(state, seat, table[seat].choose(state, seat))
            seat = powergrid.to_act(state)[0]
            state = powergrid.apply(state, seat, table[seat].choose(state, seat))
            count += 1
            assert count < 3000


def test_heuristic_beats_random() -> None:
    """Half the seats heuristic, half random (alternating, so both sit everywhere): the winner
    is a heuristic bot in nearly every game."""
    wins: Counter[str] = Counter()
    games = 40
    for seed in range(games):
        players = 2 + seed % 5
        kinds = ["heuristic" if (seat + seed) % 2 == 0 else "random" for seat in range(players)]
        table: list[bots.Bot] = [
            bots.HeuristicBot() if k == "heuristic" else bots.RandomBot(seed * 10 + seat)
            for seat, k in enumerate(kinds)
        ]
        state, _ = bots.play_game("germany" if seed % 2 else "usa", players, seed, table)
        wins[kinds[bots.winners(state)[0]]] += 1
    assert wins["heuristic"] >= 0.9 * games, wins


def test_heuristic_games_are_reasonable() -> None:
    """All-heuristic 4-player games end in a sensible number of rounds, the winner near the end
    count, and every seat builds a network."""
    for seed in range(10):
        state, moves = bots.play_game("germany", 4, seed)
        assert 7 <= state.round <= 20
        assert 14 <= bots.winner_cities(state) <= 22
        assert all(len(p.cities) >= 3 for p in state.players)
        assert len(moves) < 1000


def test_bots_are_deterministic() -> None:
    for kind in ("heuristic", "random", "mixed"):
        a = bots.play_game("usa", 3, 11, bots.make_bots(kind, 3, 11))
        b = bots.play_game("usa", 3, 11, bots.make_bots(kind, 3, 11))
        assert a[1] == b[1]
        assert a[0] == b[0]


def test_one_heuristic_bot_serves_many_games() -> None:
    shared = bots.HeuristicBot()
    first, moves_a = bots.play_game("germany", 3, 5, [shared] * 3)
    bots.play_game("usa", 5, 6, [shared] * 5)
    again, moves_b = bots.play_game("germany", 3, 5, [shared] * 3)
    assert moves_a == moves_b
    assert first == again


def test_random_bot_uses_every_action_type() -> None:
    seen: Counter[str] = Counter()
    hybrid_mix = drop = 0
    for seed in range(12):
        _, moves = bots.play_game(
            "germany", 2 + seed % 5, seed, bots.make_bots("random", 2 + seed % 5, seed)
        )
        for _, action in moves:
            seen[action["type"]] += 1
            hybrid_mix += "hybrid" in action
            drop += "drop" in action
    assert set(seen) == {
        "choose_plant",
        "pass_auction",
        "bid",
        "pass_bid",
        "discard_plant",
        "buy_resources",
        "build",
        "power",
    }
    assert hybrid_mix > 0
    assert drop > 0


def test_random_action_respects_combined_limits() -> None:
    """Storage and money bind across resources together (hybrids share coal and oil storage):
    the random purchase and build must fit both at once, not just each alone."""
    rng = random.Random(3)
    checked = 0
    for seed in range(6):
        state, moves = bots.play_game("usa", 4, seed, bots.make_bots("random", 4, seed))
        state = powergrid.new_game(map="usa", players=4, seed=seed)
        for seat, action in moves:
            if state.phase in ("resources", "build"):
                option = powergrid.legal(state, seat)[0]
                for _ in range(5):
                    powergrid.apply(state, seat, bots.random_action(state, seat, option, rng))
                    checked += 1
            state = powergrid.apply(state, seat, action)
    assert checked > 100


def test_play_game_move_cap() -> None:
    with pytest.raises(bots.GameDidNotEnd):
        bots.play_game("germany", 4, 1, max_moves=50)


def test_play_game_rejects_wrong_bot_count() -> None:
    with pytest.raises(ValueError, match="one bot per seat"):
        bots.play_game("germany", 4, 1, [bots.HeuristicBot()])


def test_replay_rebuilds_the_game() -> None:
    state, moves = bots.play_game("usa", 5, 21, variant="first_game")
    setup = {"map": "usa", "players": 5, "seed": 21, "variant": "first_game"}
    assert bots.replay(setup, moves) == state
    # Moves as JSON lists (as stored) replay the same.
    as_lists = [[seat, dict(action)] for seat, action in moves]
    assert powergrid.to_json(bots.replay(setup, as_lists)) == powergrid.to_json(state)


def test_make_bots_kinds() -> None:
    assert all(isinstance(b, bots.HeuristicBot) for b in bots.make_bots("heuristic", 4, 1))
    assert all(isinstance(b, bots.RandomBot) for b in bots.make_bots("random", 4, 1))
    kinds = {type(b) for s in range(10) for b in bots.make_bots("mixed", 6, s)}
    assert kinds == {bots.HeuristicBot, bots.RandomBot}
    with pytest.raises(ValueError, match="unknown bot kind"):
        bots.make_bots("genius", 4, 1)


def test_heuristic_bot_on_states_loaded_from_json() -> None:
    """The server hands bots states rebuilt from its stored JSON: same moves as live states."""
    bot = bots.HeuristicBot()
    state, moves = bots.play_game("usa", 4, 9)
    s = powergrid.new_game(map="usa", players=4, seed=9)
    for seat, action in moves:
        loaded = powergrid.from_json(powergrid.to_json(s))
        assert bot.choose(loaded, seat) == action
        s = powergrid.apply(s, seat, action)
    assert s == state
