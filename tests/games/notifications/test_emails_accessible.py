"""Every kind of email reads well with a screen reader and as plain text, in English and Japanese.

Each kind (``emails.BUILDERS``) is rendered through ``emails.email_render`` (the path every email
takes) in each of its branches (a reminder, a refused reply, a digest with every section...),
and its parts are read as a reader would:

* the HTML: a ``lang``, a ``<title>`` that is the subject, exactly one ``<h1>`` and headings that
  skip no level, list items only in lists, tables only for tabular data (a header row whose cells
  say what they head), every link's text saying where it goes (no bare address, no "click here",
  and one text never leading to two places in one section), no colour or weight alone telling
  the reader something (the reader's own row says "you");
* the plain text: every address labelled (on its line after the label, or on its own line after
  a line ending in a colon), no ASCII art (rules, boxes, columns drawn with characters), and the
  HTML's headings found in the same order.
"""

from __future__ import annotations

import copy
import itertools
import re
from datetime import UTC, datetime
from html.parser import HTMLParser
from typing import Any

import pytest
from django.utils import translation

from games.fastpath import rendering
from games.notifications import emails
from games.templatetags.words import untagged

URL = "https://pg.example/mail/go/{}/"
COMMON = {
    "recipient": None,
    "recipient_name": "Anna",
    "settings_url": "https://pg.example/mail/settings/tok/",
    "site_url": "https://pg.example",
}
GAME = {"game": None, "game_id": 12, "map_name": "Germany", "game_url": URL.format("g12"),
        "seat": None}  # fmt: skip
TAPS = [{"label": "Pass", "url": URL.format("pass")}, {"label": "Bid 16", "url": URL.format("bid")}]
SUMMARY = {
    "round": 2,
    "step": 1,
    "phase": "auction",
    "my_money": 37,
    "players": [
        {"name": "Anna", "cities": 3, "plants": "13, 18", "you": True},
        {"name": "Bea", "cities": 2, "plants": "", "you": False},
    ],
}
TURN = {
    **GAME,
    "reminder": False,
    "moves": ["Bea bought plant 13 for 15 Elektro", "Bea built in Essen"],
    "earlier_moves": 4,
    "summary": SUMMARY,
    "asked": ["bid 16 or more on plant 20", "pass"],
    "deadline": "Nov. 30, 9:00",
    "plan_note": "the price rose above 4",
    "private_note": "Save for plant 25.",
    "reply_to": "turn+x@pg.example",
    "reply_examples": ["bid 16", "pass"],
    "taps": TAPS,
    "chat": [{"author": "Bea", "text": "Good luck!"}],
    "sheet": {
        "round": 2,
        "lines": [("open 20 max 30", "the cheapest plant for four cities"), ("power", "")],
        "accept_url": URL.format("sheet"),
    },
}
REPLY = {
    **GAME,
    "ok": True,
    "plan": False,
    "resigned": False,
    "line": "bid 16",
    "error": "",
    "code": "",
    "moves": ["Anna bids 16 for plant 20"],
    "asked": [],
    "reply_to": None,
    "takeback_url": URL.format("takeback"),
    "will": "",
}
TAKEBACK = {**GAME, "player": "Bea", "moves": ["Bea built in Essen"], "n": 1, "your_turn": True}
STARTED = {**GAME, "players": ["Anna", "Bea", "Carl"], "your_turn": False, "first": ["Bea"]}
DIGEST = {
    "waiting": [
        {"game_id": 12, "map_name": "Germany", "deadline": "Nov. 30", "url": URL.format(1)}
    ],
    "chat": [
        {
            "game_id": 12,
            "map_name": "Germany",
            "url": URL.format(2),
            "messages": [{"author": "Bea", "text": "Hello"}],
        },
        {
            "game_id": 14,
            "map_name": "USA",
            "url": URL.format(3),
            "messages": [{"author": "Carl", "text": "Soon"}],
        },
    ],
    "finished": [{"game_id": 9, "map_name": "Italy", "url": URL.format(4)}],
    "started": [{"game_id": 14, "map_name": "USA"}],
    "timeouts": 2,
}
RESULTS = [
    {"rank": 1, "name": "Bea", "powered": 17, "cities": 17, "money": 12, "you": False},
    {"rank": 2, "name": "Anna", "powered": 16, "cities": 17, "money": 40, "you": True},
]

