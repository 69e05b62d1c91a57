"""Determinization: a complete :class:`State` built from one seat's :func:`powergrid.view`.

A bot at a level (``powergrid.levels``) decides from ``view(state, seat)`` alone. The rule-based
levels need a state to read and the search levels a state to play forward from, so this module
builds one from the view, filling in what the seat cannot see by sampling, never by reading
the real state (there is none here: the only input is the view):

* **the deck's order and the plants removed face down at set-up**: the cards no player has seen
  (every card of the deck played, less those in the market, in a player's hand or out of the
  game face up) are dealt at random into the deck's unseen places and the set-up's removals.
  What is public keeps its place: the Step 3 card sits under the shuffled part, the top plant is
  on top while no plant has been drawn, and the plants the phase-5 turnovers put under the deck
  (one a round; the view does not list them) are drawn from the highest unseen plants, as the
  market's highest plant is the one that goes under;
* **every other player's money** (hidden from the view all game): the accounts kept from the
  public move log when the caller has them (``accounts``: every payment in Power Grid is made
  in the open, :func:`powergrid.describe.public_money`), else an estimate from the view, the
  seat's own money corrected by the difference in what was visibly bought (cities, plants at
  their numbers), with a little noise;
* **sealed bids already in** (sealed-bid variant): a plausible bid, or a pass;
* **the seed** (it drives the Step 3 shuffle): drawn at random.

Two public facts the view does not carry are inferred: who is out of this round's auctions
(the seats before the chooser or opener in player order; the others are taken to be still in)
and whether any plant was sold this round (as soon as anyone is out).

:func:`public_state` is the same with a fixed draw: a deterministic function of the view, for
the rule-based bots, which read only public parts of it (the deck, seed and others' money do not
enter their choices). ``tests/engine/test_determinize.py`` checks that a sample's own view is
the view it was made from.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from powergrid import editions
from powergrid.map_rules import rules_for
from powergrid.network import board_for
from powergrid.plants import BASE_PLANTS, NEW_PLANTS, NUMBER, STEP3
from powergrid.state import (
    AUCTION,
    BASE_DECK,
    BUILD,
    BUREAUCRACY,
    FIRST_GAME,
    MIXED_DECK,
    NEW_DECK,
    RESOURCES,
    Auction,
    Player,
    State,
)
from powergrid.tables import NEW_TOP_NUMBER, STARTING_PLANTS
from powergrid.tables import RESOURCES as RESOURCE_NAMES

__all__ = ["card_id", "determinize", "public_state", "unseen_cards"]

#: A view (``powergrid.shapes.View``) read as plain JSON: this module reads any mapping shaped
#: like one, the engine's own or one that came over the API.
ViewLike = Mapping[str, Any]


def card_id(card: Mapping[str, Any]) -> int:
    """A card's id from its JSON object (the Step 3 card: ``STEP3``)."""
    if card.get("step3"):
        return STEP3
    return int(card.get("id", card["number"]))


def _deck_pool(plant_deck: str) -> list[int]:
    if plant_deck == NEW_DECK:
        return list(NEW_PLANTS)
    if plant_deck == MIXED_DECK:
        return [*BASE_PLANTS, *NEW_PLANTS]
    return list(BASE_PLANTS)


def _seen(v: ViewLike) -> set[int]:
    seen: set[int] = set()
    market = v["plant_market"]
    for card in (*market["current"], *market["future"], *v["removed"]):
        seen.add(card_id(card))
    for p in v["players"]:
        for card in p["plants"]:
            seen.add(card_id(card))
    auction = v.get("auction")
    if auction is not None:
        seen.add(card_id(auction["plant"]))
    return seen


def unseen_cards(v: ViewLike) -> list[int]:
    """The plants no player has seen (in the deck or removed face down at set-up), sorted."""
    seen = _seen(v)
    plant_deck = str(v.get("plant_deck", BASE_DECK))
    return sorted(i for i in _deck_pool(plant_deck) if i not in seen)


