"""The move log's entries: what one move did, from public views only.

A move is described from the spectator views before and after it (:func:`powergrid.view` with no
seat), so nothing derived here can reveal hidden information. Each entry is language-neutral: a
``kind`` (an action type of :data:`powergrid.actions.ACTIONS`, or one of its ``EVENTS``), the
seat it is about and its parameters; :func:`sentence` gives the English message id the server
translates and fills.

The parameters follow the action's fields by their kind, so a new action type needs nothing here:
its fields are copied; ``count`` fields (tokens bought) become ``tokens`` and their ``cost``;
a ``tokens`` field becomes ``tokens``; a ``cities`` field becomes the cities actually added.
A move in an auction names the auction's ``plant``; a move in phase 5 says how many cities it
powered (``n``), the ``income`` and whether it was the ``final`` one; a build says what it
``cost``. Every payment of the game is in these entries (plant prices, resources, building,
income), so a player's money follows from them alone (:func:`public_money`).

A take-back (:mod:`powergrid.takeback`) is an entry of kind ``takeback``: the seat that took
its move back, how many moves it cancels (``n``, ``cancels``) and whether others agreed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypedDict

from powergrid import takeback
from powergrid.actions import ACTIONS, EVENTS
from powergrid.network import board_for
from powergrid.shapes import View
from powergrid.state import BUREAUCRACY, FINISHED
from powergrid.tables import BUILD_COSTS, RESOURCES, STARTING_MONEY, income
from powergrid.text import Sentence, gettext_noop


class Entry(TypedDict):
    """One line of the move log, before translation."""

    kind: str
    seat: int | None
    params: dict[str, Any]


def _plants(view: View, seat: int) -> set[int]:
    return {p["number"] for p in view["players"][seat]["plants"]}


def _tokens(counts: Mapping[str, Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in RESOURCES:
        n = counts.get(r)
        if type(n) is int and n > 0:
            out[r] = n
    return out


def move_entries(action: Mapping[str, Any], seat: int, before: View, after: View) -> list[Entry]:
    """The log entries of one (legal) move: the move itself, then what it led to (a plant sold,
    a new step, a new round, the end of the game).

    >>> import powergrid
    >>> s = powergrid.new_game(map="germany", players=3, seed=1)
    >>> seat = s.order[0]
    >>> a = {"type": "choose_plant", "plant": 3, "bid": 3}
    >>> t = powergrid.apply(s, seat, a)
    >>> [e["kind"] for e in move_entries(a, seat, powergrid.view(s), powergrid.view(t))]
    ['choose_plant']
    """
    kind = str(action.get("type"))
    if kind == takeback.TAKEBACK:
        cancels = list(action.get("cancels") or [])
        agreed = bool(action.get("accepted_by"))
        return [
            {
                "kind": kind,
                "seat": seat,
                "params": {"n": len(cancels), "cancels": cancels, "agreed": agreed},
            }
        ]
    spec = ACTIONS.get(kind)
    params: dict[str, Any] = {}
    auc = before.get("auction")
    if auc and "number" in auc["plant"]:
        params["plant"] = auc["plant"]["number"]
    if spec is None:
        return [{"kind": "other", "seat": seat, "params": {"type": kind}}]
    for f in () if spec.secret else spec.fields:
        value = action.get(f.name)
        if f.kind == "count":
            continue
        if f.kind == "tokens":
            params["tokens"] = _tokens(value or {})
        elif f.kind == "cities":
            had = before["players"][seat]["cities"]
            added = [c for c in after["players"][seat]["cities"] if c not in set(had)]
            params["cities"] = added
            params["cost"] = _build_cost(before, had, added)
        elif value is not None:
            params[f.name] = value
    if any(f.kind == "count" for f in spec.fields):
        bought = _tokens(action)
        params["tokens"] = bought
        market = before["resource_market"]
        params["cost"] = sum(sum(market[r][: bought.get(r, 0)]) for r in RESOURCES)
    if before["phase"] == BUREAUCRACY:
        powered = after["powered"][seat] if after.get("powered") else 0
        params.update(n=powered, income=income(powered), final=after["phase"] == FINISHED)
    out: list[Entry] = [{"kind": kind, "seat": seat, "params": params}]
    # The plant auctioned: entries name it by number, ``sealed_last`` by id (a new-deck card's
    # id is not its number).
    number = auc["plant"].get("number") if auc else None
    plant_id = auc["plant"].get("id", number) if auc else None
    for p in after["players"]:
        for n in sorted(_plants(after, p["seat"]) - _plants(before, p["seat"])):
            last = after.get("sealed_last")
            if auc and auc.get("sealed") and last and last["plant"] == plant_id and n == number:
                price: object = last["price"]
            elif auc and number == n:
                price = action.get("amount") if kind == "bid" else auc["high_bid"]
            else:
                # Put up with nobody else left to bid: bought at the minimum, its number.
                price = n
            out.append({"kind": "sale", "seat": p["seat"], "params": {"plant": n, "price": price}})
    if after["step"] != before["step"]:
        out.append({"kind": "step", "seat": None, "params": {"step": after["step"]}})
    if after["round"] != before["round"] and after["phase"] != FINISHED:
        out.append({"kind": "round", "seat": None, "params": {"round": after["round"]}})
    if after["phase"] == FINISHED and before["phase"] != FINISHED:
        out.append({"kind": "finished", "seat": None, "params": {}})
    return out


def _build_cost(before: View, had: list[str], added: list[str]) -> int:
    """What building in ``added`` cost a player whose network was ``had``, from the public view
    before it: each city's next build space, and the cheapest connections (the engine's quote)."""
    if not added:
        return 0
    board = board_for(str(before["map"]), tuple(before["areas"]))
    occupied = before["cities"]
    spaces = sum(BUILD_COSTS[len(occupied.get(c) or ())] for c in added)
    return spaces + board.connection_cost(tuple(had), tuple(added))


def public_money(players: int, entries: Iterable[Mapping[str, Any]]) -> list[int]:
    """Each seat's money from the move log's entries alone (every standing move's, in order):
    the starting money, less the plants, resources and cities paid for, plus the income of each
    phase 5. Payments are public in Power Grid, so this is what a player keeping accounts knows;
    ``tests/engine/test_describe_money.py`` checks that it is every player's money."""
    money = [STARTING_MONEY] * players
    for e in entries:
        seat, kind, params = e.get("seat"), e.get("kind"), e.get("params") or {}
        if type(seat) is not int or not 0 <= seat < players:
            continue
        if kind == "sale":
            money[seat] -= int(params.get("price") or 0)
        elif kind in ("buy_resources", "build"):
            money[seat] -= int(params.get("cost") or 0)
        elif kind == "power" and not params.get("final"):
            money[seat] += int(params.get("income") or 0)
    return money


#: The line of an entry whose kind is unknown (a move of a newer engine, say).
OTHER = Sentence(gettext_noop("%(name)s moved."))


def sentence(entry: Mapping[str, Any]) -> Sentence:
    """The sentence of a log entry (its English message ids).

    >>> sentence({"kind": "build", "seat": 0, "params": {"cities": []}}).text
    '%(name)s built nothing.'
    """
    kind = entry["kind"]
    spec = ACTIONS.get(kind)
    if spec is not None:
        return spec.said(entry["params"])
    if kind == takeback.TAKEBACK:
        return takeback.said(entry["params"])
    return EVENTS.get(kind, OTHER)
