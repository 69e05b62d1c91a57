"""The move log's card: the last moves in sentences (the newest first), each name a link to its
player's page, each number a link to the board after that move; moves taken back are marked,
and the reader's own move they may take back carries its button."""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from games import describe, log
from games.log import Item
from games.templatetags.names import player_link

from .takeback import TakebackOffer
from .viewing import Viewing

#: How many of the last moves the page shows (the older ones: through the history pages).
LOG_TAIL = 40


class LogLine(TypedDict):
    """One line of the move log as the page shows it (``games.log.Item``, marked and said)."""

    seq: int
    time: datetime
    cancelled: bool
    takeback_here: bool
    text: SafeString
    note: str


class LogCard(TypedDict):
    """``templates/games/cards/log.html``."""

    log: list[LogLine]
    log_more: bool


def log_card(view: Viewing, takeback: TakebackOffer | None) -> LogCard:
    """The log, and the sentence of the move ``takeback`` (the take-back card's offer) would
    undo, written into it as its ``text`` (one pass over the entries for both)."""
    game = view.game
    names, usernames, lang = view.names, view.usernames, view.lang
    entries = log.entries(game)
    if view.history_seq is not None:
        entries = [e for e in entries if e["seq"] <= view.history_seq]
    gone = log.cancelled(entries)
    first_undone = takeback["first"] if takeback else None
    # Each name in the log's sentences a link to the player's page, held in <bdi> so that a
    # right-to-left name does not reorder the sentence around it: the sentence is made with a mark
    # per seat, escaped, and each mark replaced by the linked name (``_linked``).
    marks = {seat: _mark(seat) for seat in names}
    seen: set[int] = set()
    here = [False] * len(entries)
    for i, e in enumerate(entries):
        here[i] = e["seq"] not in seen and e["seq"] == first_undone  # a seq's first: its own
        seen.add(e["seq"])
        if here[i] and takeback is not None:  # what the take-back at the top would undo
            takeback["text"] = _linked(
                describe.move_describe(e, marks, game.map, lang), names, usernames
            )
    start = max(0, len(entries) - LOG_TAIL)
    tail: list[LogLine] = [
        {
            "seq": e["seq"],
            "time": e["time"],
            "cancelled": e["seq"] in gone,
            "takeback_here": here[start + i],
            "text": _linked(_said(e, marks, view), names, usernames),
            "note": describe.entry_note(e),
        }
        for i, e in enumerate(entries[start:])
    ]
    return {"log": tail[::-1], "log_more": len(entries) > len(tail)}


def _said(entry: Item, marks: dict[int, str], view: Viewing) -> str:
    """An entry's sentence; the game's end says who won (the live region reads it out)."""
    text = describe.move_describe(entry, marks, view.game.map, view.lang)
    if entry["kind"] == "finished":
        won = describe.winners_describe(view.state["result"], marks)
        text = f"{text} {won}" if won else text
    return text


def _mark(seat: int) -> str:
    """A stand-in for a seat's name in a sentence (private-use characters no name holds)."""
    return f"\ue000{seat}\ue001"


def _linked(text: str, names: dict[int, str], usernames: dict[int, str]) -> SafeString:
    """A log sentence made with ``_mark``s, escaped, each mark the seat's linked name."""
    out = str(conditional_escape(text))
    for seat, name in names.items():
        mark = _mark(seat)
        if mark in out:  # a sentence names one or two seats: no link built for the others
            out = out.replace(mark, str(player_link(name, usernames.get(seat))))
    return mark_safe(out)  # escaped above; the links are format_html's
