"""The sheet as a plain HTML form (the game page's sheet card, no JavaScript) and back: a form's
fields become the same document the API takes (``games.sheets.document``), so one reader checks
every channel.

Fields: ``round``; ``open_plant_<i>``/``open_max_<i>`` and ``bid_plant_<i>``/``bid_max_<i>``
(a row left empty is no line); ``pass_else`` and ``power`` (checkboxes); ``discard`` (a plant,
or empty: ask); ``res_mode`` (fuel/buy), ``res_limit``, ``res_<resource>``; ``build_mode``
(auto/cities), ``build_limit``, ``build_cities`` (city names or slugs, comma-separated, in
either language).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from games import engine, numbers
from powergrid.maps import name_in
from powergrid.state import State
from powergrid.tables import RESOURCES

#: Empty rows the form offers for lines to add.
SPARE_ROWS = 2
_SPLIT = re.compile(r"[,、，]\s*|\s+and\s+|\s*と\s*")


def _num(post: Mapping[str, Any], name: str) -> Any:
    """A form's number as the document's JSON integer, read by ``games.numbers`` (ASCII digits
    only: ``str.isdigit()`` is true for ``"²"``, which ``int()`` refuses, and for ``"٣"``, which
    it reads); anything else is passed on unchanged so the document's reader refuses it and
    names the line."""
    raw = str(post.get(name, "")).strip()
    if raw == "":
        return None
    try:
        return numbers.from_text(raw, field=name, low=0, high=numbers.INT32_MAX)
    except numbers.BadNumber:
        return raw


def city_slugs(state: State, text: str) -> list[str]:
    """City slugs from ``text``: names (English or Japanese, any case) or slugs, separated by
    commas (or 、 or "and"). An unknown name is kept as written, for the reader to refuse."""
    board = engine.map_load(state.map)
    by_name: dict[str, str] = {}
    for slug in board.cities_in(state.areas):
        by_name[slug.lower()] = slug
        city = board.cities[slug]
        for lang in ("en", "ja"):
            by_name[name_in(city, lang).lower()] = slug
    out = []
    for part in _SPLIT.split(text.strip()):
        word = part.strip().lower()
        if word:
            out.append(by_name.get(word, by_name.get(word.replace(" ", "-"), part.strip())))
    return out


def _filled(post: Mapping[str, object], prefix: str) -> list[int]:
    """The form's rows of ``prefix`` that say something, by their number on the form (a row
    left empty is no line: the document's line ``j`` is the ``j``-th of these)."""
    out: list[int] = []
    for i in range(40):
        if _num(post, f"{prefix}_plant_{i}") is None and _num(post, f"{prefix}_max_{i}") is None:
            if f"{prefix}_plant_{i}" not in post:
                break
            continue
        out.append(i)
    return out


def _rows(post: Mapping[str, Any], prefix: str) -> list[dict[str, Any]]:
    return [
        {"plant": _num(post, f"{prefix}_plant_{i}"), "max": _num(post, f"{prefix}_max_{i}")}
        for i in _filled(post, prefix)
    ]


_ROW_LINE = re.compile(r"^(open|bids)\[(\d+)\](?:\.(plant|max))?$")
_FIELDS = {
    "pass_else": "pass_else",
    "pass_else.value": "pass_else",
    "discard": "discard",
    "discard.plant": "discard",
    "power": "power",
    "power.value": "power",
    "resources": "res_mode",
    "resources.mode": "res_mode",
    "resources.amounts": "res_mode",
    "resources.max_price": "res_limit",
    "build": "build_mode",
    "build.mode": "build_mode",
    "build.max_total": "build_limit",
    "build.cities": "build_cities",
}


def field_of(post: Mapping[str, object], line: str) -> str:
    """The form's field a refusal's line names (``details.line`` of ``games.sheets.document``:
    ``open[1].max`` is the second open row that says something), "" for none of the form's."""
    row = _ROW_LINE.match(line)
    if row:
        prefix = "open" if row.group(1) == "open" else "bid"
        filled = _filled(post, prefix)
        j = int(row.group(2))
        return f"{prefix}_{row.group(3) or 'plant'}_{filled[j]}" if j < len(filled) else ""
    if line.startswith("resources.amounts."):
        name = line.removeprefix("resources.amounts.")
        return f"res_{name}" if name in RESOURCES else "res_mode"
    if line.startswith("build.cities"):
        return "build_cities"
    return _FIELDS.get(line, "")


def document_from_post(post: Mapping[str, Any], state: State) -> dict[str, Any]:
    """The sheet document the form's fields say (checked by ``document.from_document``)."""
    doc: dict[str, Any] = {
        "round": _num(post, "round"),
        "open": _rows(post, "open"),
        "bids": _rows(post, "bid"),
        "pass_else": {"value": post.get("pass_else") == "on"},
        "discard": {"plant": _num(post, "discard")},
        "power": {"value": post.get("power") == "on"},
        "resources": None,
        "build": None,
    }
    if post.get("res_mode"):
        doc["resources"] = {
            "mode": post.get("res_mode"),
            "max_price": _num(post, "res_limit"),
            "amounts": {r: _num(post, f"res_{r}") or 0 for r in RESOURCES},
        }
    if post.get("build_mode"):
        doc["build"] = {
            "mode": post.get("build_mode"),
            "max_total": _num(post, "build_limit"),
            "cities": city_slugs(state, str(post.get("build_cities", ""))),
        }
    return doc
