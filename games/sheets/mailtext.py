"""The round sheet as the text of an email, and a reply to it read back (``ok``, or edited lines).

One line a sheet line, in the reply language's style (``games.inbox.parse``: English or Japanese
verbs, names or slugs of cities, full-width digits):

=====================================  ============================================================
``ok`` / ``了解``                      accept the sheet as sent (the suggestion)
``open 13 max 25`` / ``開く 13 上限 25``  open plant 13 when it is your turn to, bid up to 25; the
                                       ``open`` lines of a reply replace the sheet's, in order
``max 20 23`` / ``上限 20 23``         bid up to 23 for plant 20 if another player opens it
``pass yes`` / ``pass no``             none of your plants offered: open no auction (or be asked)
``discard 4`` / ``discard none``       the plant to give up for a plant too many (none: ask)
``fuel max 6`` / ``燃料 上限 6``       the fuel your plants need, each token at most 6
``buy coal 2 max 5``                   exactly 2 coal, each at most 5
``build auto max 40``                  the cheapest cities next to your network, up to 40
``build essen, duisburg max 30``       exactly those cities (all or none), up to 30
``power`` / ``power no``               power with the best choice (or be asked)
=====================================  ============================================================

Every word of every line must be read: a line read only in part is refused, and with it the
whole reply (``SheetLineError``: the line, the first word not understood, the line's right form),
and nothing is saved or played. Words left over (``buy max 5 coal -3``), a number where a word
belongs (``pass 3``) or a word where a number does, a negative number, a field or a line written
twice (``coal 2 coal 3``, two ``buy`` lines, one plant's ``max`` twice), an unknown word: each is
a refusal, never passed over. Spacing, commas, case, full-width digits and the Japanese words
are read as above; ``max N`` may stand anywhere after the verb; ``2 coal``, ``coal 2`` and
``石炭2`` are one amount. The document that results is checked again by ``games.sheets.document``.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from config.words import aside
from games import numbers
from games.inbox.parse import QUOTED_MOST, ParseError, city_lookup, fold, normalize, quoted
from games.sheets import shapes as sheet_shapes
from games.templatetags.names import join_names
from powergrid.maps import GameMap, name_in
from powergrid.plants import NUMBER
from powergrid.shapes import Resource

_CUT = re.compile(
    r"^(>|on\b.*\bwrote|.*(wrote|書きました)[:：]?\s*$|-{2,}|_{8,}|(from|差出人)\s*[:：])",
    re.IGNORECASE,
)
_WORDS = {
    "ok": "ok",
    "okay": "ok",
    "了解": "ok",
    "承認": "ok",
    "open": "open",
    "開く": "open",
    "max": "max",
    "上限": "max",
    "pass": "pass",
    "パス": "pass",
    "discard": "discard",
    "捨てる": "discard",
    "fuel": "fuel",
    "燃料": "fuel",
    "buy": "buy",
    "購入": "buy",
    "build": "build",
    "建設": "build",
    "power": "power",
    "発電": "power",
}
_YES = {"yes", "y", "on", "はい", "する"}
_NO = {"no", "n", "off", "いいえ", "しない"}
_NONE = {"none", "nothing", "なし"}
_AUTO = {"auto", "自動"}
_RES: dict[str, Resource] = {
    "coal": "coal",
    "石炭": "coal",
    "oil": "oil",
    "石油": "oil",
    "garbage": "garbage",
    "ゴミ": "garbage",
    "ごみ": "garbage",
    "uranium": "uranium",
    "ウラン": "uranium",
}


def sheet_lines(doc: sheet_shapes.Sheet, gmap: GameMap, lang: str) -> list[tuple[str, str]]:
    """The sheet as ``(command, reason)`` lines, the commands as a reply may write them."""
    out: list[tuple[str, str]] = []

    def why(line: Any) -> str:
        return str((line.get("reason") or {}).get("text") or "")

    for o in doc["open"]:
        out.append((f"open {NUMBER.get(o['plant'], o['plant'])} max {o['max']}", why(o)))
    for b in doc["bids"]:
        out.append((f"max {NUMBER.get(b['plant'], b['plant'])} {b['max']}", why(b)))
    if doc["phase"] == "auction":
        out.append(("pass yes" if doc["pass_else"]["value"] else "pass no", why(doc["pass_else"])))
        d = doc["discard"]["plant"]
        out.append((f"discard {NUMBER.get(d, d)}" if d else "discard none", why(doc["discard"])))
    res = doc["resources"]
    if res is not None:
        if res["mode"] == "fuel":
            out.append((f"fuel max {res['max_price']}", why(res)))
        else:
            tokens = " ".join(f"{r} {n}" for r, n in res["amounts"].items() if n)
            out.append((f"buy {tokens or 'nothing'} max {res['max_price']}", why(res)))
    build = doc["build"]
    if build is not None:
        if build["mode"] == "auto":
            shown = join_names(name_in(gmap.cities[c], lang) for c in build["cities"])
            reason = why(build) + (f" {aside(shown)}" if shown else "")
            out.append((f"build auto max {build['max_total']}", reason))
        else:
            names = ", ".join(c for c in build["cities"]) or "nothing"
            out.append((f"build {names} max {build['max_total']}", why(build)))
    out.append(("power" if doc["power"]["value"] else "power no", why(doc["power"])))
    return out


def reply_lines(text: str) -> list[str]:
    """The reply's own lines (up to the quoted email or a signature), normalised."""
    out = []
    for raw in text.splitlines():
        line = normalize(raw).strip()
        if not line:
            continue
        if _CUT.search(line):
            break
        out.append(line)
    return out