COMPETITION = {"title": "Autumn Cup", "competition": "Autumn Cup", "league": "", "season": 0,
               "division": 0, "competition_url": "https://pg.example/tournaments/3/", "round": 1,
               "rounds": 3, "place": None, "points": None}  # fmt: skip
LEAGUE = {**COMPETITION, "title": "Friday League, season 2, division 1",
          "league": "Friday League", "season": 2, "division": 1}  # fmt: skip
LEADERS = [{"place": 1, "name": "Bea", "points": 9}, {"place": 2, "name": "Anna", "points": 7}]


def _with(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**copy.deepcopy(base), **changes}


#: (template, branch, context): every kind, in each of its branches.
CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("turn", "turn", TURN),
    ("turn", "reminder, nothing new", _with(TURN, reminder=True, moves=[], chat=[], sheet=None,
                                            taps=[], reply_to=None, plan_note="", private_note="")),
    ("reply", "made", REPLY),
    ("reply", "made, asked next", _with(REPLY, takeback_url="", asked=["pass"], taps=TAPS,
                                        reply_to="turn+x@pg.example", reply_examples=["pass"])),
    ("reply", "plan", _with(REPLY, plan=True, will="open 20 max 30\npower", moves=["Bea passed"])),
    ("reply", "resigned", _with(REPLY, resigned=True, moves=[], takeback_url="")),
    ("reply", "resign: confirm", _with(REPLY, ok=False, code="resign_confirm", line="resign",
                                       moves=[], takeback_url="", reply_to="turn+x@pg.example",
                                       bot="Heuristic bot", hours=24)),
    ("reply", "refused", _with(REPLY, ok=False, error="Bid at least 21.", code="bid_too_low")),
    ("reply", "wrong sender", _with(REPLY, ok=False, code="wrong_sender", line="", moves=[],
                                    takeback_url="", other="taro@work.example",
                                    account_email="taro@home.example",
                                    account_url="https://pg.example/accounts/email/")),
    ("reply", "wrong sender, not shown", _with(REPLY, ok=False, code="wrong_sender", line="",
                                               moves=[], takeback_url="", other="",
                                               account_email="taro@home.example",
                                               account_url="https://pg.example/accounts/email/")),
    ("reply", "sender not authenticated", _with(REPLY, ok=False, code="sender_not_authenticated",
                                                line="", moves=[], takeback_url="", other="",
                                                account_email="taro@home.example",
                                                account_url="https://pg.example/accounts/email/")),
    ("reply", "no sender", _with(REPLY, ok=False, code="no_sender", line="", moves=[],
                                 takeback_url="", other="", account_email="taro@home.example",
                                 account_url="https://pg.example/accounts/email/")),
    ("takeback", "one move, your turn", TAKEBACK),
    ("takeback", "moves, not your turn", _with(TAKEBACK, n=3, your_turn=False,
                                               moves=["a", "b", "c"])),
    ("takeback_asked", "asked", _with(TAKEBACK, why="Carl has moved since", deadline="Nov. 30",
                                      taps=[{"label": "Agree", "url": URL.format("yes")},
                                            {"label": "Refuse", "url": URL.format("no")}])),
    ("takeback_declined", "declined", {**GAME, "player": "Bea"}),
    ("game_started", "waiting", STARTED),
    ("game_started", "your turn", _with(STARTED, your_turn=True, asked=["choose a plant"],
                                        deadline="Nov. 30", reply_to="turn+x@pg.example",
                                        reply_examples=["open 3 bid 3"])),
    ("game_over", "over", {**GAME, "results": RESULTS, "winners": ["Bea"]}),
    ("timeout", "bot after", {**GAME, "action": "pass", "timeouts_in_row": 1, "bot_after": 3,
                              "bot_controlled": False}),
    ("timeout", "bot plays", {**GAME, "action": "pass", "timeouts_in_row": 3, "bot_after": 3,
                              "bot_controlled": True}),
    ("bot_took_over", "you", {**GAME, "you": True, "player": "Anna"}),
    ("bot_took_over", "another", {**GAME, "you": False, "player": "Bea"}),
    ("seat", "joined", {**GAME, "event": "joined", "player": "Dora", "before": "Bea",
                        "seat_no": 1}),
    ("seat", "left", {**GAME, "event": "left", "player": "Bea", "before": "", "seat_no": 1}),
    ("seat", "seeking", {**GAME, "event": "seeking", "player": "Bea", "before": "", "seat_no": 1}),
    ("digest", "full", DIGEST),
    ("digest", "nothing waits", _with(DIGEST, waiting=[], chat=[], finished=[], started=[])),
    ("game_full", "full", {**GAME, "players": ["Anna", "Bea", "Carl"]}),
    ("invited", "invited", {**GAME, "players": ["Bea"], "inviter": "Bea", "seats_total": 4}),
    ("webhook_disabled", "off", {"url": "https://hooks.example/pg", "reason": "HTTP 500",
                                 "failures": 20, "webhooks_url": "https://pg.example/webhooks/"}),
    ("open_warning", "warning", {**GAME, "days_open": 12, "close_on": datetime(2026, 12, 1,
                                 tzinfo=UTC), "seats_taken": 2, "seats_total": 4}),
    ("open_closed", "closed", {"game_id": 12, "map_name": "Germany", "days_open": 14,
                               "new_game_url": "https://pg.example/games/new/"}),
    ("restored", "restored", {"restored_to": "Nov. 29, 4:00", "blocks": [
        {"head": "Game #12 went back to move 40.", "lines": ["Your move “pass” was lost."],
         "url": URL.format(12)},
        {"head": "Game #14 went back to move 3.", "lines": [], "url": URL.format(14)}],
        "went_back": True}),
    ("restored", "chat only", {"restored_to": "Nov. 29, 4:00", "went_back": False, "blocks": [
        {"head": "Game #12 kept all its moves.", "lines": ["Your chat message “hi” was lost."],
         "url": URL.format(12)}]}),
    ("table_ready", "waiting", {**COMPETITION, "table": 2, "start": STARTED, "reply_to": None}),
    ("table_ready", "your turn", {**COMPETITION, "table": 2, "reply_to": "turn+x@pg.example",
                                  "start": _with(STARTED, your_turn=True, asked=["choose a plant"],
                                                 deadline="Nov. 30", reply_to="turn+x@pg.example",
                                                 reply_examples=["open 3 bid 3"])}),
    ("round_started", "table", {**LEAGUE, "round": 2, "place": 3, "points": 4, "table": 1,
                                "start": STARTED, "reply_to": None}),
    ("round_started", "bye", {**COMPETITION, "round": 2, "place": 1, "points": 6,
                              "table": None}),
    ("final_standings", "league, up", {**LEAGUE, "round": 3, "place": 1, "points": 9, "of": 8,
                                       "leaders": LEADERS, "move": "up"}),
    ("final_standings", "tournament", {**COMPETITION, "round": 3, "place": 5, "points": 2,
                                       "of": 8, "leaders": LEADERS, "move": ""}),
]  # fmt: skip

