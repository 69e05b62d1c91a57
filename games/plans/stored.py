"""A plan as stored in ``Plan.data`` and shown to its owner, and back: no checks (they were made
when the plan was given, by ``games.plans.codec``). Kept apart from the codec so the runner, which
the move service imports, needs nothing of the services.

>>> from powergrid.plans import ProxyBid
>>> plan_to_json(ProxyBid(plant=13, max=20))
{'kind': 'proxy_bid', 'plant': 13, 'max': 20}
>>> plan_from_data({'kind': 'proxy_bid', 'plant': 13, 'max': 20})
ProxyBid(plant=13, max=20, discard=None, kind='proxy_bid')
>>> plan_to_json(ProxyBid(plant=13, max=20, discard=4))
{'kind': 'proxy_bid', 'plant': 13, 'max': 20, 'discard': 4}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games import shapes
from powergrid import plans as p
from powergrid.tables import RESOURCES


def plan_to_json(plan: p.Plan) -> shapes.Plan:
    """The plan as the API shows it to its owner (and as ``Plan.data`` stores it)."""
    if isinstance(plan, p.ProxyBid):
        bid: shapes.ProxyBidPlan = {"kind": "proxy_bid", "plant": plan.plant, "max": plan.max}
        if plan.discard is not None:
            bid["discard"] = plan.discard
        return bid
    if isinstance(plan, p.AutoPass):
        return {"kind": "auto_pass", "round": plan.round}
    if isinstance(plan, p.PowerOrder):
        return {"kind": "power", "round": plan.round}
    if isinstance(plan, p.BuyOrder):
        return {
            "kind": "buy",
            "round": plan.round,
            "amounts": {r: n for r, n in plan.amounts.items() if r in RESOURCES},
            "max_price": plan.max_price,
        }
    if isinstance(plan, p.OpenOrder):
        opened: shapes.OpenPlan = {
            "kind": "open",
            "round": plan.round,
            "choices": [[n, mx] for n, mx in plan.choices],
            "pass_else": plan.pass_else,
            "others_pass": plan.others_pass,
        }
        if plan.discard is not None:
            opened["discard"] = plan.discard
        return opened
    if isinstance(plan, p.FuelOrder):
        return {"kind": "fuel", "round": plan.round, "max_price": plan.max_price}
    if isinstance(plan, p.AutoBuild):
        return {"kind": "auto_build", "round": plan.round, "max_total": plan.max_total}
    if isinstance(plan, p.BuildOrder):
        return {
            "kind": "build",
            "round": plan.round,
            "cities": list(plan.cities),
            "max_total": plan.max_total,
        }
    return {"kind": "pass_when_nothing"}


def plan_from_data(data: Mapping[str, Any]) -> p.Plan:
    """A stored plan (``Plan.data``, written by ``plan_to_json``)."""
    kind = data["kind"]
    if kind == "proxy_bid":
        discard = data.get("discard")
        return p.ProxyBid(
            plant=int(data["plant"]),
            max=int(data["max"]),
            discard=None if discard is None else int(discard),
        )
    if kind == "auto_pass":
        return p.AutoPass(round=int(data["round"]))
    if kind == "pass_when_nothing":
        return p.PassWhenNothing()
    if kind == "power":
        return p.PowerOrder(round=int(data["round"]))
    if kind == "open":
        discard = data.get("discard")
        return p.OpenOrder(
            round=int(data["round"]),
            choices=tuple((int(n), int(mx)) for n, mx in data["choices"]),
            pass_else=bool(data.get("pass_else", True)),
            others_pass=bool(data.get("others_pass", True)),
            discard=None if discard is None else int(discard),
        )
    if kind == "fuel":
        return p.FuelOrder(round=int(data["round"]), max_price=int(data["max_price"]))
    if kind == "auto_build":
        return p.AutoBuild(round=int(data["round"]), max_total=int(data["max_total"]))
    if kind == "buy":
        return p.BuyOrder(
            round=int(data["round"]),
            amounts={k: int(v) for k, v in data["amounts"].items()},
            max_price=int(data["max_price"]),
        )
    return p.BuildOrder(
        round=int(data["round"]), cities=tuple(data["cities"]), max_total=int(data["max_total"])
    )


def plan_key(plan: p.Plan) -> int:
    """The row key: a proxy bid's plant (one per plant), else 0 (one plan of each kind)."""
    return plan.plant if isinstance(plan, p.ProxyBid) else 0
