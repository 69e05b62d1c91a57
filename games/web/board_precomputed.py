"""The board's layout for every map and language, computed once and shipped: the fast path.

Placing the city names clear of each other (``board_layout.place_labels``) and pushing crowded
cities apart (``board_layout.spread``) costs about 0.3 s of CPU per map and language: 2.4 s for
the four maps in two languages, which every web worker paid in its warm-up before its first
request (``config/warmup.py``). A restarted web host with five workers on two cores was ready
after 12-17 s. Both results depend only on the map data and the layout code, so they are
computed here once and kept in ``board_precomputed.json`` beside this file; ``board_svg`` reads
them and computes only what the file lacks (a new map before the file is regenerated).

``tests/games/web/test_board_precomputed.py`` computes every entry the plain way and compares:
after changing a map, a name or the layout code, regenerate with

    .venv/bin/python tools/gen_board_layout.py

This module imports nothing of Django (the file can be written from the engine's data alone).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TypedDict

from .board_layout import Label

PATH = Path(__file__).with_name("board_precomputed.json")

Point = tuple[float, float]


class StoredLabel(TypedDict):
    x: float
    y: float
    anchor: str
    box: list[float]


class StoredMap(TypedDict):
    positions: dict[str, list[float]]
    labels: dict[str, dict[str, StoredLabel]]  # language -> city -> label


@cache
def stored() -> dict[str, StoredMap]:
    try:
        data: dict[str, StoredMap] = json.loads(PATH.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return data


def positions(slug: str) -> dict[str, Point] | None:
    """The stored disc positions of a map's cities, or None when the file has none for it."""
    entry = stored().get(slug)
    if entry is None:
        return None
    return {city: (xy[0], xy[1]) for city, xy in entry["positions"].items()}


def labels(slug: str, lang: str) -> dict[str, Label] | None:
    """The stored name labels of a map in a language, or None when the file has none."""
    entry = stored().get(slug)
    if entry is None or lang not in entry["labels"]:
        return None
    out: dict[str, Label] = {}
    for city, lab in entry["labels"][lang].items():
        x0, y0, x1, y1 = lab["box"]
        out[city] = Label(x=lab["x"], y=lab["y"], anchor=lab["anchor"], box=(x0, y0, x1, y1))
    return out
