"""The move log's entries: what one move did, from public views only.

A move is described from the spectator views before and after it (:func:`powergrid.view` with no
seat), so nothing derived here can reveal hidden information. Each entry is language-neutral: a
``kind`` (an action type of :data:`powergrid.actions.ACTIONS`, or one of its ``EVENTS``), the
seat it is about and its parameters; :func:`sentence` gives the English message id the server
translates and fills.

The parameters follow the action's fields by their kind, so a new action type needs nothing here
unless it brings a field of a new name: fields are copied under their names (a plant by the
number printed on it); ``count`` fields (tokens bought) become ``tokens`` and their ``cost``;
a ``tokens`` field becomes ``tokens``; a ``cities`` field becomes the cities actually added.
A move in an auction names the auction's ``plant``; a move in phase 5 says how many cities it
powered (``n``), the ``income`` and whether it was the ``final`` one; a build says what it
``cost``. Every payment of the game is in these entries (plant prices, resources, building,
income), so a player's money follows from them alone (:func:`public_money`).

A sealed answer (:func:`powergrid.actions.sealed_move`: a sealed bid, or a pass in a sealed
auction) is an entry of kind ``seal_bid`` naming only the plant, whether it bid or passed; the
move that opens the bids adds each bidder's answer (``sealed_bid_opened`` with its ``amount``,
or ``sealed_pass_opened``), all of it public then (the view's ``sealed_last``).

A take-back (:mod:`powergrid.takeback`) is an entry of kind ``takeback``: the seat that took
its move back, how many moves it cancels (``n``, ``cancels``) and whether others agreed.

Every parameter any entry carries is declared, with its type, in :class:`Params` (which keys an
entry has depends on its kind), so the readers (the server's sentences, the money kept from the
log) are checked by mypy key by key; an action field whose name :class:`Params` does not declare
fails ``tests/engine/test_describe_params.py``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TypedDict

from powergrid import takeback
from powergrid.actions import ACTIONS, EVENTS, SEALED_SHOWN, sealed_move
from powergrid.network import board_for
from powergrid.plants import PLANTS
from powergrid.shapes import Resource, View
from powergrid.state import BUREAUCRACY, FINISHED
from powergrid.tables import BUILD_COSTS, RESOURCES, STARTING_MONEY, income
from powergrid.text import Sentence, gettext_noop


class Params(TypedDict, total=False):
    """An entry's parameters, each with its type; which are present depends on the kind.

    The fields of a move, by the action's field of that name (``plant``, ``bid``, ``amount``,
    ``plants`` and ``hybrid`` as sent); ``tokens`` the tokens bought, returned or dropped;
    ``cities`` the cities actually added and ``cost`` what a build or a purchase cost; in an
    auction the ``plant`` auctioned; in phase 5 ``n`` cities powered, the ``income`` and whether
    it was the ``final`` one. A ``sale``: the ``plant`` and its ``price``; a ``step`` or
    ``round``: its number; a ``takeback``: ``n`` moves, the seqs it ``cancels``, whether others
    ``agreed``; an unknown action (``other``): its ``type``."""

    plant: int
    bid: int
    amount: int
    plants: list[int]
    hybrid: dict[str, dict[str, int]]
    tokens: dict[Resource, int]
    cities: list[str]
    cost: int
    n: int
    income: int
    final: bool
    price: int
    step: int
    round: int
    cancels: list[int]
    agreed: bool
    type: str


class Entry(TypedDict):
    """One line of the move log, before translation."""

    kind: str
    seat: int | None
    params: Params


def _plants(view: View, seat: int) -> set[int]:
    return {p["number"] for p in view["players"][seat]["plants"]}


def _tokens(counts: object) -> dict[Resource, int]:
    out: dict[Resource, int] = {}
    if not isinstance(counts, Mapping):
        return out
    for r in RESOURCES:
        n = counts.get(r)
        if type(n) is int and n > 0:
            out[r] = n
    return out


def _int(value: object) -> int | None:
    return value if type(value) is int else None


def _ints(value: object) -> list[int]:
    return [x for x in value if type(x) is int] if isinstance(value, list) else []


def _hybrid(value: object) -> dict[str, dict[str, int]]:
    """A hybrid mix as the log keeps it: the plants (as sent) as JSON keys, strings."""
    if not isinstance(value, Mapping):
        return {}
    return {
        str(plant): {str(r): n for r, n in mix.items() if type(n) is int}
        for plant, mix in value.items()
        if isinstance(mix, Mapping)
    }


def _copy(params: Params, name: str, value: object) -> None:
    """An action's field (other than tokens and cities) as the parameter of its name. The fields
    were checked by the move's handler; one of a shape the engine refuses is left out."""
    number = _int(value)
    if name == "plant" and number is not None:
        # A card is sent by its id; the log names it by the number printed on it (a New Power
        # Plants card's id is not its number), as the auction's and the sale's entries do.
        params["plant"] = PLANTS[number].number if number in PLANTS else number
    elif name == "bid" and number is not None:
        params["bid"] = number
    elif name == "amount" and number is not None:
        params["amount"] = number
    elif name == "plants" and isinstance(value, list):
        params["plants"] = _ints(value)
    elif name == "hybrid":
        params["hybrid"] = _hybrid(value)


#: The action fields :func:`_copy` copies, by name (the test checks every field is one).
COPIED = frozenset({"plant", "bid", "amount", "plants", "hybrid"})


