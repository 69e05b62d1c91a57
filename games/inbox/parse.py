"""Reading a reply email as a move: a small, forgiving language in English and Japanese.

Only the reply's first line that is not quoted counts, above or below the quoted email (quoted
``>`` lines and ``On … wrote:`` headers are passed over; Outlook's ``-----Original Message-----``
and ``From:`` blocks and signatures after ``--`` end the reply; an HTML-only mail is read as its
text). Full-width characters are read as their ASCII
forms, case and accents do not matter, commas may separate words, a sentence's closing
punctuation is ignored (``Pass.``, ``bid 15.``), and a verb may be written with no space before
what follows (``入札15``, ``建設エッセン``).

=====================================  =====================================================
``pass`` / ``パス``                    pass (the auction, a bid; buy or build nothing)
``bid 15`` / ``入札 15``               bid (a sealed bid in the sealed-bid variant)
``choose 13 bid 15`` / ``選択 13 15``  put plant 13 up for auction at 15 (bid: its number)
``buy 2 coal 1 oil`` / ``購入 石炭2``  buy resources (``buy nothing``: none)
``build essen duisburg`` / ``建設 …``  build in cities: names or slugs, English or Japanese
``power`` / ``power 4 13`` / ``発電``  the best choice, or those plants (``power nothing``: none)
``discard 3`` / ``捨てる 3``           discard a plant after buying one too many
``max 13 20`` / ``上限 13 20``         plan: a maximum bid of 20 for plant 13
``max 13 20 discard 4``                the same; if winning 13 is one plant too many, give up 4
``autopass`` / ``自動パス``            plan: pass every auction for the rest of the round
``resign`` / ``投了``                  leave the game: the bot plays the seat, offered to
                                       substitutes (``games.services.seats``); by email in two
                                       steps, ``resign`` then ``resign`` to the answer
                                       (``games.inbox.receive``)
=====================================  =====================================================

>>> from games import engine
>>> import powergrid
>>> s = powergrid.new_game(map="germany", players=3, seed=1)
>>> seat = powergrid.to_act(s)[0]
>>> parse_command("Choose ３ bid 4", s, seat, engine.map_load("germany"))
Command(kind='move', body={'type': 'choose_plant', 'plant': 3, 'bid': 4})
>>> parse_command("投了", s, seat, engine.map_load("germany"))
Command(kind='resign', body={})
>>> parse_command("Resign.", s, seat, engine.map_load("germany"))
Command(kind='resign', body={})
"""

from __future__ import annotations

import functools
import re
import unicodedata
from email.message import EmailMessage, Message
from html.parser import HTMLParser
from typing import Any, NamedTuple

from config.words import cut
from games import numbers
from powergrid.legal import legal
from powergrid.maps import GameMap
from powergrid.state import State

#: The line a mail client writes above the text it quotes ("On Mon, … wrote:", Japanese
#: clients' "2026年11月25日(水) 10:00 … :"): passed over, with the ``>`` lines below it.
_QUOTE_HEADER = re.compile(
    r"^on\b.*\bwrote:?$|^.*(wrote|schrieb|a écrit|書きました|のメッセージ)[:：]?\s*$"
    r"|^\d{4}年\d{1,2}月\d{1,2}日.*[:：]\s*$",
    re.IGNORECASE,
)
#: How such a header begins, when a client wraps it over lines ("On Mon, 30 Nov 2026 at 10:00,
#: Power Grid <" then "turn+…@reply.example> wrote:"): no command begins so.
_HEADER_START = re.compile(r"^on\b|^\d{4}年", re.IGNORECASE)
_HEADER_END = re.compile(r"[:：]\s*$")
#: Where a reply's own text ends: a signature, a forwarded or original message below.
_CUT = [
    re.compile(p, re.IGNORECASE)
    for p in (
        r"^-{2,}\s*(original message|forwarded message|元のメッセージ)",
        r"^_{8,}$",
        r"^(from|差出人|送信者)\s*[:：]",
        r"^--\s*$",
        r"^sent from my",
    )
]

