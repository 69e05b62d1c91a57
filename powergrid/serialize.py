"""``to_json`` / ``from_json``: the complete state, secrets included (for the server's private
storage), round-tripping exactly."""

from __future__ import annotations

import json
from typing import Any

from powergrid.editions import FIRST
from powergrid.network import board_for
from powergrid.state import BASE_DECK, Auction, Player, State

FORMAT = 1


def to_dict(s: State) -> dict[str, Any]:
    auc = s.auction
    return {
        "format": FORMAT,
        "map": s.map,
        "areas": list(s.areas),
        "variant": s.variant,
        "seed": s.seed,
        "n": s.n,
        "round": s.round,
        "step": s.step,
        "phase": s.phase,
        "order": list(s.order),
        "players": [
            {
                "money": p.money,
                "plants": list(p.plants),
                "res": list(p.res),
                "cities": list(p.cities),
            }
            for p in s.players
        ],
        "market": list(s.market),
        "deck": list(s.deck),
        "removed": list(s.removed),
        "setup_removed": list(s.setup_removed),
        "resources": list(s.resources),
        "cities": {c: list(v) for c, v in s.cities.items()},
        "done": list(s.done),
        "bought_any": s.bought_any,
        "auction": None
        if auc is None
        else {
            "plant": auc.plant,
            "bid": auc.bid,
            "high": auc.high,
            "bidders": list(auc.bidders),
            "turn": auc.turn,
            "opener": auc.opener,
            **({} if auc.sealed is None else {"sealed": list(auc.sealed)}),
        },
        "discard": None if s.discard is None else list(s.discard),
        "turn": s.turn,
        "step3_next": s.step3_next,
        "powered": list(s.powered),
        "result": None if s.result is None else [list(r) for r in s.result],
        # Only in the sealed-bid variant: every other game's JSON is as it always was.
        **(
            {}
            if s.sealed_last is None
            else {"sealed_last": [*s.sealed_last[:3], list(s.sealed_last[3])]}
        ),
        # Only with a New Power Plants deck, likewise.
        **({} if s.plant_deck == BASE_DECK else {"plant_deck": s.plant_deck}),
        # Only after the first edition: a game stored before editions existed keeps its JSON.
        **({} if s.edition == FIRST else {"edition": s.edition}),
    }


def to_json(s: State) -> str:
    return json.dumps(to_dict(s), sort_keys=True, separators=(",", ":"))


def _res(v: list[int]) -> tuple[int, int, int, int]:
    return (int(v[0]), int(v[1]), int(v[2]), int(v[3]))


def from_dict(d: dict[str, Any]) -> State:
    if d.get("format") != FORMAT:
        raise ValueError(f"unknown state format {d.get('format')!r}")
    s = State.__new__(State)
    s.map = d["map"]
    s.areas = tuple(d["areas"])
    s.variant = d["variant"]
    s.seed = d["seed"]
    s.n = d["n"]
    s.round = d["round"]
    s.step = d["step"]
    s.phase = d["phase"]
    s.order = tuple(d["order"])
    s.players = tuple(
        Player(p["money"], tuple(p["plants"]), _res(p["res"]), tuple(p["cities"]))
        for p in d["players"]
    )
    s.market = tuple(d["market"])
    s.deck = tuple(d["deck"])
    s.removed = tuple(d["removed"])
    s.setup_removed = tuple(d["setup_removed"])
    s.resources = _res(d["resources"])
    s.cities = {c: tuple(v) for c, v in d["cities"].items()}
    s.done = tuple(bool(x) for x in d["done"])
    s.bought_any = bool(d["bought_any"])
    a = d["auction"]
    s.auction = (
        None
        if a is None
        else Auction(
            a["plant"],
            a["bid"],
            a["high"],
            tuple(a["bidders"]),
            a["turn"],
            a["opener"],
            None if a.get("sealed") is None else tuple(a["sealed"]),
        )
    )
    last = d.get("sealed_last")
    s.sealed_last = None if last is None else (last[0], last[1], last[2], tuple(last[3]))
    s.plant_deck = d.get("plant_deck", BASE_DECK)
    s.edition = int(d.get("edition", FIRST))
    s.discard = None if d["discard"] is None else (d["discard"][0], d["discard"][1])
    s.turn = d["turn"]
    s.step3_next = bool(d["step3_next"])
    s.powered = tuple(d["powered"])
    r = d["result"]
    s.result = None if r is None else tuple((x[0], x[1], x[2], x[3]) for x in r)
    s.board = board_for(s.map, s.areas)
    return s


def from_json(text: str) -> State:
    return from_dict(json.loads(text))