def _words(line: str) -> list[str]:
    return [w.rstrip(".!?:;。") for w in re.split(r"[\s,、，]+", line) if w.rstrip(".!?:;。")]


def _verb(word: str) -> str | None:
    return _WORDS.get(word.casefold()) or _WORDS.get(word)


def is_sheet_reply(text: str) -> bool:
    """Whether a reply answers the sheet (its first line is ``ok``, an ``open`` or ``fuel``
    line, or a ``build``/``buy`` line with a ``max``): other replies are moves, as before."""
    lines = reply_lines(text)
    if not lines:
        return False
    words = _words(lines[0])
    if not words:
        return False
    verb = _verb(words[0])
    if verb in ("ok", "open", "fuel"):
        return True
    return verb in ("build", "buy") and any(_verb(w) == "max" for w in words[1:])


#: How each line is written, for the answer to a line that could not be read (the sheet's own
#: forms: the email writes its lines so, whatever the reader's language).
EXAMPLES = {
    "ok": "ok",
    "open": "open 13 max 25",
    "max": "max 20 23",
    "pass": "pass yes",
    "discard": "discard 4",
    "fuel": "fuel max 6",
    "buy": "buy coal 2 max 5",
    "build": "build auto max 40",
    "power": "power",
}
#: Lines a reply writes once (``open``, ``max``: once per plant; ``ok`` as often as it likes).
_ONCE = {"pass": "pass", "discard": "discard", "fuel": "resources",
         "buy": "resources", "build": "build", "power": "power"}  # fmt: skip


class SheetLineError(ParseError):
    """A line of a sheet reply not read entirely: ``line`` (as written), ``word`` (the first
    word not understood, "" when something is missing at the end) and ``example`` (the line's
    right form). The whole reply is refused: a line read in part would play what the player did
    not write (``buy max 5 coal -3`` read as "buy nothing")."""

    def __init__(self, line: str, word: str, verb: str | None) -> None:
        self.line, self.word = line, quoted(word)
        self.example = EXAMPLES.get(verb or "") or ", ".join(EXAMPLES.values())
        where = f"“{self.word}” was not understood" if word else "something is missing"
        super().__init__(
            "sheet_line",
            f"In the line “{quoted(line, 2 * QUOTED_MOST)}”, {where}: "
            f"write it like “{self.example}”. Nothing was saved.",
        )


