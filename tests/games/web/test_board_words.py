"""The board in words (``games.web.board_words``) says what the engine's state says, on every
map: each city in play once, under its region, with its owners in build order and the build
spaces still open; one city's connections as the map has them; the builder's cheapest next cities
at the engine's own quote (``powergrid.quote_build``, the cost calculator's figure)."""

from __future__ import annotations

import pytest
from django.utils import translation

import powergrid
from games.web.board_words import board_in_words
from powergrid.heuristic import HeuristicBot
from powergrid.maps import available_maps, load_map
from powergrid.tables import BUILD_COSTS
from powergrid.turns import first_to_act


def _build_turns(map_slug: str, players: int, seed: int, turns: int):
    """States of a heuristic bots' game where a seat's build is awaited (``turns`` of them,
    the later ones with cities owned by several seats), the game played on between them."""
    state = powergrid.new_game(map=map_slug, players=players, seed=seed)
    bots = [HeuristicBot() for _ in range(players)]
    found = []
    while state.phase != "finished" and len(found) < turns:
        seat = first_to_act(state)
        if state.phase == "build":
            found.append(state)
        state = powergrid.apply(state, seat, bots[seat].choose(state, seat))
    found.append(state)
    return found


def _check(state, lang: str) -> None:
    names = {p: f"P{p}" for p in range(state.n)}
    view = powergrid.view(state)
    gmap = load_map(state.map)
    with translation.override(lang):
        words = board_in_words(view, names)
    listed = {c["slug"]: c for r in words["regions"] for c in r["cities"]}
    in_play = set(gmap.cities_in(state.areas))
    assert set(listed) == in_play
    assert sum(len(r["cities"]) for r in words["regions"]) == len(in_play)
    assert {r["slug"] for r in words["regions"]} == set(state.areas)
    step = min(state.step, 3)
    for region in words["regions"]:
        for c in region["cities"]:
            assert gmap.cities[c["slug"]].area == region["slug"]
            occupants = list(state.cities.get(c["slug"], ()))
            assert [o["seat"] for o in c["owners"]] == occupants
            assert [o["name"] for o in c["owners"]] == [f"P{s}" for s in occupants]
            assert all(o["colour"] and o["shape"] for o in c["owners"])
            assert c["open_prices"] == list(BUILD_COSTS[len(occupants) : step])
    if state.phase == "build":
        builder = first_to_act(state)
        assert words["builder"] == builder
        quotes = {}
        for slug in in_play:
            try:
                quotes[slug] = powergrid.quote_build(state, builder, [slug])
            except powergrid.IllegalAction:
                continue
        listed_next = words["next_cities"]
        assert listed_next, "a builder always has a city to add in these games"
        for c in listed_next:
            assert c["total"] == quotes[c["slug"]] == c["space"] + c["connection"]
        cheapest = sorted(quotes.values())[: len(listed_next)]
        assert [c["total"] for c in listed_next] == cheapest
    else:
        assert words["builder"] is None
        assert words["next_cities"] == []


def _check_connections(state) -> None:
    gmap = load_map(state.map)
    in_play = gmap.cities_in(state.areas)
    view = powergrid.view(state)
    for slug in sorted(in_play)[:: max(1, len(in_play) // 8)]:
        words = board_in_words(view, {}, from_city=slug)
        got = {(n["slug"], n["cost"]) for n in words["connections"]["neighbours"]}
        want = {
            (c.other(slug), c.cost) for c in gmap.connections_of(slug) if c.other(slug) in in_play
        }
        assert got == want
        assert words["connections"]["city"] == slug
    outside = next((c for c in gmap.cities if c not in in_play), None)
    if outside:  # a city out of play is no choice: nothing is listed
        assert board_in_words(view, {}, from_city=outside)["connections"]["city"] == ""
    assert board_in_words(view, {}, from_city="<script>")["connections"]["neighbours"] == []


@pytest.mark.parametrize("map_slug", available_maps())
def test_the_board_in_words_equals_the_engine_on_every_map(map_slug):
    states = _build_turns(map_slug, players=3, seed=11, turns=8)
    for i, state in enumerate(states):
        _check(state, "ja" if i % 2 else "en")
    _check_connections(states[-1])


def test_names_are_in_the_readers_language():
    state = powergrid.new_game(map="germany", players=2, seed=3)
    with translation.override("ja"):
        ja = board_in_words(powergrid.view(state), {})
    with translation.override("en"):
        en = board_in_words(powergrid.view(state), {})
    assert [r["name"] for r in ja["regions"]] != [r["name"] for r in en["regions"]]