def move_entries(action: Mapping[str, object], seat: int, before: View, after: View) -> list[Entry]:
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
        cancels = _ints(action.get("cancels"))
        agreed = bool(action.get("accepted_by"))
        return [
            {
                "kind": kind,
                "seat": seat,
                "params": {"n": len(cancels), "cancels": cancels, "agreed": agreed},
            }
        ]
    auc = before.get("auction")
    if sealed_move(action, bool(auc and auc.get("sealed"))):
        # A sealed answer, a bid or a pass: the same entry for both (the bids' opening says).
        kind = SEALED_SHOWN
    spec = ACTIONS.get(kind)
    params: Params = {}
    if auc and "number" in auc["plant"]:
        params["plant"] = auc["plant"]["number"]
    if spec is None:
        return [{"kind": "other", "seat": seat, "params": {"type": kind}}]
    for f in () if spec.secret else spec.fields:
        value = action.get(f.name)
        if f.kind == "count":
            continue
        if f.kind == "tokens":
            params["tokens"] = _tokens(value)
        elif f.kind == "cities":
            had = before["players"][seat]["cities"]
            added = [c for c in after["players"][seat]["cities"] if c not in set(had)]
            params["cities"] = added
            params["cost"] = _build_cost(before, had, added)
        elif value is not None:
            _copy(params, f.name, value)
    if any(f.kind == "count" for f in spec.fields):
        bought = _tokens(action)
        params["tokens"] = bought
        market = before["resource_market"]
        params["cost"] = sum(sum(market[r][: bought.get(r, 0)]) for r in RESOURCES)
    if before["phase"] == BUREAUCRACY:
        powered = after["powered"][seat] if after.get("powered") else 0
        params["n"] = powered
        params["income"] = income(powered)
        params["final"] = after["phase"] == FINISHED
    out: list[Entry] = [{"kind": kind, "seat": seat, "params": params}]
    # The plant auctioned: entries name it by number, ``sealed_last`` by id (a new-deck card's
    # id is not its number).
    number = auc["plant"].get("number") if auc else None
    plant_id = auc["plant"].get("id", number) if auc else None
    out += _opened(before, after, number, plant_id)
    for p in after["players"]:
        for n in sorted(_plants(after, p["seat"]) - _plants(before, p["seat"])):
            last = after.get("sealed_last")
            if auc and auc.get("sealed") and last and last["plant"] == plant_id and n == number:
                price = last["price"]
            elif auc and number == n:
                amount = _int(action.get("amount")) if kind == "bid" else None
                price = auc["high_bid"] if amount is None else amount
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


def _opened(before: View, after: View, number: int | None, plant_id: int | None) -> list[Entry]:
    """When a move opens a sealed auction's bids (its last answer is in): each bidder's answer,
    a bid (``sealed_bid_opened``, its ``amount``) or a pass (``sealed_pass_opened``), in seat
    order; the opener's bid was known from the start."""
    auc = before.get("auction")
    last = after.get("sealed_last")
    if not auc or not auc.get("sealed") or not last or number is None:
        return []
    if last["plant"] != plant_id or last == before.get("sealed_last"):
        return []
    out: list[Entry] = []
    for seat in sorted(auc["bidders"]):
        if seat == auc["opener"]:
            continue
        amount = last["bids"].get(str(seat), 0)
        if amount > 0:
            out.append(
                {
                    "kind": "sealed_bid_opened",
                    "seat": seat,
                    "params": {"plant": number, "amount": amount},
                }
            )
        else:
            out.append({"kind": "sealed_pass_opened", "seat": seat, "params": {"plant": number}})
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


def public_money(
    players: int, entries: Iterable[Entry], start: Sequence[int] | None = None
) -> list[int]:
    """Each seat's money from the move log's entries alone (every standing move's, in order):
    the starting money, less the plants, resources and cities paid for, plus the income of each
    phase 5. Payments are public in Power Grid, so this is what a player keeping accounts knows;
    ``tests/engine/test_describe_money.py`` checks that it is every player's money. ``start``
    is the money the log began from when it is not the rules' starting money (a practice game
    begun from a position, whose figures were themselves the public log's)."""
    money = [STARTING_MONEY] * players if start is None else [int(m) for m in start]
    for e in entries:
        keep_accounts(money, e)
    return money


def keep_accounts(money: list[int], entry: Entry) -> None:
    """Enter one log entry's payment into the accounts ``money`` (one figure a seat, changed in
    place): what :func:`public_money` does for a whole log, for a reader that follows a game
    move by move (a bot keeping accounts, ``powergrid.levels``).

    >>> money = [50, 50]
    >>> keep_accounts(money, {"kind": "sale", "seat": 1, "params": {"plant": 3, "price": 5}})
    >>> money
    [50, 45]
    """
    seat, kind, params = entry["seat"], entry["kind"], entry["params"]
    if seat is None or not 0 <= seat < len(money):
        return
    if kind == "sale":
        money[seat] -= params.get("price", 0)
    elif kind in ("buy_resources", "build"):
        money[seat] -= params.get("cost", 0)
    elif kind == "power" and not params.get("final"):
        money[seat] += params.get("income", 0)


#: The line of an entry whose kind is unknown (a move of a newer engine, say).
OTHER = Sentence(gettext_noop("%(name)s moved."))


def sentence(entry: Entry) -> Sentence:
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