#: Link texts that do not say where a link goes.
VAGUE = {"click here", "here", "link", "this link", "more", "read more", "click", "こちら", "ここ",
         "ここをクリック", "クリック", "リンク"}  # fmt: skip
ADDRESS = re.compile(r"https?://\S+")


class Node:
    def __init__(self, tag: str, attrs: dict[str, str], parent: Node | None) -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node | str] = []

    def text(self) -> str:
        out = "".join(c if isinstance(c, str) else c.text() for c in self.children)
        return " ".join(out.split())

    def walk(self) -> list[Node]:
        found = [self]
        for c in self.children:
            if isinstance(c, Node):
                found += c.walk()
        return found

    def ancestors(self) -> list[str]:
        out, n = [], self.parent
        while n is not None:
            out.append(n.tag)
            n = n.parent
        return out


VOID = {"meta", "br", "hr", "img", "link", "input", "col", "wbr", "source"}


class Tree(HTMLParser):
    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {}, None)
        self.at = self.root
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs}, self.at)
        self.at.children.append(node)
        if tag not in VOID:
            self.at = node

    def handle_endtag(self, tag: str) -> None:
        n: Node | None = self.at
        while n is not None and n.tag != tag:
            n = n.parent
        assert n is not None, f"</{tag}> closes nothing open"
        assert n.parent is not None, f"</{tag}> closes the document"
        self.at = n.parent

    def handle_data(self, data: str) -> None:
        self.at.children.append(data)

    def all(self, *tags: str) -> list[Node]:
        return [n for n in self.root.walk() if n.tag in tags]