_RESOURCES = {
    "coal": "coal",
    "石炭": "coal",
    "oil": "oil",
    "石油": "oil",
    "garbage": "garbage",
    "trash": "garbage",
    "ゴミ": "garbage",
    "ごみ": "garbage",
    "廃棄物": "garbage",
    "uranium": "uranium",
    "ウラン": "uranium",
}
_VERBS = {
    "pass": "pass",
    "パス": "pass",
    "bid": "bid",
    "入札": "bid",
    "choose": "choose",
    "選択": "choose",
    "選ぶ": "choose",
    "buy": "buy",
    "購入": "buy",
    "買う": "buy",
    "build": "build",
    "建設": "build",
    "建てる": "build",
    "power": "power",
    "発電": "power",
    "discard": "discard",
    "捨てる": "discard",
    "max": "max",
    "上限": "max",
    "autopass": "autopass",
    "auto-pass": "autopass",
    "自動パス": "autopass",
    "resign": "resign",
    "投了": "resign",
    "退出": "resign",
}
_NOTHING = {"nothing", "none", "0", "なし", "何もしない"}
#: The verbs, longest first: a verb written with no space before what follows (``入札15``).
_VERBS_LONGEST = sorted(_VERBS, key=len, reverse=True)
#: Punctuation a sentence ends a word with (``Pass.``, ``bid 15.``, ``Bid:``, ``パス。``).
_TRAILING = ".!?:;。"


#: The most of a reply's own words an answer quotes back: enough to recognise what was
#: written, never the reply itself (a 900,000-character "word" was quoted whole, in a 1.8 MB
#: answer carrying the sender's text).
QUOTED_MOST = 40


def quoted(text: str, most: int = QUOTED_MOST) -> str:
    """``text`` as an answer quotes it: at most ``most`` characters (``config.words.cut``).

    >>> len(quoted("x" * 100))
    40
    """
    return cut(text, most)


