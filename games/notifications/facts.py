"""The facts of a turn email: everything a player needs to decide without opening a page, from
the recipient's own view (``selectors.game_state_for``, built once per batch) and nothing else.

* the plant market, current and future (each plant's number, fuel, tokens burnt and cities
  powered: the game page's market card, ``games.web.present.plant_card``), and the auction
  under way;
* the resource market: per resource, the tokens present at each price (the page's track,
  ``games.web.present.resource_track``) and, while the recipient buys, what buying 1, 2, 3...
  tokens costs (as the page's cost calculator adds them: the cheapest first);
* the recipient's plants with the tokens on each, money and cities, and their cheapest next
  cities with the total cost of each (the board in words' figures,
  ``games.web.board_words.next_cities``, which are ``powergrid.quote_build``'s);
* every other player's public facts: cities, plants and the tokens on them. Never their money:
  the view has none to give (null until the game is over) and none is read here.

No query is made here: a batch's email costs no more reads for its facts."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import accumulate

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import describe
from games.shapes import Player, State
from games.templatetags.names import isolate, join_names
from games.web.board_words import NEXT_CITIES, next_cities
from games.web.present import (
    OwnedCard,
    PlantCard,
    Step3CardView,
    market_card,
    owned_card,
    resource_track,
)
from powergrid.shapes import LegalMove, Resource
from powergrid.tables import RESOURCES

from . import contexts

#: How many next cities a turn email lists outside the building phase (in it: ``NEXT_CITIES``).
NEXT_CITIES_BRIEF = 3


def plant_text(card: PlantCard | Step3CardView) -> str:
    """A plant in one line: "Plant 20: burns 3 coal, powers 5 cities"."""
    if "step3" in card:
        return _("The Step 3 card (step 3 begins)")
    values = {
        "number": card["number"],
        "burns": card["burns"],
        "fuel": card["fuel_label"],
        "powers": card["powers"],
    }
    if card["burns"]:
        return (
            ngettext(
                "Plant %(number)s: burns %(burns)s %(fuel)s, powers %(powers)s city",
                "Plant %(number)s: burns %(burns)s %(fuel)s, powers %(powers)s cities",
                card["powers"],
            )
            % values
        )
    return (
        ngettext(
            "Plant %(number)s: %(fuel)s, powers %(powers)s city",
            "Plant %(number)s: %(fuel)s, powers %(powers)s cities",
            card["powers"],
        )
        % values
    )


def tokens_text(tokens: Mapping[Resource, int]) -> str:
    """Tokens in words ("2 coal and 1 oil"), "" for none."""
    return describe.join(
        [describe.resource_count(r, tokens[r]) for r in RESOURCES if tokens.get(r)]
    )


def market_line(card: PlantCard | Step3CardView) -> contexts.PlantLine:
    if "step3" in card:
        return {
            "number": None,
            "fuel": "",
            "burns": 0,
            "powers": 0,
            "tokens": {},
            "stored": "",
            "text": plant_text(card),
        }
    return {
        "number": card["number"],
        "fuel": card["fuel_label"],
        "burns": card["burns"],
        "powers": card["powers"],
        "tokens": {},
        "stored": "",
        "text": plant_text(card),
    }


def owned_line(card: OwnedCard, stored: Mapping[Resource, int]) -> contexts.PlantLine:
    """An owned plant, with the tokens on it (every player's are public)."""
    line = market_line(card)
    on_it = tokens_text(stored)
    if card["burns"]:
        line["text"] = _("%(plant)s; stored: %(tokens)s") % {
            "plant": line["text"],
            "tokens": on_it or _("nothing"),
        }
    return {**line, "tokens": dict(stored), "stored": on_it}


def resource_lines(view: State, legal: LegalMove | None) -> list[contexts.ResourceLine]:
    """Each resource's tokens at each price; ``legal``: the recipient's ``buy_resources`` entry,
    when they buy now (then what buying 1, 2, 3... tokens costs, as far as they may buy)."""
    market = view["resource_market"]
    most: dict[Resource, int] = {}
    if legal is not None and legal["type"] == "buy_resources":
        most = {r: legal["max"][r] for r in RESOURCES}
    out: list[contexts.ResourceLine] = []
    for row in resource_track(market):
        r = row["resource"]
        at = [(sp["price"], len(sp["tokens"])) for sp in row["spaces"] if len(sp["tokens"])]
        prices = join_names(_("price %(p)s: %(n)s") % {"p": p, "n": n} for p, n in at)
        if row["cheapest"] is None:
            text = _("%(label)s: none in the market") % {"label": row["label"]}
        else:
            text = ngettext(
                "%(label)s: %(n)s token, next at %(price)s Elektro (%(prices)s)",
                "%(label)s: %(n)s tokens, next at %(price)s Elektro (%(prices)s)",
                row["count"],
            ) % {
                "label": row["label"],
                "n": row["count"],
                "price": row["cheapest"],
                "prices": prices,
            }
        costs = list(accumulate(market[r][: most.get(r, 0)]))
        out.append(
            {
                "resource": r,
                "label": row["label"],
                "count": row["count"],
                "next_price": row["cheapest"],
                "prices": prices,
                "costs": costs,
                "costs_text": join_names(costs),
                "text": text,
            }
        )
    return out


def player_facts(
    p: Player, names: Mapping[int, str], seat_no: int | None, map_slug: str
) -> contexts.PlayerFacts:
    """One player's public facts (and, for the recipient alone, their money)."""
    plants = [owned_line(owned_card(x), x["stored"]) for x in p["plants"]]
    you = p["seat"] == seat_no
    return {
        "name": names.get(p["seat"], "?"),
        "you": you,
        "cities": len(p["cities"]),
        "city_names": join_names(sorted(describe.city_names(map_slug, list(p["cities"])))),
        "plants": plants,
        # The recipient's own money; another's is null in their view until the end, and not
        # shown here even then (a turn email is for a running game).
        "money": p["money"] if you else None,
    }


def auction_text(view: State, names: Mapping[int, str]) -> str:
    """The auction under way in the words of the game page's market card ("" when none)."""
    auction = view["auction"]
    if not auction:
        return ""

    def who(seat: int) -> str:
        return isolate(names.get(seat, "?"))

    values = {
        "plant": auction["plant"]["number"],
        "bid": auction["high_bid"],
        "who": who(auction["high_bidder"]),
    }
    if auction.get("sealed"):
        said = [_("Sealed auction for plant %(plant)s, opened by %(who)s at %(bid)s.") % values]
        if auction.get("sealed_in"):
            said.append(
                _("Sealed bids in: %(list)s.")
                % {"list": join_names(who(s) for s in auction.get("sealed_in") or [])}
            )
        if auction.get("your_sealed_bid"):
            said.append(_("Your sealed bid: %(bid)s.") % {"bid": auction.get("your_sealed_bid")})
        return " ".join(said)
    bidders = join_names(who(s) for s in auction["bidders"])
    return " ".join(
        [
            _("Auction for plant %(plant)s: %(who)s bids %(bid)s.") % values,
            _("Still bidding: %(list)s.") % {"list": bidders},
        ]
    )


def city_lines(view: State, seat_no: int | None) -> list[contexts.CityCost]:
    """The recipient's cheapest next cities (the board in words' list): all of it in the
    building phase, the first few otherwise."""
    if seat_no is None or view["phase"] == "finished":
        return []
    limit = NEXT_CITIES if view["phase"] == "build" else NEXT_CITIES_BRIEF
    return [
        {
            "slug": c["slug"],
            "name": c["name"],
            "space": c["space"],
            "connection": c["connection"],
            "total": c["total"],
        }
        for c in next_cities(view, seat_no, limit)
    ]


def facts(view: State, names: Mapping[int, str], seat_no: int | None) -> contexts.Facts:
    """The facts of a turn email (see the module's docstring)."""
    market = view["plant_market"]
    buy = next((e for e in view.get("legal") or [] if e["type"] == "buy_resources"), None)
    by_seat = {p["seat"]: p for p in view["players"]}
    ordered = [by_seat[s] for s in view["order"] if s in by_seat]
    me = by_seat.get(seat_no) if seat_no is not None else None
    resources = resource_lines(view, buy)
    return {
        "market_current": [market_line(market_card(p)) for p in market["current"]],
        "market_future": [market_line(market_card(p)) for p in market["future"]],
        "deck_size": view["deck_size"],
        "auction": auction_text(view, names),
        "resources": resources,
        "buying": any(r["costs"] for r in resources),
        "me": player_facts(me, names, seat_no, view["map"]) if me is not None else None,
        "others": [player_facts(p, names, seat_no, view["map"]) for p in ordered if p is not me],
        "next_cities": city_lines(view, seat_no),
        "building": view["phase"] == "build",
    }