def _top_plant(v: ViewLike) -> int | None:
    """The set-up's top card while no plant has been drawn (it is public), else None."""
    if any(p["plants"] for p in v["players"]):
        return None
    rules = rules_for(str(v["map"]))
    plant_deck = str(v.get("plant_deck", BASE_DECK))
    if plant_deck == BASE_DECK:
        return rules.top_plant
    if plant_deck == NEW_DECK and NEW_TOP_NUMBER not in rules.new_deck_removed:
        return next(i for i, p in NEW_PLANTS.items() if p.number == NEW_TOP_NUMBER)
    return None


def _deck(v: ViewLike, rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(deck, set-up removals) dealt from the unseen cards."""
    size = int(v["deck_size"])
    pool = unseen_cards(v)
    removed = {card_id(c) for c in v["removed"]}
    step3_in_deck = (
        int(v["step"]) < 3 and not v["step3_card_in_market"] and STEP3 not in removed and size > 0
    )
    rng.shuffle(pool)
    if not step3_in_deck:
        deck = pool[:size]
        return tuple(deck), tuple(pool[size:])
    # Above the Step 3 card: the shuffled part; under it, one plant per finished round (the
    # market's highest at each turnover: taken here from the highest unseen plants).
    under_n = max(0, min(int(v["round"]) - 1, size - 1, len(pool)))
    by_number = sorted(pool, key=lambda i: NUMBER[i], reverse=True)
    high = by_number[: max(under_n, min(len(pool), 2 * under_n))]
    rng.shuffle(high)
    under = high[:under_n]
    rest = [i for i in pool if i not in under]
    top = _top_plant(v)
    head: list[int] = []
    if top is not None and top in rest:
        rest.remove(top)
        head = [top]
    above = size - 1 - under_n - len(head)
    deck = [*head, *rest[:above], STEP3, *under]
    return tuple(deck), tuple(rest[above:])


def _estimate_money(
    v: ViewLike, seat: int, rng: random.Random, noise: int, accounts: Sequence[int] | None = None
) -> list[int]:
    """Each player's money: the seat's own, the others' from ``accounts`` (the public log's)
    when given, else estimated from the view."""
    players = v["players"]
    if accounts is not None:
        if len(accounts) != len(players):
            raise ValueError("accounts: one figure a seat")
        return [
            int(p["money"]) if p["money"] is not None else max(0, int(accounts[i]))
            for i, p in enumerate(players)
        ]
    own = players[seat]["money"]
    mine = int(own) if own is not None else 50

    def assets(p: Mapping[str, Any]) -> int:
        return 12 * len(p["cities"]) + sum(int(c["number"]) for c in p["plants"])

    my_assets = assets(players[seat])
    out: list[int] = []
    for p in players:
        if p["money"] is not None:
            out.append(int(p["money"]))
            continue
        guess = mine + (my_assets - assets(p)) // 2
        if noise:
            guess += rng.randint(-noise, noise)
        out.append(max(0, guess))
    return out


def _done(v: ViewLike, to_act: Sequence[int]) -> tuple[bool, ...]:
    n = int(v["players_count"])
    order = [int(x) for x in v["order"]]
    phase = v["phase"]
    done = [False] * n
    if phase == BUREAUCRACY:
        return tuple(i not in to_act for i in range(n))
    if phase != AUCTION:
        return tuple(done)
    auction = v.get("auction")
    pending = v.get("pending_discard")
    if auction is not None:
        first = int(auction["opener"])
    elif pending is not None:
        first = int(pending["seat"])
        done[first] = True
    elif to_act:
        first = int(to_act[0])
    else:
        return tuple(True for _ in range(n))
    for s in order:
        if s == first:
            break
        done[s] = True
    return tuple(done)


def _sealed(
    v: ViewLike, auction: Mapping[str, Any], seat: int, money: list[int], rng: random.Random
) -> tuple[int, ...]:
    n = int(v["players_count"])
    bidders = [int(b) for b in auction["bidders"]]
    opener = int(auction["opener"])
    high = int(auction["high_bid"])
    given = {int(b) for b in auction.get("sealed_in", [])}
    out: list[int] = []
    for i in range(n):
        if i == opener:
            out.append(high)
        elif i not in bidders:
            out.append(0)
        elif i not in given:
            out.append(-1)
        elif i == seat:
            out.append(int(auction.get("your_sealed_bid", 0)))
        else:
            # Hidden: a pass, or a bid a little over the opening bid within the estimate.
            top = min(money[i], high + 12)
            out.append(0 if top <= high or rng.random() < 0.4 else rng.randint(high + 1, top))
    return tuple(out)


def determinize(
    v: ViewLike,
    seat: int,
    rng: random.Random,
    *,
    edition: int = editions.LATEST,
    money_noise: int = 8,
    accounts: Sequence[int] | None = None,
) -> State:
    """A complete state that ``seat`` could be in, given its view ``v`` (see the module):
    everything the view shows is as shown; the rest is drawn from ``rng``. ``accounts`` (each
    seat's money as the public move log tells it) replaces the estimate of the others' money."""
    n = int(v["players_count"])
    to_act = [int(x) for x in v["to_act"]]
    money = _estimate_money(v, seat, rng, money_noise, accounts)
    players = []
    for i, p in enumerate(v["players"]):
        res = p["resources"]
        players.append(
            Player(
                money[i],
                tuple(card_id(c) for c in p["plants"]),
                (int(res["coal"]), int(res["oil"]), int(res["garbage"]), int(res["uranium"])),
                tuple(p["cities"]),
            )
        )
    market_view = v["plant_market"]
    market = tuple(card_id(c) for c in (*market_view["current"], *market_view["future"]))
    deck, setup_removed = _deck(v, rng)
    rm = v["resource_market"]
    resources = (
        len(rm[RESOURCE_NAMES[0]]),
        len(rm[RESOURCE_NAMES[1]]),
        len(rm[RESOURCE_NAMES[2]]),
        len(rm[RESOURCE_NAMES[3]]),
    )
    phase = str(v["phase"])
    order = tuple(int(x) for x in v["order"])
    done = _done(v, to_act)
    auction: Auction | None = None
    a = v.get("auction")
    if a is not None:
        sealed = _sealed(v, a, seat, money, rng) if a.get("sealed") else None
        turn = int(a["to_bid"]) if a.get("to_bid") is not None else int(a["opener"])
        auction = Auction(
            card_id(a["plant"]),
            int(a["high_bid"]),
            int(a["high_bidder"]),
            tuple(int(b) for b in a["bidders"]),
            turn,
            int(a["opener"]),
            sealed,
        )
    pending = v.get("pending_discard")
    turn = 0
    if phase in (RESOURCES, BUILD) and to_act:
        turn = n - 1 - order.index(to_act[0])
    removed = tuple(card_id(c) for c in v["removed"])
    last = v.get("sealed_last")
    s = State.__new__(State)
    s.map = str(v["map"])
    s.areas = tuple(v["areas"])
    s.variant = str(v["variant"])
    s.seed = rng.randrange(1 << 62)
    s.n = n
    s.round = int(v["round"])
    s.step = int(v["step"])
    s.phase = phase
    s.order = order
    s.players = tuple(players)
    s.market = market
    s.deck = deck
    s.removed = removed
    s.setup_removed = setup_removed
    s.resources = resources
    s.cities = {c: tuple(int(x) for x in seats) for c, seats in v["cities"].items() if seats}
    s.done = done
    s.bought_any = any(done) or (phase != AUCTION and market != STARTING_PLANTS)
    s.auction = auction
    s.discard = None if pending is None else (int(pending["seat"]), int(pending["plant_bought"]))
    s.turn = turn
    # The Step 3 card drawn in phase 4 waits in the removed pile for phase 5.
    s.step3_next = phase == BUILD and s.variant != FIRST_GAME and s.step < 3 and STEP3 in removed
    s.powered = tuple(int(x) for x in v["powered"])
    s.result = None
    s.sealed_last = (
        None
        if last is None
        else (
            int(last["plant"]),
            int(last["winner"]),
            int(last["price"]),
            tuple(int(last["bids"].get(str(i), 0)) for i in range(n)),
        )
    )
    s.plant_deck = str(v.get("plant_deck", BASE_DECK))
    s.edition = edition
    s.board = board_for(s.map, s.areas)
    return s


def public_state(v: ViewLike, seat: int, *, edition: int = editions.LATEST) -> State:
    """A state made from the view alone with a fixed draw and no noise: the same view gives the
    same state, whatever the hidden parts of the real game are."""
    return determinize(v, seat, random.Random(0), edition=edition, money_noise=0)
