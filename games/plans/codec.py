"""A plan's JSON (API body, form, ``Plan.data``) to the engine's plan and back.

One table, ``KINDS``, says per kind which fields it has; ``plan_from_json`` checks them against
the game's state when the plan is given (a plant in the market, cities of the map in play) and
fills the round a round-bound order is for. The engine re-checks everything when the order is
used: prices and costs may have moved by then.

How plans are stored (and shown to their owner) is ``games.plans.stored``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games import engine, numbers
from games.services.errors import ServiceError
from powergrid import plans as p
from powergrid.plants import NUMBER, PLANTS
from powergrid.state import AUCTION, BUILD, BUREAUCRACY, PHASES, RESOURCES, State
from powergrid.tables import RESOURCES as RESOURCE_NAMES

#: Every kind a player may give, and the phase its round is counted from (None: any time).
KINDS: dict[str, str | None] = {
    "proxy_bid": AUCTION,
    "auto_pass": AUCTION,
    "pass_when_nothing": None,
    "buy": RESOURCES,
    "build": BUILD,
    "power": BUREAUCRACY,
    "open": AUCTION,
}
_ORDER = list(PHASES)
MAX_AMOUNT = 1000
MAX_PLANT = max(PLANTS)
_ROUND_BOUND = ("round",)  # a plan as answered may be sent back: its round is ignored
#: The fields each kind takes besides ``kind``: any other field is refused (a misspelt field
#: silently ignored made a plan other than the one meant).
FIELDS: dict[str, tuple[str, ...]] = {
    "proxy_bid": ("plant", "max", "discard"),
    "auto_pass": _ROUND_BOUND,
    "pass_when_nothing": (),
    "buy": ("amounts", "max_price", *_ROUND_BOUND),
    "build": ("cities", "max_total", *_ROUND_BOUND),
    "power": _ROUND_BOUND,
    "open": ("choices", "pass_else", "others_pass", "discard", *_ROUND_BOUND),
}


class InvalidPlan(ServiceError):
    status = 400
    code = "invalid_plan"
    default_message = "The plan is not valid."


class PlanNotFound(ServiceError):
    status = 404
    code = "plan_not_found"
    default_message = "You have no such plan in this game."


def _int(body: Mapping[str, Any], name: str, low: int, high: int = MAX_AMOUNT) -> int:
    """Field ``name``: a JSON integer from ``low`` to ``high`` (``games.numbers``; a string of
    digits is not one: the page's form and the email reader send integers too)."""
    try:
        return numbers.from_json(body.get(name), field=name, low=low, high=high)
    except numbers.BadNumber as exc:
        raise InvalidPlan(exc.message, details=exc.details) from None


def target_round(state: State, kind: str) -> int:
    """The round an order given now is for: this round while its phase has not passed, else the
    next. (An order for phase 3 given during phase 4 waits for the next round's phase 3.)"""
    phase = KINDS[kind]
    if phase is None or state.phase not in _ORDER:
        return state.round
    return state.round if _ORDER.index(state.phase) <= _ORDER.index(phase) else state.round + 1


def plan_from_json(body: Any, state: State, seat: int) -> p.Plan:
    """The engine's plan for ``body`` (``{"kind": ..., fields}``), given by ``seat``, checked
    against ``state``.

    Raises ``InvalidPlan`` (400, ``details.field`` names the field) for anything else."""
    if not isinstance(body, Mapping):
        raise InvalidPlan("The plan must be a JSON object.", details={"field": "kind"})
    kind = body.get("kind")
    if not isinstance(kind, str) or kind not in KINDS:
        raise InvalidPlan(
            "'kind' must be one of: " + ", ".join(KINDS) + ".", details={"field": "kind"}
        )
    unknown = sorted(str(k) for k in body if k != "kind" and k not in FIELDS[kind])
    if unknown:
        raise InvalidPlan(
            f"Unknown field {unknown[0]!r} for a {kind} plan.",
            details={"field": unknown[0], "allowed": ["kind", *FIELDS[kind]]},
        )
    if "round" in body:  # ignored (the server sets it), but a number if sent
        _int(body, "round", 0, numbers.INT32_MAX)
    if kind == "proxy_bid":
        return _proxy_bid(body, state, seat)
    if kind == "pass_when_nothing":
        return p.PassWhenNothing()
    rnd = target_round(state, kind)
    if kind == "auto_pass":
        return p.AutoPass(round=rnd)
    if kind == "power":
        return p.PowerOrder(round=rnd)
    if kind == "open":
        return _open(body, state, seat, rnd)
    if kind == "buy":
        raw = body.get("amounts")
        if not isinstance(raw, Mapping) or not raw:
            raise InvalidPlan(
                "'amounts' must be an object such as {\"coal\": 2}.", details={"field": "amounts"}
            )
        amounts: dict[str, int] = {}
        for name, n in raw.items():
            if name not in RESOURCE_NAMES:
                raise InvalidPlan(
                    f"Unknown resource {name!r}: " + ", ".join(RESOURCE_NAMES) + ".",
                    details={"field": "amounts"},
                )
            count = _int({name: n}, name, 0, 24)
            if count:
                amounts[name] = count
        if not amounts:
            raise InvalidPlan("Buy at least one token.", details={"field": "amounts"})
        return p.BuyOrder(round=rnd, amounts=amounts, max_price=_int(body, "max_price", 1, 100))
    # build
    raw_cities = body.get("cities")
    if not isinstance(raw_cities, list) or not raw_cities:
        raise InvalidPlan("'cities' must be a list of city slugs.", details={"field": "cities"})
    in_play = _cities_in_play(state)
    cities: list[str] = []
    for c in raw_cities:
        if not isinstance(c, str) or c not in in_play:
            raise InvalidPlan(f"{c!r} is not a city in play.", details={"field": "cities"})
        if c not in cities:
            cities.append(c)
    return p.BuildOrder(
        round=rnd, cities=tuple(cities), max_total=_int(body, "max_total", 0, 10000)
    )


def _proxy_bid(body: Mapping[str, Any], state: State, seat: int) -> p.ProxyBid:
    """A plant of the market (or the one in auction) by id, a maximum of at least its number,
    and optionally ``discard``: one of the player's plants now, or null (ask)."""
    plant = _int(body, "plant", 1, MAX_PLANT)
    offered = set(state.market)
    if state.auction is not None:
        offered.add(state.auction.plant)
    if plant not in offered:
        raise InvalidPlan(f"Plant {plant} is not in the market.", details={"field": "plant"})
    maximum = _int(body, "max", NUMBER[plant])
    discard = None
    if body.get("discard") is not None:
        discard = _int(body, "discard", 1, MAX_PLANT)
        owned = state.players[seat].plants
        if discard not in owned:
            raise InvalidPlan(
                f"You do not own plant {discard}: name one of yours to give up, or none.",
                details={"field": "discard", "plants": list(owned)},
            )
    return p.ProxyBid(plant=plant, max=maximum, discard=discard)


def _flag(body: Mapping[str, Any], name: str, default: bool) -> bool:
    value = body.get(name, default)
    if not isinstance(value, bool):
        raise InvalidPlan(f"'{name}' must be true or false.", details={"field": name})
    return value


def _open(body: Mapping[str, Any], state: State, seat: int, rnd: int) -> p.OpenOrder:
    """Plants to open in order of preference, each ``[plant, max]``: any plant of the game's deck
    (one may enter the market later in the round), a max of at least its number."""
    raw = body.get("choices")
    if not isinstance(raw, list) or len(raw) > 20:
        raise InvalidPlan(
            "'choices' must be a list of [plant, max] pairs (at most 20).",
            details={"field": "choices"},
        )
    choices: list[tuple[int, int]] = []
    for i, pair in enumerate(raw):
        if not isinstance(pair, list) or len(pair) != 2:
            raise InvalidPlan(
                f"choices[{i}] must be a [plant, max] pair.", details={"field": f"choices[{i}]"}
            )
        plant = _int({"plant": pair[0]}, "plant", 1, MAX_PLANT)
        if plant not in PLANTS:
            raise InvalidPlan(f"There is no plant {plant}.", details={"field": f"choices[{i}]"})
        mx = _int({"max": pair[1]}, "max", 0)
        if plant not in (n for n, _ in choices):
            choices.append((plant, mx))
    discard = None
    if body.get("discard") is not None:
        discard = _int(body, "discard", 1, MAX_PLANT)
        if discard not in state.players[seat].plants:
            raise InvalidPlan(
                f"You do not own plant {discard}: name one of yours to give up, or none.",
                details={"field": "discard", "plants": list(state.players[seat].plants)},
            )
    return p.OpenOrder(
        round=rnd,
        choices=tuple(choices),
        pass_else=_flag(body, "pass_else", True),
        others_pass=_flag(body, "others_pass", True),
        discard=discard,
    )


def _cities_in_play(state: State) -> frozenset[str]:
    return engine.map_load(state.map).cities_in(state.areas)
