"""The move log in readable sentences, derived from public (spectator) views only.

Entries are kept language-neutral (a kind and its parameters) per game in process memory and
turned into sentences in the reader's language when the page renders.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import selectors
from games.models import Game
from powergrid.maps import load_map
from powergrid.tables import RESOURCES, income

_cache: OrderedDict[int, tuple[int, list[dict[str, Any]]]] = OrderedDict()
_lock = threading.Lock()
_CACHE_SIZE = 256


def _plants(view: dict[str, Any], seat: int) -> set[int]:
    return {p["number"] for p in view["players"][seat]["plants"] if "number" in p}


def describe(move: Any, before: dict[str, Any], after: dict[str, Any]) -> list[dict[str, Any]]:
    """Language-neutral entries for one move (usually one; auctions may add a sale)."""
    a = move.action if isinstance(move.action, dict) else {}
    t = a.get("type")
    seat = move.seat
    base = {"seq": move.seq, "seat": seat, "time": move.created_at, "source": move.source}
    out: list[dict[str, Any]] = []

    def add(kind: str, **params: Any) -> None:
        out.append({**base, "kind": kind, "params": params})

    # Who got a plant with this move (an auction ended).
    sales = []
    for p in after["players"]:
        got = _plants(after, p["seat"]) - _plants(before, p["seat"])
        for n in got:
            auc = before.get("auction")
            if auc and auc["plant"].get("number") == n:
                price = auc["high_bid"] if t != "bid" else a.get("amount")
            else:
                price = a.get("bid")
            sales.append((p["seat"], n, price))
    if t == "choose_plant":
        add("choose_plant", plant=a.get("plant"), bid=a.get("bid"))
    elif t == "bid":
        auc = before.get("auction") or {}
        add("bid", amount=a.get("amount"), plant=(auc.get("plant") or {}).get("number"))
    elif t == "pass_bid":
        auc = before.get("auction") or {}
        add("pass_bid", plant=(auc.get("plant") or {}).get("number"))
    elif t == "pass_auction":
        add("pass_auction")
    elif t == "discard_plant":
        drop = {r: int(v) for r, v in (a.get("drop") or {}).items() if v}
        add("discard_plant", plant=a.get("plant"), drop=drop)
    elif t == "buy_resources":
        bought = {r: int(a.get(r) or 0) for r in RESOURCES if int(a.get(r) or 0) > 0}
        cost = sum(sum(before["resource_market"][r][:n]) for r, n in bought.items())
        add("buy_resources", bought=bought, cost=cost)
    elif t == "build":
        new = [
            c
            for c in after["players"][seat]["cities"]
            if c not in before["players"][seat]["cities"]
        ]
        add("build", cities=new)
    elif t == "power":
        powered = after["powered"][seat] if after.get("powered") else 0
        if after["phase"] == "finished":
            add("power_final", powered=powered)
        else:
            add("power", powered=powered, income=income(powered))
    else:
        add("other", type=str(t))
    for winner, n, price in sales:
        out.append({**base, "seat": winner, "kind": "sale", "params": {"plant": n, "price": price}})
    if after["step"] != before["step"]:
        out.append({**base, "kind": "step", "params": {"step": after["step"]}})
    if after["round"] != before["round"] and after["phase"] != "finished":
        out.append({**base, "kind": "round", "params": {"round": after["round"]}})
    if after["phase"] == "finished" and before["phase"] != "finished":
        out.append({**base, "kind": "finished", "params": {}})
    return out


def entries(game: Game) -> list[dict[str, Any]]:
    """Every entry of the game's log, oldest first (incrementally cached per game)."""
    if game.status == Game.Status.OPEN:
        return []
    with _lock:
        hit = _cache.get(game.pk)
    done, items = hit if hit is not None and hit[0] <= game.seq else (0, [])
    if done < game.seq:
        items = list(items)
        for move, before, after in selectors.game_public_timeline(game, since=done):
            items.extend(describe(move, before, after))
            done = move.seq
        with _lock:
            _cache[game.pk] = (done, items)
            _cache.move_to_end(game.pk)
            while len(_cache) > _CACHE_SIZE:
                _cache.popitem(last=False)
    return items


