"""The move log in readable sentences, derived from public (spectator) views only.

Entries are kept language-neutral (a kind and its parameters, ``powergrid.describe``) per game in
process memory and turned into sentences in the reader's language by ``games.describe`` when the
page or an email is rendered.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime

from games import engine, selectors
from games.models import Game, Move
from games.selectors.history import game_public_timeline
from powergrid.actions import SEALED_SHOWN
from powergrid.describe import Entry, move_entries
from powergrid.shapes import View
from powergrid.takeback import TAKEBACK


class Item(Entry):
    """One entry of a game's log: the engine's (``kind``, ``seat``, ``params``) with the move's
    number, time and source, what the move revealed, and who the entry is by (``describe``)."""

    seq: int
    time: datetime
    source: str
    revealed: str | None
    by: str


# (game id, seed) -> (last seq described, entries): the seed tells apart two games that had the
# same id (SQLite reuses a deleted row's id; so does a test database), as the replay cache does.
_cache: OrderedDict[tuple[int, int | None], tuple[int, list[Item]]] = OrderedDict()
_lock = threading.Lock()
_CACHE_SIZE = 256


#: Who an entry is by (``by``) when no seat acted: what a move led to by the rules (a new round,
#: a new step, the end), not anyone's choice.
GAME = "game"
#: Who a sealed answer's line (``SEALED_SHOWN``: a sealed bid, or a pass in a sealed auction)
#: is by: nobody said. Its source would tell a pass: a deadline's move in a sealed auction is
#: one. The lines that open the bids are by each bidder's own source, as any other line.
SEALED_BY = "sealed"


def describe(
    move: Move,
    before: View,
    after: View,
    revealed: str | None = None,
    sources: dict[int, str] | None = None,
) -> list[Item]:
    """Language-neutral entries for one move (usually one; auctions may add a sale), with the
    move's number, time and source, and what it revealed (``revealed``: a public fact, what a
    take-back of it asks for, ``games.takebacks``).

    Each entry also says who it is by (``by``), which is not always the move's source: the move
    itself is by whoever made it (the player, their plan, the bot in their seat, the deadline's
    default); a plant sold to another seat (everyone else passed) is by that seat's own last move
    (``sources``: each seat's last source so far, updated here); a new round, step or the end is
    by the game (``GAME``). "Round 4 begins" is never "played by a bot"."""
    raw: object = move.action
    action: dict[str, object] = raw if isinstance(raw, dict) else {}
    known = sources if sources is not None else {}
    known[move.seat] = move.source
    out: list[Item] = []
    for e in move_entries(action, move.seat, before, after):
        seat = e["seat"]
        by = GAME if seat is None else known.get(seat, move.source)
        if e["kind"] == SEALED_SHOWN:  # a sealed answer's line never says who gave it
            by = SEALED_BY
        out.append(
            {
                "kind": e["kind"],
                "seat": seat,
                "params": e["params"],
                "seq": move.seq,
                "time": move.created_at,
                "source": move.source,
                "revealed": revealed,
                "by": by,
            }
        )
    return out


def sources_of(items: list[Item]) -> dict[int, str]:
    """Each seat's last move's source, from a log's entries (the first entry of a seq is the
    move's own): where ``describe`` goes on from."""
    out: dict[int, str] = {}
    seen: set[int] = set()
    for e in items:
        if e["seq"] in seen:
            continue
        seen.add(e["seq"])
        if e["seat"] is not None:
            out[e["seat"]] = e["source"]
    return out


def cancelled(items: list[Item]) -> set[int]:
    """The seqs of the moves taken back, from a log's entries (its take-back entries)."""
    out: set[int] = set()
    for e in items:
        if e["kind"] == TAKEBACK:
            out.update(e["params"].get("cancels", ()))
    return out


def entries(game: Game) -> list[Item]:
    """Every entry of the game's log, oldest first (incrementally cached per game)."""
    if game.status == Game.Status.OPEN:
        return []
    key = (game.pk, game.seed)
    with _lock:
        hit = _cache.get(key)
    done, items = hit if hit is not None and hit[0] <= game.seq else (0, [])
    if done < game.seq:
        items = list(items)
        sources = sources_of(items)
        for move, before, after, revealed in game_public_timeline(game, since=done):
            items.extend(describe(move, before, after, revealed, sources))
            done = move.seq
        with _lock:
            _cache[key] = (done, items)
            _cache.move_to_end(key)
            while len(_cache) > _CACHE_SIZE:
                _cache.popitem(last=False)
    return items


def entries_cached(game: Game) -> list[Item] | None:
    """The game's log entries if this process has them up to ``game.seq`` (no query; None
    otherwise): for a reader that must not touch the database (the delivery journal)."""
    with _lock:
        hit = _cache.get((game.pk, game.seed))
    if hit is None or hit[0] != game.seq:
        return None
    return hit[1]


def public_accounts(game: Game) -> list[int]:
    """Each seat's money as the public move log tells it: what a player keeping accounts knows
    (every payment in Power Grid is made in the open), what a practice position gives the other
    seats and what the expert bot reads. Counted from the money of the game's first position
    (the rules' starting money, or a practice position's figures, themselves the log's) over
    the moves that stand (taken-back ones left out)."""
    items = entries(game)
    gone = cancelled(items)
    start = [p.money for p in selectors.game_initial_state(game).players]
    return engine.money_from_log(len(start), [e for e in items if e["seq"] not in gone], start)
