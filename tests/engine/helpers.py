"""Helpers for engine tests: build positions, pick random legal moves, check invariants."""

from __future__ import annotations

import random
from typing import Any

import powergrid
from powergrid.network import board_for
from powergrid.plants import PLANTS, STEP3
from powergrid.state import Player, State
from tests.engine.invariants import check_cheap

ALL_CARDS = sorted([*PLANTS, STEP3])


def random_move(s: State, rng: random.Random) -> tuple[int, dict[str, Any]]:
    """A random move offered by ``legal`` for one of the seats to act."""
    seats = powergrid.to_act(s)
    seat = rng.choice(seats)
    options = powergrid.legal(s, seat)
    assert options, f"seat {seat} must act but legal offers nothing"
    entry = rng.choice(options)
    t = entry["type"]
    if t == "choose_plant":
        plant = rng.choice(entry["plants"])
        bid = rng.randint(plant["min_bid"], min(entry["max_bid"], plant["min_bid"] + 5))
        # A new-deck card is named by its id (a base card's id is its number).
        return seat, {"type": t, "plant": plant.get("id", plant["number"]), "bid": bid}
    if t in ("bid", "seal_bid"):
        return seat, {
            "type": t,
            "amount": rng.randint(entry["min"], min(entry["max"], entry["min"] + 3)),
        }
    if t == "discard_plant":
        plant = rng.choice(entry["plants"])
        action = powergrid.default_action(s, seat)
        p = s.players[seat]
        from powergrid.phases.auction import min_drop

        left = tuple(n for n in p.plants if n != plant)
        drop = min_drop(left, p.res)
        out: dict[str, Any] = {"type": t, "plant": plant}
        if any(drop):
            out["drop"] = dict(zip(("coal", "oil", "garbage", "uranium"), drop, strict=True))
        del action
        return seat, out
    if t == "buy_resources":
        # Buy random amounts of a random resource, within the offered bounds.
        action = {"type": t}
        names = [r for r, m in entry["max"].items() if m]
        if names:
            r = rng.choice(names)
            action[r] = rng.randint(0, entry["max"][r])
        return seat, action
    if t == "build":
        cities = entry["cities"]
        if cities and rng.random() < 0.8:
            # Add the cheapest city, maybe a second one if affordable.
            first = min(cities, key=lambda c: (cities[c], c))
            chosen = [first]
            others = sorted(c for c in cities if c != first)
            if others and rng.random() < 0.5:
                second = rng.choice(others)
                try:
                    cost = powergrid.quote_build(s, seat, [first, second])
                except powergrid.IllegalAction:
                    cost = None
                if cost is not None and cost <= s.players[seat].money:
                    chosen.append(second)
            return seat, {"type": t, "cities": chosen}
        return seat, {"type": t, "cities": []}
    if t == "power":
        if rng.random() < 0.5:
            return seat, {"type": t}
        fire = [n for n in entry["plants"] if rng.random() < 0.7]
        try:
            from powergrid.power import burn_need, can_fire

            ok = can_fire(s.players[seat].res, burn_need(tuple(sorted(fire))))
        except Exception:  # pragma: no cover
            ok = False
        return seat, {"type": t, "plants": fire if ok else []}
    return seat, {"type": t}


def check_invariants(s: State) -> None:
    """The soak's invariants (one checker for the whole suite), for tests that build positions."""
    check_cheap(s)


def play_random(
    seed: int,
    players: int = 4,
    map: str = "germany",
    variant: str = "standard",
    max_moves: int = 5000,
    check: bool = True,
) -> tuple[State, list[tuple[int, dict[str, Any]]]]:
    rng = random.Random(seed)
    s = powergrid.new_game(map=map, players=players, seed=seed, variant=variant)
    moves = []
    for _ in range(max_moves):
        if s.phase == "finished":
            break
        seat, action = random_move(s, rng)
        s = powergrid.apply(s, seat, action)
        moves.append((seat, action))
        if check:
            check_invariants(s)
    return s, moves


def make_state(
    players: int = 4,
    *,
    seed: int = 0,
    map: str = "germany",
    areas: tuple[str, ...] | None = None,
    **changes: Any,
) -> State:
    """A new game with fields replaced (players given as dicts or Player objects)."""
    s = powergrid.new_game(
        map=map, players=players, seed=seed, areas=list(areas) if areas else None
    )
    if "players" in changes:
        changes["players"] = tuple(
            v if isinstance(v, Player) else Player(**v) for v in changes["players"]
        )
    s = s.replace(**changes)
    return s.replace(board=board_for(s.map, s.areas))


def with_player(s: State, seat: int, **fields: Any) -> State:
    """A copy of ``s`` with some of one player's fields replaced (cities also placed on the board,
    appended to each city's build spaces in the order given)."""
    p = s.players[seat].replace(
        **{k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}
    )
    changes: dict[str, Any] = {}
    if "cities" in fields:
        occupied = {c: tuple(x for x in v if x != seat) for c, v in s.cities.items()}
        for c in p.cities:
            occupied[c] = (*occupied.get(c, ()), seat)
        changes["cities"] = {c: v for c, v in occupied.items() if v}
    if "plants" in fields:
        # Keep the 43-card partition: plants given to a player leave the deck, market or removed.
        taken = set(p.plants) - set(s.players[seat].plants)
        deck = tuple(x for x in s.deck if x not in taken)
        market = [x for x in s.market if x not in taken]
        while len(market) < len(s.market) and deck:
            market.append(deck[0])
            deck = deck[1:]
        changes.update(
            deck=deck,
            setup_removed=tuple(x for x in s.setup_removed if x not in taken),
            removed=tuple(x for x in s.removed if x not in taken),
            market=tuple(sorted(market)),
        )
    players = list(s.players)
    players[seat] = p
    s = s.replace(players=tuple(players), **changes)
    if "res" in fields:
        # Tokens given to the player come from the supply first, then from the market.
        supply = s.supply()
        market_tokens = list(s.resources)
        for r in range(4):
            short = -supply[r]
            if short > 0:
                market_tokens[r] -= short
        s = s.replace(resources=tuple(market_tokens))
    return s


def at_phase(
    s: State, phase: str, *, order: tuple[int, ...] | None = None, step: int | None = None
) -> State:
    """A copy of ``s`` put at the start of ``phase`` (round 2 unless already later)."""
    changes: dict[str, Any] = {
        "phase": phase,
        "round": max(s.round, 2),
        "turn": 0,
        "auction": None,
        "discard": None,
        "done": (False,) * s.n,
        "bought_any": False,
    }
    if order is not None:
        changes["order"] = order
    if step is not None:
        changes["step"] = step
    return s.replace(**changes)


def play_defaults(s: State, until: str, max_moves: int = 200) -> State:
    """Play default actions (seat by seat) until the phase is ``until``."""
    for _ in range(max_moves):
        if s.phase == until:
            return s
        seat = powergrid.to_act(s)[0]
        s = powergrid.apply(s, seat, powergrid.default_action(s, seat))
    raise AssertionError(f"never reached {until}")
