"""The move card: the form of each move the reader may make now (choose a plant and bid, bid,
discard, buy resources with the fuel suggestions, build with its quote, power), filled in again
as it was sent when a move was refused. The forms post to ``games.web.moves``."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import NotRequired, TypedDict
from urllib.parse import urlencode

from django.urls import reverse

from games import describe, selectors
from games.inbox import onetap
from games.notifications import outbox
from games.selectors.hints import BestPower, game_best_power_for
from games.shapes import Player
from games.templatetags.names import join_names
from games.web import board_svg
from games.web.context import Quote
from games.web.present import (
    ChooseCard,
    DiscardCard,
    LegalByType,
    PowerCard,
    owned_card,
    plant_card,
    plant_id,
)
from games.web.quote import build_quote
from powergrid.shapes import Resource
from powergrid.tables import RESOURCES, income

from .viewing import Viewing


class BuyRow(TypedDict):
    resource: Resource
    label: str
    max: int
    prices: list[int]
    prices_text: str
    #: The same prices for static/js/game.js's running total: always comma-separated (the text
    #: above takes the reader's separator, "、" in Japanese, which the script read as NaN).
    prices_data: str
    value: str


class FuelSuggestion(TypedDict):
    """A fuel purchase the buy form offers to fill in (the one-tap email's), with its price."""

    choice: str
    label: str
    href: str
    amounts: dict[str, int]
    chosen: bool


class BuildCity(TypedDict):
    slug: str
    name: str
    cost: int
    checked: bool


class MoveCard(TypedDict):
    """``templates/games/cards/move.html``: the forms of the moves in ``legal``, each with its
    part (the others absent)."""

    turn_emails: str
    #: The card asks for the reader's move now ("Your move"): the page's first Tab stop is then
    #: "Skip to your move", to this card.
    move_awaited: bool
    legal: LegalByType
    you: Player | None
    money: int | None
    form_id: str
    kept_amount: str
    #: At the end: who won, in a sentence (a tie and what broke it said); "" before.
    winners: str
    choose: NotRequired[list[ChooseCard]]
    choose_max: NotRequired[int]
    choose_min: NotRequired[int]
    choose_bid: NotRequired[str | int]
    discard: NotRequired[list[DiscardCard]]
    holds_tokens: NotRequired[bool]
    drops: NotRequired[list[tuple[Resource, str]]]
    buy: NotRequired[list[BuyRow]]
    fuel: NotRequired[list[FuelSuggestion]]
    build_cities: NotRequired[list[BuildCity]]
    build_none_affordable: NotRequired[bool]
    quote: NotRequired[Quote]
    power: NotRequired[list[PowerCard]]
    power_best: NotRequired[BestPower]
    power_income: NotRequired[int]


def move_card(view: Viewing) -> MoveCard:
    card: MoveCard = {
        "turn_emails": (
            outbox.turn_emails(view.game, view.user)
            if view.me is not None and view.user is not None
            else ""
        ),
        "move_awaited": (
            view.history_seq is None
            and view.state["phase"] != "finished"
            and bool(view.legal)
            and view.me is not None
        ),
        "legal": view.legal,
        "you": view.you,
        "money": view.money,
        "form_id": secrets.token_urlsafe(12),
        "kept_amount": view.kept_one("amount"),
        "winners": describe.winners_describe(view.state["result"], view.names)
        if view.state["phase"] == "finished"
        else "",
    }
    for form in (_choose_form, _discard_form, _buy_form, _build_form, _power_form):
        form(view, card)
    return card


class _Checkable(TypedDict):
    id: int
    checked: bool


def _check_one(cards: Sequence[_Checkable], chosen: str) -> None:
    """Tick the card a refused form had chosen, else the first (radio buttons: one is ticked)."""
    for c in cards:
        c["checked"] = str(c["id"]) == chosen
    if cards and not any(c["checked"] for c in cards):
        cards[0]["checked"] = True


def _choose_form(view: Viewing, card: MoveCard) -> None:
    entry = view.legal.get("choose_plant")
    if entry is None:
        return
    current = view.state["plant_market"]["current"]
    by_number = {p["number"]: p for p in current if "step3" not in p}
    choose: list[ChooseCard] = [
        {**plant_card(by_number[p["number"]]), "min_bid": p["min_bid"], "checked": False}
        for p in entry["plants"]
        if p["number"] in by_number
    ]
    card["choose"] = choose
    card["choose_max"] = entry["max_bid"]
    # The field's floor as sent: the lowest any offered plant allows, whichever is ticked, so
    # that without the script (which narrows it to the ticked plant's, game.js) no legal bid
    # is blocked by the browser; the server checks the plant's own minimum.
    card["choose_min"] = min((c["min_bid"] for c in choose), default=0)
    _check_one(choose, view.kept_one("plant"))
    first = next((c for c in choose if c["checked"]), None)
    card["choose_bid"] = view.kept_one("bid") or (first["min_bid"] if first else "")


def _discard_form(view: Viewing, card: MoveCard) -> None:
    entry, you = view.legal.get("discard_plant"), view.you
    if entry is None or not you:
        return
    discard: list[DiscardCard] = [
        {**owned_card(p), "checked": False} for p in you["plants"] if plant_id(p) in entry["plants"]
    ]
    card["discard"] = discard
    card["holds_tokens"] = any(you["resources"].values())
    _check_one(discard, view.kept_one("plant"))
    card["drops"] = [(r, view.kept_one(f"drop_{r}") or "0") for r in RESOURCES]


def _buy_form(view: Viewing, card: MoveCard) -> None:
    buy = view.legal.get("buy_resources")
    if buy is None:
        return
    fuel = fuel_suggestions(view) if view.history_seq is None else []
    card["fuel"] = fuel
    filled = next((f["amounts"] for f in fuel if f["chosen"]), None)
    card["buy"] = [
        {
            "resource": r,
            "label": describe.resource_label(r),
            "max": buy["max"][r],
            "prices": buy["prices"].get(r, []),
            "prices_text": join_names(str(x) for x in buy["prices"].get(r, [])),
            "prices_data": ",".join(str(x) for x in buy["prices"].get(r, [])),
            "value": view.kept_one(r) or str((filled or {}).get(r, 0)),
        }
        for r in RESOURCES
    ]


def fuel_suggestions(view: Viewing) -> list[FuelSuggestion]:
    """The one-tap email's fuel purchases (``games.inbox.onetap.fuel_offers``: the fuel that
    powers the cities one has, and the cities one may have after this round's build), each a
    link that fills the buy form with it (``?fill=buy_fuel``): the page works without a script,
    and nothing is bought until the form is sent."""
    seat, game = view.viewer, view.game
    if seat is None:
        return []
    chosen = view.request.GET.get("fill", "")
    offers = onetap.fuel_offers(selectors.game_engine_state(game), seat)
    return [
        {
            "choice": choice,
            "label": describe.fuel_label(plan, more=choice == "buy_fuel_more"),
            "href": f"{reverse('game', args=[game.pk])}?{urlencode({'fill': choice})}#move",
            "amounts": {r: n for r, n in plan.amounts.items() if n},
            "chosen": choice == chosen,
        }
        for choice, plan in offers.items()
    ]


def _build_form(view: Viewing, card: MoveCard) -> None:
    build = view.legal.get("build")
    if not build:
        return
    gmap = board_svg.load_map(view.game.map)
    money = view.money
    card["build_cities"] = [
        {
            "slug": slug,
            "name": board_svg.city_name(gmap.cities[slug], view.lang),
            "cost": cost,
            "checked": slug in view.selected,
        }
        for slug, cost in sorted(build["cities"].items(), key=lambda kv: (kv[1], kv[0]))
    ]
    # Nothing to pay for (every city dearer than the money): the one choice is to build
    # nothing, and the form offers just that.
    card["build_none_affordable"] = money is not None and all(
        cost > money for cost in build["cities"].values()
    )
    if view.selected:
        card["quote"], _status = build_quote(view.game, view.user, view.selected, by_token=False)


def _power_form(view: Viewing, card: MoveCard) -> None:
    entry, you = view.legal.get("power"), view.you
    if entry is None or not you:
        return
    best: BestPower = game_best_power_for(view.game, view.user) or {
        "plants": [],
        "hybrid": {},
        "cities": 0,
    }
    able = set(entry["plants"])
    power: list[PowerCard] = []
    for p in you["plants"]:
        pid = plant_id(p)
        burn = best["hybrid"].get(pid)
        power.append(
            {
                **owned_card(p),
                "able": pid in able,
                "checked": pid in best["plants"],
                "hybrid_coal": burn["coal"] if burn else None,
            }
        )
    if view.kept:  # the plants the player ticked, not the preselection
        for c in power:
            c["checked"] = str(c["id"]) in view.kept.get("plants", [])
            c["hybrid_coal"] = view.kept_one(f"hybrid_{c['id']}_coal") or c["hybrid_coal"]
    card["power"] = power
    card["power_best"] = best
    card["power_income"] = income(best["cities"])
