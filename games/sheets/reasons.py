"""A sheet line's reason (``powergrid.sheet.Reason``: a code and its parameters) in words, in
the active language. The engine gives codes so that the server words them in English and
Japanese; an unknown code (a newer engine) is shown as nothing rather than as a code."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django.utils.translation import gettext as _

from powergrid.plants import NUMBER
from powergrid.sheet import Reason

Params = Mapping[str, int | str]


def _plant(p: Params) -> int:
    return NUMBER.get(int(p.get("plant", 0)), int(p.get("plant", 0)))


_TEXTS: dict[str, Callable[[Params], str]] = {
    "open_best": lambda p: (
        _("the best plant for you now: it powers %(cities)s cities")
        % {"cities": p.get("cities", 0)}
    ),
    "open_fallback": lambda p: (
        _("choice %(rank)s, if the ones above are gone") % {"rank": p.get("rank", 0)}
    ),
    "open_if_drawn": lambda p: (
        _("choice %(rank)s, if plant %(plant)s is drawn into the market this round")
        % {"rank": p.get("rank", 0), "plant": _plant(p)}
    ),
    "open_first_round": lambda p: _("everyone buys a plant in round 1"),
    "bid_valuation": lambda p: _("what plant %(plant)s is worth to you") % {"plant": _plant(p)},
    "bid_if_drawn": lambda p: (
        _("what plant %(plant)s is worth to you, if it is drawn into the market this round")
        % {"plant": _plant(p)}
    ),
    "pass_else": lambda p: _("if none of your plants is offered, open no auction"),
    "pass_enough_capacity": lambda p: (
        _("your plants already power more than your %(cities)s cities")
        % {"cities": p.get("cities", 0)}
    ),
    "discard_none": lambda p: _("you have room for another plant"),
    "discard_weakest": lambda p: _("plant %(plant)s is your weakest") % {"plant": _plant(p)},
    "fuel_for_plants": lambda p: (
        _("fuel for your plants: %(tokens)s tokens at today's prices")
        % {"tokens": p.get("tokens", 0)}
    ),
    "fuel_nothing": lambda p: _("your plants hold the fuel they need"),
    "build_cheapest": lambda p: (
        _("the %(count)s cheapest cities next to your network (%(total)s Elektro today)")
        % {"count": p.get("count", 0), "total": p.get("total", 0)}
    ),
    "build_nothing": lambda p: _("keep your money: more cities than your plants power do not pay"),
    "power_best": lambda p: _("the choice that earns the most"),
    "your_answer": lambda p: _("as you answered"),
}


def reason_text(reason: Reason) -> str:
    """The reason in words (the active language)."""
    text = _TEXTS.get(reason.code)
    return text(reason.params) if text is not None else ""