class ParseError(Exception):
    """The reply is not a move: ``code`` (``unreadable``, ``unknown_command``, ``bad_number``,
    ``unknown_city``, ``unknown_resource``, ``nothing_to_pass``) and a sentence."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Command(NamedTuple):
    """A move (``kind`` "move", ``body`` an action), a plan (``kind`` "plan", a plan's JSON), or
    leaving the game (``kind`` "resign", no body)."""

    kind: str
    body: dict[str, Any]


# -- the text of a reply ---------------------------------------------------------------------


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if tag in ("style", "script", "head"):
            self.skip += 1
        if tag in ("br", "p", "div", "li", "tr", "blockquote"):
            self.parts.append("\n")
        if tag == "blockquote":
            self.parts.append("> ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script", "head") and self.skip:
            self.skip -= 1
        if tag in ("p", "div"):
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def html_text(html: str) -> str:
    """An HTML body's text, a blockquote's lines marked as quoted."""
    p = _Text()
    try:
        p.feed(html)
        p.close()
    except Exception:  # html.parser raises on some markup ("<![foo bar": AssertionError)
        # what was read before the odd markup (the reply's top), else the tags dropped
        return "".join(p.parts) or re.sub(r"<[^>]*>?", "\n", html)
    return "".join(p.parts)


def _part_text(part: Message) -> str | None:
    """One part's text in the charset it names; none named, or one Python does not know
    (``x-nonexistent``, a misspelling), read as UTF-8, which also reads ASCII: a ``pass`` is
    still a ``pass`` whatever label a client put on it."""
    charset = part.get_content_charset()
    if isinstance(part, EmailMessage) and charset:
        try:
            return str(part.get_content())
        except LookupError:
            pass
    raw = part.get_payload(decode=True)
    if not isinstance(raw, bytes):
        return None
    try:
        return raw.decode(charset or "utf-8", "replace")
    except LookupError:
        return raw.decode("utf-8", "replace")


def body_text(msg: Message) -> str:
    """A message's plain text: its text/plain part, else its HTML part's text."""
    plain = html = None
    for part in msg.walk() if msg.is_multipart() else [msg]:
        if part.get_content_maintype() == "multipart":
            continue
        if part.get_content_disposition() == "attachment":
            continue
        kind = part.get_content_type()
        try:
            content = _part_text(part)
        except (UnicodeDecodeError, AttributeError, KeyError, ValueError):
            continue
        if not isinstance(content, str):
            continue
        if kind == "text/plain" and plain is None:
            plain = content
        elif kind == "text/html" and html is None:
            html = content
    if plain is not None and plain.strip():
        return plain
    return html_text(html) if html else ""


def reply_line(text: str) -> str:
    r"""The reply's first line that is its own (not quoted, not a signature), normalised.

    A reply written above the quoted email (top-posting) is read from its top, as the emails
    ask; one written below it (bottom-posting, or between quoted lines) is read too: the quote's
    header (``On … wrote:``, even wrapped over two or three lines) and its ``>`` lines are passed
    over. Anything after a signature or a forwarded/original-message block is never read, so
    the turn email's own words are never taken for a move.

    >>> reply_line("bid 15\n\nOn Mon, Power Grid wrote:\n> Your turn")
    'bid 15'
    >>> reply_line("On Mon, 30 Nov 2026 at 10:00, Power Grid <\nturn+x@reply.example> wrote:\n"
    ...            "> Your turn\n>\n\npass\n\n-- \nKen")
    'pass'
    """
    lines = [normalize(raw).strip() for raw in text.splitlines()]
    skip = 0
    for i, line in enumerate(lines):
        if skip:
            skip -= 1
            continue
        if not line or line.startswith(">") or _QUOTE_HEADER.search(line):
            continue
        if _HEADER_START.search(line):
            wrapped = _until_blank(lines[i + 1 : i + 3])
            ends = [k for k, later in enumerate(wrapped) if _HEADER_END.search(later)]
            if ends:  # a quote's header wrapped over two or three lines: all of them
                skip = ends[0] + 1
                continue
        if any(p.search(line) for p in _CUT):
            break
        return line
    raise ParseError("unreadable", "No move was found at the top of the reply.")


def _until_blank(lines: list[str]) -> list[str]:
    """``lines`` up to the first blank one: a wrapped header's lines follow each other."""
    out: list[str] = []
    for line in lines:
        if not line:
            break
        out.append(line)
    return out


# -- the command ---------------------------------------------------------------------------


def fold(text: str) -> str:
    """Lowercase, accents and punctuation gone: ``"Lübeck"`` → ``"lubeck"``."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return re.sub(r"[\s\-_.'’・()]", "", unicodedata.normalize("NFKC", bare))


#: The largest number a reply may name (the engine's bound on any number, powergrid.fields).
NUMBER_MAX = 100_000


def _int(word: str, what: str, high: int = NUMBER_MAX) -> int:
    """A number of the reply (``games.numbers``: ASCII digits, as full-width digits become
    after ``normalize``; other scripts' digits, superscripts and circled digits are not)."""
    try:
        return numbers.from_text(word, field=what, low=0, high=high)
    except numbers.BadNumber:
        raise ParseError(
            "bad_number", f"{what} must be a whole number from 0 to {high}, not {quoted(word)!r}."
        ) from None


#: Characters that are numbers but neither ASCII nor full-width digits (other scripts' digits,
#: super- and subscripts, circled and parenthesised numbers, fractions, Roman numerals): NFKC
#: would turn some into ASCII digits ("²" -> "2", "①" -> "1"), a number nobody typed.
_FOREIGN_NUMBER = re.compile(r"[^\x00-\x7f\uff10-\uff19]")


def normalize(text: str) -> str:
    """NFKC (full-width letters and digits become ASCII, half-width kana full), except for the
    characters that are numbers of another kind: they stay as written, and are refused as
    numbers (``_int``)."""
    out: list[str] = []
    start = 0
    for i, ch in enumerate(text):
        if _FOREIGN_NUMBER.match(ch) and unicodedata.category(ch)[0] == "N":
            out.append(unicodedata.normalize("NFKC", text[start:i]))
            out.append(ch)
            start = i + 1
    out.append(unicodedata.normalize("NFKC", text[start:]))
    return "".join(out)


@functools.lru_cache(maxsize=32)
def city_lookup(gmap: GameMap) -> dict[str, str]:
    """Every way a city may be written (slug, English, Japanese, folded) → its slug (once per
    map: maps are loaded once and never change)."""
    out: dict[str, str] = {}
    for slug, city in gmap.cities.items():
        for name in (slug, city.name_en, city.name_ja, *_local_forms(city.name_en)):
            if name:
                out[fold(name)] = slug
    return out


def _local_forms(name: str) -> list[str]:
    """How a player writes a name the map qualifies in brackets: the town's own name.

    >>> _local_forms("Frankfurt (Main)")[:3]
    ['Frankfurt am Main', 'Frankfurt an der Main', 'Frankfurt a. M.']
    >>> _local_forms("Essen")
    []
    """
    m = re.fullmatch(r"(.+?)\s*\((.+)\)", name)
    if not m:
        return []
    base, river = m.groups()
    initial = river[0]
    return [
        f"{base} am {river}",
        f"{base} an der {river}",
        f"{base} a. {initial}.",
        f"{base} a. d. {initial}.",
        f"{base}/{river}",
    ]


def _cities(words: list[str], gmap: GameMap) -> list[str]:
    names = city_lookup(gmap)
    out: list[str] = []
    i = 0
    while i < len(words):
        for width in (4, 3, 2, 1):  # "frankfurt an der oder" before "frankfurt"
            key = fold("".join(words[i : i + width]))
            if width <= len(words) - i and key in names:
                out.append(names[key])
                i += width
                break
        else:
            raise ParseError(
                "unknown_city", f"There is no city called {quoted(words[i])!r} on this map."
            )
    return out


_ASCII_DIGITS = frozenset("0123456789")
#: More tokens than any market holds of one resource.
TOKENS_MAX = 24


def _resources(words: list[str]) -> dict[str, int]:
    """``2 coal 1 oil``, ``coal 2``, ``石炭2`` → ``{"coal": 2, "oil": 1}``."""
    out: dict[str, int] = {}
    pending: int | None = None
    last: str | None = None
    for w in words:
        m = re.fullmatch(r"([^0-9]+?)([0-9]+)", w)
        if m and fold(m.group(1)) in {fold(k) for k in _RESOURCES}:
            name = next(v for k, v in _RESOURCES.items() if fold(k) == fold(m.group(1)))
            out[name] = out.get(name, 0) + _int(m.group(2), "A number of tokens", TOKENS_MAX)
            continue
        if w[:1] in _ASCII_DIGITS or unicodedata.category(w[:1] or " ")[0] == "N":
            n = _int(w, "A number of tokens", TOKENS_MAX)
            if last is not None and pending is None:
                out[last] = out.get(last, 0) + n
                last = None
            else:
                pending = n
            continue
        found = next((v for k, v in _RESOURCES.items() if fold(k) == fold(w)), None)
        if found is None:
            raise ParseError(
                "unknown_resource", f"{quoted(w)!r} is not a resource: coal, oil, garbage, uranium."
            )
        name = found
        if pending is not None:
            out[name] = out.get(name, 0) + pending
            pending = None
        else:
            last = name
    return out


def _verb_apart(words: list[str]) -> list[str]:
    """A verb written together with what follows, apart: ``入札15`` → ``入札 15``, ``建設エッセン``
    → ``建設 エッセン``, ``bid15`` → ``bid 15`` (an English verb only before a number)."""
    first = words[0].casefold()
    for key in _VERBS_LONGEST:
        rest = words[0][len(key) :].lstrip(":")
        if first.startswith(key) and rest and (not key.isascii() or rest[0] in _ASCII_DIGITS):
            return [words[0][: len(key)], rest, *words[1:]]
    return words


def is_resign(line: str) -> bool:
    """Whether ``line`` is ``resign`` alone, in any of its words (``Resign.``, ``投了``).

    >>> is_resign("Resign."), is_resign("退出"), is_resign("resign now"), is_resign("pass")
    (True, True, False, False)
    """
    words = [w.rstrip(_TRAILING) for w in re.split(r"[\s,、，]+", normalize(line))]
    words = [w for w in words if w]
    return len(words) == 1 and (_VERBS.get(words[0].casefold()) or _VERBS.get(words[0])) == "resign"


def parse_command(line: str, state: State, seat: int, gmap: GameMap) -> Command:
    """The move (or plan) ``line`` asks for, for ``seat`` in ``state``; ``ParseError``
    otherwise. The engine still checks the move: this only reads it."""
    split = re.split(r"[\s,、，]+", normalize(line))
    words = [w.rstrip(_TRAILING) for w in split if w.rstrip(_TRAILING)]
    if not words:
        raise ParseError("unreadable", "No move was found at the top of the reply.")
    verb: str | None = _VERBS.get(words[0].casefold()) or _VERBS.get(words[0])
    # "石炭2を購入" style is not supported; "自動 パス" is.
    if verb is None and len(words) > 1 and words[0] + words[1] in _VERBS:
        verb, words = _VERBS[words[0] + words[1]], [words[0] + words[1], *words[2:]]
    if verb is None:
        words = _verb_apart(words)
        verb = _VERBS.get(words[0].casefold()) or _VERBS.get(words[0])
    if verb is None:
        raise ParseError(
            "unknown_command",
            f"{quoted(words[0])!r} is not a move: "
            "try pass, bid, choose, buy, build, power or discard.",
        )
    rest = words[1:]
    if verb == "resign":  # the whole line is the word: "resign the game" is not read as it
        if rest:
            raise ParseError("unknown_command", "To leave the game, reply with resign alone.")
        return Command("resign", {})
    offered = {e["type"] for e in legal(state, seat)}
    if verb == "pass":
        for kind in ("pass_bid", "pass_auction"):
            if kind in offered:
                return Command("move", {"type": kind})
        if "buy_resources" in offered:
            return Command("move", {"type": "buy_resources"})
        if "build" in offered:
            return Command("move", {"type": "build", "cities": []})
        raise ParseError("nothing_to_pass", "There is nothing to pass now.")
    if verb == "bid":
        if not rest:
            raise ParseError("bad_number", "Say how much: bid 15.")
        kind = "seal_bid" if "seal_bid" in offered else "bid"
        return Command("move", {"type": kind, "amount": _int(rest[0], "The bid")})
    if verb == "choose":
        if not rest:
            raise ParseError("bad_number", "Say which plant: choose 13 bid 15.")
        plant = _int(rest[0], "The plant")
        more = [w for w in rest[1:] if _VERBS.get(w.casefold(), _VERBS.get(w)) != "bid"]
        bid = _int(more[0], "The bid") if more else plant
        return Command("move", {"type": "choose_plant", "plant": plant, "bid": bid})
    if verb == "buy":
        if not rest or (len(rest) == 1 and rest[0].casefold() in _NOTHING):
            return Command("move", {"type": "buy_resources"})
        return Command("move", {"type": "buy_resources", **_resources(rest)})
    if verb == "build":
        if not rest or (len(rest) == 1 and rest[0].casefold() in _NOTHING):
            return Command("move", {"type": "build", "cities": []})
        return Command("move", {"type": "build", "cities": _cities(rest, gmap)})
    if verb == "power":
        if not rest:
            return Command("move", {"type": "power"})
        if len(rest) == 1 and rest[0].casefold() in _NOTHING:
            return Command("move", {"type": "power", "plants": []})
        return Command("move", {"type": "power", "plants": [_int(w, "A plant") for w in rest]})
    if verb == "discard":
        if not rest:
            raise ParseError("bad_number", "Say which plant: discard 3.")
        return Command("move", {"type": "discard_plant", "plant": _int(rest[0], "The plant")})
    if verb == "max":
        if len(rest) < 2:
            raise ParseError("bad_number", "Say the plant and the maximum: max 13 20.")
        plan = {
            "kind": "proxy_bid",
            "plant": _int(rest[0], "The plant"),
            "max": _int(rest[1], "The maximum"),
        }
        if len(rest) > 2 and _VERBS.get(rest[2].casefold(), _VERBS.get(rest[2])) == "discard":
            if len(rest) < 4:
                raise ParseError("bad_number", "Say which plant to give up: max 13 20 discard 4.")
            plan["discard"] = _int(rest[3], "The plant")
        return Command("plan", plan)
    return Command("plan", {"kind": "auto_pass"})