class _Line:
    """One reply line's words, each of which must be used (``done``): a word left over, a
    number where a word belongs or a word where a number does, a field written twice, are
    ``SheetLineError``, never passed over."""

    def __init__(self, line: str, words: list[str], verb: str) -> None:
        self.line, self.words, self.verb = line, words, verb

    def bad(self, word: str) -> SheetLineError:
        return SheetLineError(self.line, word, self.verb)

    def num(self, word: str | None) -> int:
        number = numbers.text_or_none(word, high=9_999_999) if word is not None else None
        if number is None:
            raise self.bad(word or "")
        return number

    def max_apart(self) -> tuple[list[str], int]:
        """The words but ``max N`` (written once, anywhere after the verb), and N."""
        at = [i for i, w in enumerate(self.words) if _verb(w) == "max"]
        if not at:
            raise self.bad("")
        if len(at) > 1:
            raise self.bad(self.words[at[1]])
        i = at[0]
        limit = self.num(self.words[i + 1] if i + 1 < len(self.words) else None)
        return self.words[:i] + self.words[i + 2 :], limit

    def done(self, rest: list[str]) -> None:
        if rest:
            raise self.bad(rest[0])

    def choice(self, words: list[str], yes: set[str], no: set[str]) -> bool:
        """``yes`` or ``no``, alone."""
        if len(words) != 1 or words[0].casefold() not in yes | no:
            raise self.bad(words[0] if words else "")
        return words[0].casefold() in yes


def _cities(ln: _Line, words: list[str], gmap: GameMap) -> list[str]:
    names = city_lookup(gmap)
    out: list[str] = []
    i = 0
    while i < len(words):
        for width in (4, 3, 2, 1):
            key = fold("".join(words[i : i + width]))
            if width <= len(words) - i and key in names and names[key] not in out:
                out.append(names[key])
                i += width
                break
        else:
            raise ln.bad(words[i])  # not a city, or one named twice
    return out


def _resource(word: str) -> Resource | None:
    return next((v for k, v in _RES.items() if fold(k) == fold(word)), None)


def _amounts(ln: _Line, words: list[str]) -> dict[Resource, int]:
    """``coal 2 oil 1``, ``2 coal``, ``石炭2``, or ``nothing`` alone; each resource once."""
    if len(words) == 1 and words[0].casefold() in _NONE:
        return {}
    out: dict[Resource, int] = {}
    i = 0
    while i < len(words):
        w = words[i]
        joined = re.fullmatch(r"([^0-9]+?)([0-9]+)", w)
        if joined and _resource(joined.group(1)):
            name, n, i = _resource(joined.group(1)), ln.num(joined.group(2)), i + 1
        elif _resource(w):
            nxt = words[i + 1] if i + 1 < len(words) else None
            name, n, i = _resource(w), ln.num(nxt), i + 2
        elif numbers.text_or_none(w, high=9_999_999) is not None and i + 1 < len(words):
            name, n, i = _resource(words[i + 1]), ln.num(w), i + 2
            if name is None:
                raise ln.bad(words[i - 1])
        else:
            raise ln.bad(w)
        if name is None or name in out:
            raise ln.bad(w)
        out[name] = n
    return out


def _plant_id(doc: sheet_shapes.Sheet, number: int) -> int:
    """A plant named by its number: the id of the sheet's line for it when there is one (a New
    Power Plants card's id differs from its number), else the number."""
    lines: list[Any] = [*doc["open"], *doc["bids"]]
    return next((ln["plant"] for ln in lines if NUMBER.get(ln["plant"]) == number), number)


