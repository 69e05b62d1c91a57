"""Moves in words: the one place that turns the engine's log entries and ``legal`` entries into
sentences in the reader's language, for the move log page, the emails and the history.

The engine says what happened (``powergrid.describe.move_entries``: a kind and parameters, from
public views) and which English sentence fits (``powergrid.actions``); this module translates the
sentence with the catalogue and fills in names (seats, cities, resources) in the active language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from games import engine
from games.log import Item
from games.templatetags.names import join_names
from powergrid.actions import ACTIONS
from powergrid.describe import Entry, sentence
from powergrid.helpers import Refuel
from powergrid.maps import load_map, name_in
from powergrid.shapes import ResultRow
from powergrid.state import FIRST_GAME, HOUSE_RULES, MIXED_DECK, NEW_DECK, PHASES
from powergrid.tables import RESOURCES, market_prices
from powergrid.text import Sentence

#: Moves not made by the player themselves, as the log and the emails mark them.
SOURCE_NOTES = {
    "timeout": lambda: _("time ran out: the server moved"),
    "bot": lambda: _("played by a bot"),
    "plan": lambda: _("made by a plan"),
    "sheet": lambda: _("made by a round sheet"),
}


def source_note(source: str | None) -> str:
    """A short note for a move the player did not make themselves ("" for their own)."""
    note = SOURCE_NOTES.get(source or "")
    return note() if note else ""


def entry_note(entry: Item) -> str:
    """The note of one log entry, by who it is by (``games.log.describe``: the player, their plan,
    the bot in their seat, the deadline's default, or the game, which has none)."""
    return source_note(entry["by"])


def phase_label(phase: str) -> str:
    """A phase's name in the active language ("Buying resources")."""
    label = PHASES.get(phase)
    return _(label[0]) if label else phase


def phase_describe(phase: str) -> str:
    """A phase's name with its number in the rules ("Buying resources (phase 3)")."""
    label = PHASES.get(phase)
    if label is None or label[1] is None:
        return phase_label(phase)
    return _("%(label)s (phase %(n)s)") % {"label": _(label[0]), "n": label[1]}


def resource_count(r: str, n: int) -> str:
    """``n`` tokens of resource ``r`` in words ("2 coal")."""
    # One lookup, of the resource asked for (each msgid written out, for the catalogue).
    names = {
        "coal": lambda: ngettext("%(n)d coal", "%(n)d coal", n),
        "oil": lambda: ngettext("%(n)d oil", "%(n)d oil", n),
        "garbage": lambda: ngettext("%(n)d garbage", "%(n)d garbage", n),
        "uranium": lambda: ngettext("%(n)d uranium", "%(n)d uranium", n),
    }
    said = names.get(r)
    return (said() if said else f"%(n)d {r}") % {"n": n}


def fuel_label(plan: Refuel, *, more: bool = False) -> str:
    """The one-tap choice that buys the fuel some cities need (``powergrid.helpers.Refuel``),
    with its price on it ("Buy fuel for your 2 cities: 2 coal for 3 Elektro"); ``more``: for the
    cities one may have after this round's build."""
    what = join([resource_count(r, n) for r, n in plan.amounts.items() if n])
    values = {"n": plan.cities, "what": what, "cost": plan.cost}
    if more:
        return (
            ngettext(
                "Buy fuel for %(n)d city, if you build this round: %(what)s for %(cost)d Elektro",
                "Buy fuel for %(n)d cities, if you build this round: %(what)s for %(cost)d Elektro",
                plan.cities,
            )
            % values
        )
    return (
        ngettext(
            "Buy fuel for your %(n)d city: %(what)s for %(cost)d Elektro",
            "Buy fuel for your %(n)d cities: %(what)s for %(cost)d Elektro",
            plan.cities,
        )
        % values
    )


def join(items: list[str]) -> str:
    """ "a, b and c" in the active language."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return _("%(list)s and %(last)s") % {"list": _(", ").join(items[:-1]), "last": items[-1]}


def city_names(map_slug: str, cities: list[str], lang: str | None = None) -> list[str]:
    """City slugs as names in the reader's language (unknown slugs as they are)."""
    try:
        gmap = load_map(map_slug)
    except (KeyError, ValueError, OSError):
        return list(cities)
    lang = lang or get_language()
    return [name_in(gmap.cities[c], lang) if c in gmap.cities else c for c in cities]


class _Params(dict[str, object]):
    """Parameters that name a missing one "?" instead of failing (an old move's action)."""

    def __missing__(self, key: str) -> str:
        return "?"


def _say(said: Sentence, params: Mapping[str, object]) -> str:
    return _(said.choose(params)) % _Params(params)


def move_describe(
    entry: Entry,
    names: Mapping[int, str],
    map_slug: str,
    lang: str | None = None,
) -> str:
    """One log entry as a sentence in the active language.

    ``names`` maps seats to display names; cities are named in ``lang`` (default: the active
    language), tokens are counted in words, lists joined as the language joins them."""
    given = entry["params"]
    params: dict[str, object] = dict(given)
    seat = entry["seat"]
    params["name"] = names.get(seat, "?") if seat is not None else ""
    if "tokens" in given:
        params["tokens"] = join([resource_count(r, n) for r, n in given["tokens"].items()])
    if "cities" in given:
        params["cities"] = join(city_names(map_slug, given["cities"], lang))
    return _say(sentence(entry), params)


def legal_describe(legal: Sequence[Mapping[str, object]]) -> list[str]:
    """What is asked of a player, one sentence per kind of move they may send now (the entries
    of ``powergrid.legal``, whose keys differ by type: read as a mapping, each narrowed)."""
    out = []
    for entry in legal or []:
        spec = ACTIONS.get(str(entry.get("type")))
        if spec is None:
            continue
        plants = entry.get("plants")
        cities = entry.get("cities")
        params: dict[str, object] = {
            "plants": join_names(p.get("number") for p in plants if isinstance(p, dict))
            if isinstance(plants, list)
            else "",
            "min": entry.get("min"),
            "n": len(cities) if isinstance(cities, dict | list) else 0,
        }
        out.append(_say(spec.asked(entry), params))
    return out


def map_rules_describe(map_slug: str, lang: str | None = None) -> list[str]:
    """A map's own set-up rules in sentences of the reader's language (empty for a map that plays
    the base game's set-up): what the lobby shows beside the map."""
    rules = engine.map_rules(map_slug)
    base = engine.map_rules("")
    gmap = load_map(map_slug)
    out = []
    for i, r in enumerate(RESOURCES):
        if rules.starting_market[i] != base.starting_market[i]:
            prices = market_prices(i, rules.starting_market[i])
            out.append(
                _("%(resource)s starts at price %(price)s (%(n)s tokens in the market).")
                % {"resource": resource_label(r), "price": prices[0], "n": len(prices)}
            )
    if rules.top_plant != base.top_plant:
        out.append(
            _("Plant %(top)s goes on top of the deck instead of %(usual)s.")
            % {"top": rules.top_plant, "usual": base.top_plant}
        )
    for n in engine.removed_plants(map_slug):
        out.append(_("Plant %(n)s is out of the game.") % {"n": n})
    for a in sorted(gmap.required_areas):
        out.append(_("The %(area)s area must be in play.") % {"area": name_in(gmap.areas[a], lang)})
    return out


def game_rules_describe(
    *, variant: str, plant_deck: str, edition: int | None = None, short: bool = False
) -> list[str]:
    """What a game plays that differs from the published base game, in the reader's language:
    the variant (a house rule named as one), the plant deck, and an older rules edition. The
    lobby's list shows the ``short`` words; the game page and the result the sentences.

    The one place these are worded, so the lobby, the game page and the result say the same."""
    out = []
    if variant == FIRST_GAME:
        out.append(_("first game") if short else _("First-game variant."))
    elif variant in HOUSE_RULES:  # the sealed-bid auction, the one house rule today
        out.append(
            _("house rule: sealed bids")
            if short
            else _("House rule: sealed-bid auctions (the published rules never hide a bid).")
        )
    if plant_deck == NEW_DECK:
        out.append(_("New Power Plants deck") if short else _("New Power Plants deck alone."))
    elif plant_deck == MIXED_DECK:
        out.append(
            _("New Power Plants mixed with the base deck")
            if short
            else _("New Power Plants mixed with the base game's plants.")
        )
    if edition is not None and edition < engine.LATEST_EDITION and not short:
        out.append(
            _(
                "Played by the first edition of this site's rules: at most 22 cities each, and "
                "on France without plant 13."
            )
        )
    return out


def resource_label(r: str) -> str:
    """A resource's name, capitalised, in the active language."""
    return {"coal": _("Coal"), "oil": _("Oil"), "garbage": _("Garbage"), "uranium": _("Uranium")}[r]


def plant_name(number: int | str) -> str:
    """A power plant named to a reader: "plant 13" (「発電所13」), never the bare number, which a
    screen reader reads out as just "thirteen". The one place that says it: the page's forms,
    market and players' plants (``{{ n|plant_name }}``, ``{{ n|plant_number }}``), the plans'
    and the round sheet's lists and the emails' market tables all name plants through it."""
    return _("plant %(n)s") % {"n": number}


def winners_describe(result: Sequence[ResultRow] | None, names: Mapping[int, str]) -> str:
    """Who won a finished game, in a sentence ("" before the end): most cities powered wins;
    a tie on them is broken by money, then (except in a first game) by the cities connected
    (``powergrid.phases.build.rank_key``, shared/RULES.md). A tie the rules leave standing: the
    winners together.

    ``result``: the state's ``result`` (per seat: ``powered``, ``money``, ``cities``, ``rank``)."""
    rows = list(result or [])
    top = [r for r in rows if r["rank"] == 1]
    if not top:
        return ""
    won = join([names.get(r["seat"], "?") for r in top])
    if len(top) > 1:
        return _("%(names)s won together (a tie the rules do not break).") % {"names": won}
    best = top[0]
    level = [r for r in rows if r["rank"] > 1 and r["powered"] == best["powered"]]
    if not level:
        return _("%(name)s won.") % {"name": won}
    if all(r["money"] < best["money"] for r in level):
        return _("%(name)s won: a tie on cities powered, broken by money.") % {"name": won}
    return _("%(name)s won: a tie on cities powered and money, broken by the cities connected.") % {
        "name": won
    }
