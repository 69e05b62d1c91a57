"""The reference card: income, resupply, the step facts, this game's deck, and the cost
calculator (its answer computed here for the page without a script; game.js does it live)."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from django.http import QueryDict
from django.utils.translation import gettext as _

from games import describe, numbers
from games.shapes import State
from games.web.present import (
    PlantCard,
    ResupplyRow,
    StepFacts,
    deck_cards,
    income_rows,
    resupply_rows,
    step_facts,
)
from powergrid.shapes import Resource, ResourcePrices
from powergrid.tables import RESOURCES

from .viewing import Viewing

#: More than any game's money: the calculator's inputs are bounded (games.numbers).
CALC_MAX = 100_000


class CalcField(TypedDict):
    resource: Resource
    label: str
    value: int


class Calculator(TypedDict):
    """The cost calculator of the reference panel (computed here without JS)."""

    market: ResourcePrices
    money: int | None
    asked: bool
    fields: list[CalcField]
    problem: NotRequired[str]
    counts: NotRequired[dict[Resource, int]]
    cities: NotRequired[int]
    bid: NotRequired[int]
    res_cost: NotRequired[int]
    total: NotRequired[int]
    left: NotRequired[int | None]
    short: NotRequired[list[str]]


class ReferenceCard(TypedDict):
    """``templates/games/cards/reference.html``."""

    income_rows: list[tuple[str, int]]
    deck_cards: list[PlantCard]
    resupply: list[ResupplyRow]
    facts: StepFacts | None
    calc: Calculator


def reference_card(view: Viewing) -> ReferenceCard:
    state = view.state
    return {
        "income_rows": income_rows(),
        "deck_cards": deck_cards(state.get("plant_deck")),
        "resupply": resupply_rows(state["players_count"], state["step"]),
        "facts": step_facts(state["players_count"]),
        "calc": calculator(state, view.money, view.calc_query),
    }


def _calc(query: QueryDict, name: str) -> int:
    """One of the calculator's inputs (empty: 0)."""
    return numbers.from_query(query, name, low=0, high=CALC_MAX, default=0) or 0


def calculator(state: State, money: int | None, query: QueryDict | None) -> Calculator:
    """The cost calculator (the no-JS path computes the answer here; JS does it live)."""
    market = state["resource_market"]
    out: Calculator = {
        "market": market,
        "money": money,
        "asked": False,
        "fields": [
            {"resource": r, "label": describe.resource_label(r), "value": 0} for r in RESOURCES
        ],
    }
    if query is None:
        return out
    try:
        counts = {r: _calc(query, f"calc_{r}") for r in RESOURCES}
        cities = _calc(query, "calc_cities")
        bid = _calc(query, "calc_bid")
    except numbers.BadNumber:
        out["problem"] = _("Please enter whole numbers.")
        return out
    short = [r for r in RESOURCES if counts[r] > len(market[r])]
    res_cost = sum(sum(market[r][: counts[r]]) for r in RESOURCES)
    total = res_cost + cities + bid
    for f in out["fields"]:
        f["value"] = counts[f["resource"]]
    out["asked"] = True
    out["counts"] = counts
    out["cities"] = cities
    out["bid"] = bid
    out["res_cost"] = res_cost
    out["total"] = total
    out["left"] = None if money is None else money - total
    out["short"] = [describe.resource_label(r) for r in short]
    return out
