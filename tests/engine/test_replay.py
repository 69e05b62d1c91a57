"""Finished games kept as JSON fixtures (18xx.games style) and replayed.

Each file in ``fixtures/games/`` holds a game's ``setup`` (the keyword arguments of
``powergrid.new_game``), its ``moves`` (``[seat, action]`` as the server stores them) and the
finished game as a spectator sees it (``final``, the public ``view``). Replaying the moves must
accept every one and reach exactly that view: any change to the rules' outcome shows up here.

After a deliberate rules change, regenerate with ``python -m tests.engine.test_replay`` and
review the diff.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import powergrid
from powergrid import bots

FIXTURES = Path(__file__).parent / "fixtures" / "games"

#: name -> (setup, bot kind)
GAMES: dict[str, tuple[dict[str, Any], str]] = {
    "germany-4p-heuristic": ({"map": "germany", "players": 4, "seed": 3}, "heuristic"),
    "usa-6p-mixed": ({"map": "usa", "players": 6, "seed": 17}, "mixed"),
    "germany-2p-random": ({"map": "germany", "players": 2, "seed": 8}, "random"),
    # Recorded under the first rules edition (France without plant 13): it must still replay.
    "france-4p-heuristic": (
        {"map": "france", "players": 4, "seed": 11, "edition": 1},
        "heuristic",
    ),
    "france-3p-heuristic-edition-2": (
        {"map": "france", "players": 3, "seed": 23, "edition": 2},
        "heuristic",
    ),
    "italy-3p-mixed": ({"map": "italy", "players": 3, "seed": 12}, "mixed"),
    "usa-3p-first-game": (
        {"map": "usa", "players": 3, "seed": 5, "variant": "first_game"},
        "heuristic",
    ),
    "germany-5p-areas-mixed": (
        {
            "map": "germany",
            "players": 5,
            "seed": "fixture-areas",
            "areas": ["brown", "green", "red", "cyan", "yellow"],
        },
        "mixed",
    ),
}


def _public(state: powergrid.State) -> dict[str, Any]:
    view = powergrid.view(state, None)
    view.pop("legal", None)
    # Through JSON, so the comparison is what a client would see.
    loaded: dict[str, Any] = json.loads(json.dumps(view))
    return loaded


def make_fixture(name: str) -> dict[str, Any]:
    setup, kind = GAMES[name]
    seed = setup["seed"]
    table = bots.make_bots(kind, setup["players"], seed if isinstance(seed, int) else 0)
    state, moves = bots.play_game(
        setup["map"],
        setup["players"],
        seed,
        table,
        variant=setup.get("variant", "standard"),
        areas=setup.get("areas"),
        edition=setup.get("edition"),
    )
    return {
        "name": name,
        "setup": setup,
        "bots": kind,
        "moves": [[seat, action] for seat, action in moves],
        "final": _public(state),
    }


def regenerate(names: list[str] | None = None) -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for name in names or GAMES:
        data = make_fixture(name)
        path = FIXTURES / f"{name}.json"
        # One move per line: readable diffs.
        lines = ",\n".join(json.dumps(m, sort_keys=True) for m in data["moves"])
        body = {k: v for k, v in data.items() if k != "moves"}
        text = json.dumps(body, sort_keys=True, indent=1)
        text = text[:-2] + f',\n "moves": [\n{lines}\n ]\n}}\n'
        json.loads(text)  # still valid JSON
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path} ({len(data['moves'])} moves)")


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("name", sorted(GAMES))
def test_fixture_replays_to_its_result(name: str) -> None:
    data = _load(name)
    assert data["setup"] == GAMES[name][0]
    state = powergrid.new_game(**data["setup"])
    for i, (seat, action) in enumerate(data["moves"]):
        assert seat in powergrid.to_act(state), f"move {i}: seat {seat} is not awaited"
        try:
            state = powergrid.apply(state, seat, action)
        except powergrid.IllegalAction as exc:  # pragma: no cover - a failure's explanation
            pytest.fail(f"{name}: move {i} {action} by seat {seat} refused: {exc!r}")
    assert state.phase == "finished"
    assert _public(state) == data["final"]
    # The helper gives the same, and the JSON round trip holds at the end.
    again = bots.replay(data["setup"], data["moves"])
    assert again == state
    assert powergrid.from_json(powergrid.to_json(again)) == state


def test_fixtures_cover_the_game() -> None:
    """Between them the fixtures exercise every action type, step 3 and the first game."""
    kinds: set[str] = set()
    steps: set[int] = set()
    for name in GAMES:
        data = _load(name)
        kinds.update(a["type"] for _, a in data["moves"])
        steps.add(data["final"]["step"])
        assert data["final"]["result"], name
    assert kinds == {
        "choose_plant",
        "pass_auction",
        "bid",
        "pass_bid",
        "discard_plant",
        "buy_resources",
        "build",
        "power",
    }
    assert {1, 3} <= steps


if __name__ == "__main__":
    import sys

    regenerate(sys.argv[1:] or None)