class _Reading:
    """The sheet as a reply's lines change it: ``out`` (a copy of the sheet), the ``open`` lines
    read (None: none, the sheet's stand), the plants of the ``max`` lines read, the lines
    written once that were read."""

    def __init__(self, doc: sheet_shapes.Sheet) -> None:
        self.doc = doc
        self.out: sheet_shapes.Sheet = copy.deepcopy(doc)
        self.opens: list[sheet_shapes.SheetOpenLine] | None = None
        self.bids: set[int] = set()
        self.seen: set[str] = set()


def _line_read(ln: _Line, r: _Reading, gmap: GameMap) -> None:
    """Apply one line (every word of it) to ``r``."""
    verb, rest, out = ln.verb, ln.words[1:], r.out
    once = _ONCE.get(verb)
    if once is not None and once in r.seen:
        raise ln.bad(ln.words[0])  # a second buy, build, power, ... line
    r.seen.add(once or "")
    if verb == "ok":
        ln.done(rest)
    elif verb == "open":
        left, mx = ln.max_apart()
        if len(left) != 2:
            raise ln.bad(left[2] if len(left) > 2 else "")
        plant = _plant_id(r.doc, ln.num(left[1]))
        r.opens = r.opens or []
        if any(o["plant"] == plant for o in r.opens):
            raise ln.bad(left[1])  # the same plant opened twice
        r.opens.append({"plant": plant, "max": mx})
    elif verb == "max":
        plant = _plant_id(r.doc, ln.num(rest[0] if rest else None))
        mx = ln.num(rest[1] if len(rest) > 1 else None)
        ln.done(rest[2:])
        if plant in r.bids:
            raise ln.bad(rest[0])  # the same plant's limit twice
        r.bids.add(plant)
        out["bids"] = [b for b in out["bids"] if b["plant"] != plant]
        out["bids"].append({"plant": plant, "max": mx})
    elif verb == "pass":
        out["pass_else"] = {"value": ln.choice(rest, _YES, _NO)}
    elif verb == "discard":
        none = len(rest) == 1 and rest[0].casefold() in _NONE
        gone = None if none else _plant_id(r.doc, ln.num(rest[0] if rest else None))
        ln.done(rest[1:])
        out["discard"] = {"plant": gone}
    elif verb == "fuel":
        left, mx = ln.max_apart()
        ln.done(left[1:])
        out["resources"] = {"mode": "fuel", "max_price": mx, "amounts": {}}
    elif verb == "buy":
        left, mx = ln.max_apart()
        out["resources"] = {"mode": "buy", "max_price": mx, "amounts": _amounts(ln, left[1:])}
    elif verb == "build":
        left, mx = ln.max_apart()
        target = left[1:]
        one = target[0].casefold() if len(target) == 1 else ""
        if not target:
            raise ln.bad("")
        if one in _AUTO:
            out["build"] = {"mode": "auto", "max_total": mx, "cities": []}
        else:
            cities = [] if one in _NONE else _cities(ln, target, gmap)
            out["build"] = {"mode": "cities", "max_total": mx, "cities": cities}
    elif verb == "power":
        out["power"] = {"value": not rest or ln.choice(rest, _YES, _NO)}


def apply_reply(
    text: str, doc: sheet_shapes.Sheet, gmap: GameMap
) -> tuple[sheet_shapes.Sheet, list[str]]:
    """The sheet ``doc`` with the reply's lines applied, and the lines read (for the answer).
    Every word of every line is read, or the whole reply is refused (``SheetLineError``)."""
    r = _Reading(doc)
    read: list[str] = []
    for line in reply_lines(text):
        words = _words(line)
        verb = _verb(words[0]) if words else None
        if verb is None:
            raise SheetLineError(line, words[0] if words else "", None)
        _line_read(_Line(line, words, verb), r, gmap)
        read.append(line)
    if r.opens is not None:
        r.out["open"] = r.opens
    return r.out, read


def what_will_happen(doc: sheet_shapes.Sheet, gmap: GameMap, lang: str) -> list[str]:
    """The answered sheet's lines, for the answer to the reply (commands only)."""
    return [command for command, _why in sheet_lines(doc, gmap, lang)]