def _render(template: str, ctx: dict[str, Any], lang: str) -> tuple[str, str, str]:
    with translation.override(lang):
        full = {**copy.deepcopy(ctx), **COMMON, "kind": template, "LANGUAGE_CODE": lang}
        return emails.email_render(template, full, lang)


def _html_problems(html: str, subject: str, lang: str) -> list[str]:
    tree = Tree(html)
    bad: list[str] = []
    (root,) = tree.all("html")
    if root.attrs.get("lang") != lang:
        bad.append(f"<html lang={root.attrs.get('lang')!r}>")
    titles = tree.all("title")
    if [t.text() for t in titles] != [" ".join(subject.split())]:
        bad.append(f"title {[t.text() for t in titles]} is not the subject {subject!r}")
    headings = tree.all("h1", "h2", "h3", "h4", "h5", "h6")
    levels = [int(h.tag[1]) for h in headings]
    if levels.count(1) != 1 or levels[0] != 1:
        bad.append(f"headings {levels}: one h1, first")
    for a, b in itertools.pairwise(levels):
        if b > a + 1:
            bad.append(f"heading levels skip: h{a} then h{b}")
    bad += [f"empty heading <{h.tag}>" for h in headings if not h.text()]
    for li in tree.all("li"):
        if li.parent is None or li.parent.tag not in ("ul", "ol"):
            bad.append(f"<li> outside a list: {li.text()!r}")
    for lst in tree.all("ul", "ol"):
        if not [c for c in lst.children if isinstance(c, Node) and c.tag == "li"]:
            bad.append(f"<{lst.tag}> without items")
    for table in tree.all("table"):
        rows = [n for n in table.walk() if n.tag == "tr"]
        head = [c for c in rows[0].children if isinstance(c, Node)] if rows else []
        if len(rows) < 2 or len(head) < 2 or any(c.tag != "th" for c in head):
            bad.append("a table that is not a table of data with a header row (layout?)")
        bad += [f"<th> {th.text()!r} without scope" for th in table.walk()
                if th.tag == "th" and th.attrs.get("scope") not in ("col", "row")]  # fmt: skip
        if "table" in table.ancestors():
            bad.append("a table in a table")
    bad += _link_problems(tree)
    bad += [f"<{n.tag}>: bold or colour alone" for n in tree.all("b", "font", "center", "blink")]
    bad += [f"<img> without alt: {n.attrs}" for n in tree.all("img") if "alt" not in n.attrs]
    return bad


