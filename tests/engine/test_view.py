"""The view: the API's shape, and nothing secret in it."""

from __future__ import annotations

import json

import powergrid
from tests.engine.helpers import play_random


def test_view_shape_and_own_money_only():
    s = powergrid.new_game(players=4, seed=7)
    v = powergrid.view(s, 2)
    for key in (
        "round",
        "step",
        "phase",
        "order",
        "to_act",
        "players",
        "plant_market",
        "deck_size",
        "resource_market",
        "auction",
        "cities",
        "legal",
        "result",
    ):
        assert key in v
    assert v["phase"] == "auction"
    assert "deadline" not in v  # the server's key (games.shapes.State)
    assert [p["money"] for p in v["players"]] == [None, None, 50, None]
    assert v["plant_market"]["current"][0] == {"number": 3, "fuel": "oil", "burns": 2, "powers": 1}
    assert len(v["plant_market"]["future"]) == 4
    assert set(v["cities"]) == set(s.board.cities)
    assert all(seats == [] for seats in v["cities"].values())
    if 2 in v["to_act"]:
        assert v["legal"]
    assert powergrid.view(s, None)["legal"] == []
    assert all(p["money"] is None for p in powergrid.view(s, None)["players"])


def test_no_secrets_in_any_view():
    s, _ = play_random(3, 4)
    mid, _ = play_random(4, 4, max_moves=60)
    for state in (mid, s):
        for seat in (None, 0, 1, 2, 3):
            text = json.dumps(powergrid.view(state, seat))
            assert "seed" not in text
            assert "setup_removed" not in text
            assert "deck" not in text.replace("deck_size", "")
    # Other players' money is hidden until the end, then public in the result.
    v = powergrid.view(mid, 1)
    assert [p["money"] is None for p in v["players"]] == [True, False, True, True]
    end = powergrid.view(s, 1)
    assert s.phase == "finished"
    assert sorted(r["rank"] for r in end["result"])[0] == 1
    assert {r["money"] for r in end["result"]} == {p.money for p in s.players}


def test_stored_tokens_are_a_placement_on_the_plants():
    s, _ = play_random(8, 3, max_moves=120)
    for p, vp in zip(s.players, powergrid.view(s, 0)["players"], strict=True):
        total = {"coal": 0, "oil": 0, "garbage": 0, "uranium": 0}
        for plant in vp["plants"]:
            for r, k in plant["stored"].items():
                total[r] += k
                assert k <= 2 * plant["burns"]
        assert total == vp["resources"]
        assert tuple(total.values()) == p.res


def test_stored_tokens_are_public_on_every_players_plants():
    """API.md: "a player's own plants add stored" is read as "the plants a player owns" (as
    opposed to market plants, which have no stored): RULES.md makes only money secret, and each
    player's resources total is in the view anyway, so every player's plants carry ``stored``
    for every viewer (spectators too) and market plants never do."""
    s, _ = play_random(8, 3, max_moves=120)
    for seat in (None, 0, 1, 2):
        v = powergrid.view(s, seat)
        for p in v["players"]:
            assert all("stored" in plant for plant in p["plants"])
        market = v["plant_market"]["current"] + v["plant_market"]["future"]
        assert all("stored" not in plant for plant in market)
        auction = v["auction"]
        assert auction is None or "stored" not in auction["plant"]


def test_a_view_is_the_callers_to_change():
    """The view reuses cached plant objects and token placements: changing one view (as a
    server adding fields might) must not show in the next."""
    s, _ = play_random(8, 3, max_moves=120)
    before = json.dumps(powergrid.view(s, 0), sort_keys=True)

    def scribble(x):
        if isinstance(x, dict):
            for v in x.values():
                scribble(v)
            x["scribbled"] = True
        elif isinstance(x, list):
            for v in x:
                scribble(v)
            x.append("scribbled")

    scribble(powergrid.view(s, 0))
    assert json.dumps(powergrid.view(s, 0), sort_keys=True) == before
