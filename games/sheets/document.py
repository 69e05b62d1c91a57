"""A round sheet (``powergrid.sheet.Sheet``) as the API's and the page's document, and back.

What ``to_document`` writes, ``from_document`` reads unchanged: the read-only keys (``game``,
``due``, ``answered``, ``deadline``, ``phase``, each line's ``reason``, the previews of ``fuel``
and ``auto`` lines) are ignored when read. Anything else wrong is refused with ``InvalidSheet``
(400, ``details.line`` names the line, e.g. ``open[1].max``, and ``details.field`` too, as every
body's refusal names its field) and changes nothing: a key no line has, at any depth, with
``details.allowed`` (a misspelt key is never dropped silently); a sheet for another round is
refused with ``SheetStale`` (409).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from games import engine, numbers
from games.services.errors import ServiceError
from games.sheets import shapes as sheet_shapes
from games.sheets.reasons import reason_text
from powergrid import sheet as sh
from powergrid.plants import PLANTS
from powergrid.state import AUCTION, PHASES, State
from powergrid.tables import RESOURCES

_KEYS = {
    "game",
    "round",
    "phase",
    "due",
    "answered",
    "deadline",
    "open",
    "bids",
    "pass_else",
    "discard",
    "resources",
    "build",
    "power",
}
#: The keys of each line (``reason`` is the server's, ignored when read).
_LINE_KEYS = {
    "open": ("plant", "max", "reason"),
    "bids": ("plant", "max", "reason"),
    "pass_else": ("value", "reason"),
    "discard": ("plant", "reason"),
    "resources": ("mode", "max_price", "amounts", "reason"),
    "build": ("mode", "max_total", "cities", "reason"),
    "power": ("value", "reason"),
}
_ANSWERED = sh.Reason("your_answer")


class InvalidSheet(ServiceError):
    status = 400
    code = "invalid_sheet"
    default_message = "The sheet is not valid."


class SheetStale(ServiceError):
    status = 409
    code = "sheet_stale"
    default_message = "This sheet is for another round: fetch the current one."


def _reason(r: sh.Reason) -> sheet_shapes.SheetReason:
    return {"code": r.code, "params": dict(r.params), "text": reason_text(r)}


def to_document(
    sheet: sh.Sheet,
    *,
    game_id: int,
    due: bool,
    answered: bool,
    deadline: datetime | None = None,
) -> sheet_shapes.Sheet:
    """The sheet as GET returns it (reasons in the active language); ``deadline``: when its
    suggestion plays if it is not answered (while due)."""
    fuel = sheet.fuel
    resources: sheet_shapes.SheetResourcesLine | None = None
    if fuel is not None:
        amounts = fuel.amounts if fuel.amounts is not None else fuel.preview
        resources = {
            "mode": "fuel" if fuel.amounts is None else "buy",
            "max_price": fuel.max_price,
            "amounts": {r: int(amounts[r]) for r in RESOURCES if amounts.get(r)},
            "reason": _reason(fuel.reason),
        }
    b = sheet.build
    build: sheet_shapes.SheetBuildLine | None = None
    if b is not None:
        build = {
            "mode": "auto" if b.cities is None else "cities",
            "max_total": b.max_total,
            "cities": list(b.preview if b.cities is None else b.cities),
            "reason": _reason(b.reason),
        }
    return {
        "game": game_id,
        "round": sheet.round,
        "phase": sheet.phase,
        "due": due,
        "answered": answered,
        "deadline": deadline,
        "open": [
            {"plant": o.plant, "max": o.max, "reason": _reason(o.reason)} for o in sheet.opens
        ],
        "bids": [{"plant": o.plant, "max": o.max, "reason": _reason(o.reason)} for o in sheet.bids],
        "pass_else": {"value": sheet.pass_else, "reason": _reason(sheet.pass_reason)},
        "discard": {"plant": sheet.discard, "reason": _reason(sheet.discard_reason)},
        "resources": resources,
        "build": build,
        "power": {"value": sheet.power, "reason": _reason(sh.Reason("power_best"))},
    }


def retold(doc: sheet_shapes.Sheet) -> sheet_shapes.Sheet:
    """A stored document with its reasons worded again in the active language."""
    out: Any = copy.deepcopy(doc)
    lines: list[Any] = [*out.get("open", []), *out.get("bids", [])]
    lines += [out.get(k) for k in ("pass_else", "discard", "resources", "build", "power")]
    for line in lines:
        if isinstance(line, dict) and isinstance(line.get("reason"), dict):
            r = line["reason"]
            r["text"] = reason_text(sh.Reason(str(r.get("code", "")), r.get("params") or {}))
    return out


def _bad(line: str, message: str, **details: object) -> InvalidSheet:
    return InvalidSheet(f"Line {line}: {message}", details={"line": line, "field": line, **details})


def _int(value: Any, line: str, low: int, high: int) -> int:
    try:
        return numbers.from_json(value, field=line, low=low, high=high)
    except numbers.BadNumber:
        # the line is named once, first ("Line open[0].max: 'open[0].max' must be" named it twice)
        raise _bad(
            line, f"must be a whole number from {low} to {high}.", min=low, max=high
        ) from None


def _obj(value: Any, line: str, keys: tuple[str, ...] = ()) -> Mapping[str, Any]:
    """``value`` as a JSON object whose keys are among ``keys`` (when given)."""
    if not isinstance(value, Mapping):
        raise _bad(line, "must be a JSON object.")
    unknown = sorted(str(k) for k in value if k not in keys) if keys else []
    if unknown:
        raise _bad(
            f"{line}.{unknown[0]}",
            "unknown key; this line takes: " + ", ".join(keys) + ".",
            allowed=sorted(keys),
        )
    return value


def _bool(value: Any, line: str) -> bool:
    if not isinstance(value, bool):
        raise _bad(line, "must be true or false.")
    return value


def _plant_lines(body: Mapping[str, Any], key: str) -> list[tuple[int, int]]:
    raw = body.get(key, [])
    if not isinstance(raw, list) or len(raw) > sh.MAX_LINES:
        raise _bad(key, f"must be a list of at most {sh.MAX_LINES} lines.")
    out: list[tuple[int, int]] = []
    for i, item in enumerate(raw):
        line = _obj(item, f"{key}[{i}]", _LINE_KEYS[key])
        plant = _int(line.get("plant"), f"{key}[{i}].plant", 1, max(PLANTS))
        if plant not in PLANTS:
            raise _bad(f"{key}[{i}].plant", f"there is no plant {plant}.")
        mx = _int(line.get("max"), f"{key}[{i}].max", 0, numbers.INT32_MAX)
        if all(n != plant for n, _ in out):
            out.append((plant, mx))
    return out


def _resources(raw: Any) -> sh.FuelLine | None:
    if raw is None:
        return None
    line = _obj(raw, "resources", _LINE_KEYS["resources"])
    mode = line.get("mode")
    price = _int(line.get("max_price"), "resources.max_price", 0, 1000)
    if mode == "fuel":
        return sh.FuelLine(price, _ANSWERED)
    if mode != "buy":
        raise _bad("resources.mode", "must be 'fuel' or 'buy'.", choices=["fuel", "buy"])
    amounts = _obj(line.get("amounts", {}), "resources.amounts")
    clean: dict[str, int] = {}
    for name, n in amounts.items():
        if name not in RESOURCES:
            raise _bad(f"resources.amounts.{name}", "not a resource: " + ", ".join(RESOURCES))
        count = _int(n, f"resources.amounts.{name}", 0, 24)
        if count:
            clean[name] = count
    return sh.FuelLine(price, _ANSWERED, amounts=clean)


def _build(raw: Any, state: State) -> sh.BuildLine | None:
    if raw is None:
        return None
    line = _obj(raw, "build", _LINE_KEYS["build"])
    mode = line.get("mode")
    total = _int(line.get("max_total"), "build.max_total", 0, 100000)
    if mode == "auto":
        return sh.BuildLine(total, _ANSWERED)
    if mode != "cities":
        raise _bad("build.mode", "must be 'auto' or 'cities'.", choices=["auto", "cities"])
    raw_cities = line.get("cities")
    if not isinstance(raw_cities, list):
        raise _bad("build.cities", "must be a list of city slugs.")
    in_play = engine.map_load(state.map).cities_in(state.areas)
    cities: list[str] = []
    for i, c in enumerate(raw_cities):
        if not isinstance(c, str):
            raise _bad(f"build.cities[{i}]", "must be a city's slug (a JSON string).")
        if c not in in_play:
            raise _bad(f"build.cities[{i}]", f"'{c[:40]}' is not a city in play.")
        if c not in cities:
            cities.append(c)
    return sh.BuildLine(total, _ANSWERED, cities=tuple(cities))


def from_document(body: Any, state: State, seat: int) -> sh.Sheet:
    """The sheet ``seat`` answers with ``body``, checked against ``state`` (its lines for the
    phases already over are ignored: they cannot act)."""
    doc = _obj(body, "sheet")
    unknown = sorted(str(k) for k in doc if k not in _KEYS)
    if unknown:
        raise _bad(
            unknown[0],
            "unknown line; the sheet's lines: " + ", ".join(sorted(_KEYS)),
            allowed=sorted(_KEYS),
        )
    rnd = _int(doc.get("round"), "round", 0, numbers.INT32_MAX)
    if rnd != state.round:
        raise SheetStale(
            f"This sheet is for round {rnd}; the game is in round {state.round}.",
            details={"line": "round", "round": state.round},
        )
    opens = _plant_lines(doc, "open")
    bids = _plant_lines(doc, "bids")
    pass_line = _obj(doc.get("pass_else", {"value": True}), "pass_else", _LINE_KEYS["pass_else"])
    pass_else = _bool(pass_line.get("value", True), "pass_else.value")
    discard_line = _obj(doc.get("discard", {"plant": None}), "discard", _LINE_KEYS["discard"])
    discard = discard_line.get("plant")
    if discard is not None:
        discard = _int(discard, "discard.plant", 1, max(PLANTS))
        if discard not in state.players[seat].plants:
            raise _bad("discard.plant", f"you do not own plant {discard}.")
    power_line = _obj(doc.get("power", {"value": True}), "power", _LINE_KEYS["power"])
    phase = state.phase if state.phase in PHASES else AUCTION
    return sh.Sheet(
        round=rnd,
        phase=phase,
        opens=tuple(sh.OpenLine(n, mx, _ANSWERED) for n, mx in opens),
        bids=tuple(sh.BidLine(n, mx, _ANSWERED) for n, mx in bids),
        pass_else=pass_else,
        pass_reason=_ANSWERED,
        discard=discard,
        discard_reason=_ANSWERED,
        fuel=_resources(doc.get("resources")),
        build=_build(doc.get("build"), state),
        power=_bool(power_line.get("value", True), "power.value"),
    )