def resource_name(r: str, n: int) -> str:
    names = {
        "coal": ngettext("%(n)d coal", "%(n)d coal", n),
        "oil": ngettext("%(n)d oil", "%(n)d oil", n),
        "garbage": ngettext("%(n)d garbage", "%(n)d garbage", n),
        "uranium": ngettext("%(n)d uranium", "%(n)d uranium", n),
    }
    return names.get(r, f"%(n)d {r}") % {"n": n}


def _join(items: list[str]) -> str:
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return _("%(list)s and %(last)s") % {"list": _(", ").join(items[:-1]), "last": items[-1]}


def sentence(entry: dict[str, Any], names: dict[int, str], map_slug: str, lang: str) -> str:
    """The entry as a sentence in the active language."""
    p = entry["params"]
    who = names.get(entry["seat"], "?")
    kind = entry["kind"]
    if kind == "choose_plant":
        return _("%(name)s put plant %(plant)s up for auction at %(bid)s.") % {
            "name": who,
            "plant": p["plant"],
            "bid": p["bid"],
        }
    if kind == "bid":
        return _("%(name)s bid %(amount)s for plant %(plant)s.") % {
            "name": who,
            "amount": p["amount"],
            "plant": p["plant"],
        }
    if kind == "pass_bid":
        return _("%(name)s dropped out of the auction for plant %(plant)s.") % {
            "name": who,
            "plant": p["plant"],
        }
    if kind == "pass_auction":
        return _("%(name)s passed: no plant this round.") % {"name": who}
    if kind == "sale":
        return _("%(name)s bought plant %(plant)s for %(price)s.") % {
            "name": who,
            "plant": p["plant"],
            "price": p["price"],
        }
    if kind == "discard_plant":
        if p.get("drop"):
            return _("%(name)s discarded plant %(plant)s and returned %(tokens)s.") % {
                "name": who,
                "plant": p["plant"],
                "tokens": _join([resource_name(r, n) for r, n in p["drop"].items()]),
            }
        return _("%(name)s discarded plant %(plant)s.") % {"name": who, "plant": p["plant"]}
    if kind == "buy_resources":
        if not p["bought"]:
            return _("%(name)s bought no resources.") % {"name": who}
        return _("%(name)s bought %(tokens)s for %(cost)s.") % {
            "name": who,
            "cost": p["cost"],
            "tokens": _join([resource_name(r, n) for r, n in p["bought"].items()]),
        }
    if kind == "build":
        if not p["cities"]:
            return _("%(name)s built nothing.") % {"name": who}
        gmap = load_map(map_slug)
        cities = [
            (gmap.cities[c].name_ja if lang == "ja" else gmap.cities[c].name_en)
            if c in gmap.cities
            else c
            for c in p["cities"]
        ]
        return _("%(name)s built in %(cities)s.") % {"name": who, "cities": _join(cities)}
    if kind == "power":
        return ngettext(
            "%(name)s powered %(n)d city and earned %(income)s.",
            "%(name)s powered %(n)d cities and earned %(income)s.",
            p["powered"],
        ) % {"name": who, "n": p["powered"], "income": p["income"]}
    if kind == "power_final":
        return ngettext(
            "%(name)s powered %(n)d city.", "%(name)s powered %(n)d cities.", p["powered"]
        ) % {"name": who, "n": p["powered"]}
    if kind == "step":
        return _("Step %(step)s begins.") % {"step": p["step"]}
    if kind == "round":
        return _("Round %(round)s begins.") % {"round": p["round"]}
    if kind == "finished":
        return _("The game is over.")
    return _("%(name)s moved.") % {"name": who}