def _link_problems(tree: Tree) -> list[str]:
    bad = []
    where: dict[tuple[str, str], str] = {}
    section = ""
    for n in tree.root.walk():
        if n.tag in ("h1", "h2", "h3", "h4"):
            section = n.text()
        if n.tag != "a":
            continue
        text, href = n.text(), n.attrs.get("href", "")
        if not href:
            bad.append(f"a link without a destination: {text!r}")
        if not text:
            bad.append(f"a link without text to {href}")
        elif ADDRESS.search(text) or text.lower().startswith("www."):
            bad.append(f"a link whose text is an address: {text!r}")
        elif text.lower().strip(" .:：。") in VAGUE:
            bad.append(f"a link whose text says nothing of where it goes: {text!r}")
        if where.setdefault((section, text), href) != href:
            bad.append(f"one link text, two destinations in one section: {text!r}")
    return bad


def _text_problems(text: str) -> list[str]:
    bad = []
    lines = text.splitlines()
    for k, line in enumerate(lines):
        bare = line.strip()
        if bare and line != "-- " and not re.search(r"\w", bare):
            bad.append(f"a line of symbols only (ASCII art?): {line!r}")
        if re.search(r"[-=*_#~+]{3,}|\||\t|\S {3,}\S", bare):
            bad.append(f"drawn with characters (rules, boxes or columns): {line!r}")
        for m in ADDRESS.finditer(line):
            before, after = line[: m.start()].strip(" -"), line[m.end() :].strip()
            prev = next((p.strip() for p in reversed(lines[:k]) if p.strip()), "")
            # An address in a sentence (text before or after it) is named by the sentence.
            if not before and not after and not prev.endswith((":", "：")):
                bad.append(f"an address without a label: {line!r} after {prev!r}")
    return bad


def _heading_order(html: str, text: str, subject: str) -> list[str]:
    """The HTML's headings (a colon at the end left out), in the text part in the same order;
    the ``<h1>`` is left out where it is the subject (the text part's mail client shows that)."""
    flat = " ".join(text.split())
    at, bad = 0, []
    for h in Tree(html).all("h1", "h2", "h3"):
        want = h.text().rstrip(":：")
        if h.tag == "h1" and want == " ".join(untagged(subject).split()):
            continue
        found = flat.find(want, at)
        if found < 0:
            bad.append(f"heading {want!r} not found in the text part after character {at}")
        else:
            at = found + len(want)
    return bad


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(
    ("template", "branch", "ctx"), CASES, ids=[f"{t}-{b}" for t, b, _c in CASES]
)
def test_an_email_reads_well_as_html_and_as_text(template, branch, ctx, lang):
    rendering.reset()
    subject, text, html = _render(template, ctx, lang)
    problems = _html_problems(html, subject, lang)
    problems += _text_problems(text)
    problems += _heading_order(html, text, subject)
    assert problems == [], f"{template} ({branch}, {lang}):\n" + "\n".join(problems)


def test_every_kind_is_walked():
    assert {t for t, _b, _c in CASES} == {t for t, _builder in emails.BUILDERS.values()}


@pytest.mark.parametrize(
    ("html", "found"),
    [
        ('<a href="https://x.example/">https://x.example/</a>', "address"),
        ('<a href="https://x.example/">Click here</a>', "says nothing"),
        ("<h1>A</h1><h3>B</h3>", "skip"),
        ("<table><tr><td>a</td><td>b</td></tr><tr><td>1</td><td>2</td></tr></table>", "layout"),
        ("<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>", "scope"),
        ('<h1>A</h1><a href="/1">Open</a><a href="/2">Open</a>', "two destinations"),
    ],
)
def test_the_walk_finds_what_a_reader_would_stumble_on(html, found):
    page = f'<html lang="en"><head><title>S</title></head><body><h1>S</h1>{html}</body></html>'
    page = page.replace("<h1>S</h1><h1>A</h1>", "<h1>A</h1>")
    assert any(found in p for p in _html_problems(page, "S", "en")), _html_problems(page, "S", "en")


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Open the game\nhttps://x.example/\n", "without a label"),
        ("Results\n=======\n", "symbols only"),
        ("Anna   |  3  | 13\n", "drawn"),
    ],
)
def test_the_text_walk_finds_what_a_listener_would_stumble_on(text, found):
    assert any(found in p for p in _text_problems(text)), _text_problems(text)
