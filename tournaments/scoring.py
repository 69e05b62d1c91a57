"""Tournament points and standings: pure functions, no Django.

**Points for a table.** A table's winner gets 120 tournament points at any table size, its last
player 0, and the places between are spaced evenly:

=========  ====  ===  ===  ===  ===  ===
table      1st   2nd  3rd  4th  5th  6th
=========  ====  ===  ===  ===  ===  ===
3 players  120   60   0
4 players  120   80   40   0
5 players  120   90   60   30   0
6 players  120   96   72   48   24   0
=========  ====  ===  ===  ===  ===  ===

so a round at uneven tables (5 + 4 + 4) is worth the same to every table's winner. Players the
game's rules rank equal (the engine's ranks: cities powered, then money, then cities) share the
places they cover, each getting the mean (always a whole number in this table).

**A seat the bot took over** (after the game's timeouts, or a player who dropped out) scores
what the seat finished with, as the rules rank it: the tournament plays the game's result as
the game recorded it. **A bye** (an entrant the round's tables could not take) scores
``BYE_POINTS``, the middle of the scale, and counts no cities nor money. **A player who dropped
out** keeps the points earned so far and is not seated again.

**Standings**, best first: total points; then cities powered summed over the games; then money
summed; then head-to-head among the players still tied (for each, the games in which they
finished ahead of another tied player, less those behind); then the entrant's number (who joined
first). Players equal on every count but the last share a place.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

WIN_POINTS = 120
BYE_POINTS = WIN_POINTS // 2


def place_points(size: int, place: int) -> int:
    """Points for finishing ``place`` (1 = first) of ``size`` alone."""
    if size < 2 or not 1 <= place <= size:
        raise ValueError(f"place {place} of {size}")
    return WIN_POINTS * (size - place) // (size - 1)


def table_points(ranks: Sequence[int]) -> list[int]:
    """Each seat's points from the rules' ranks (1 = winner; equal ranks share places)."""
    return list(_table_points(tuple(ranks)))


@lru_cache(maxsize=4096)
def _table_points(ranks: tuple[int, ...]) -> tuple[int, ...]:
    size = len(ranks)
    order = sorted(range(size), key=lambda i: ranks[i])
    out = [0] * size
    i = 0
    while i < size:
        j = i
        while j + 1 < size and ranks[order[j + 1]] == ranks[order[i]]:
            j += 1
        shared = [place_points(size, k + 1) for k in range(i, j + 1)]
        for k in range(i, j + 1):
            out[order[k]] = sum(shared) // len(shared)
        i = j + 1
    return tuple(out)


@dataclass(frozen=True)
class GameRecord:
    """A finished table: per seat its entrant, rank, cities powered and money (the game's
    result)."""

    round: int
    players: tuple[int, ...]
    ranks: tuple[int, ...]
    powered: tuple[int, ...]
    money: tuple[int, ...]


@dataclass
class Standing:
    entrant: int
    points: int = 0
    powered: int = 0
    money: int = 0
    games: int = 0
    byes: int = 0
    head_to_head: int = 0
    place: int = 0
    dropped: bool = False


def _head_to_head(group: list[Standing], by_player: dict[int, list[GameRecord]]) -> None:
    ids = {s.entrant for s in group}
    score: dict[int, int] = defaultdict(int)
    shared = {id(g): g for p in ids for g in by_player.get(p, ())}
    for g in shared.values():
        at = [(p, r) for p, r in zip(g.players, g.ranks, strict=True) if p in ids]
        for p, r in at:
            for _q, rq in at:
                if r < rq:
                    score[p] += 1
                elif r > rq:
                    score[p] -= 1
    for s in group:
        s.head_to_head = score[s.entrant]


def standings(
    entrants: Sequence[int],
    games: Iterable[GameRecord],
    *,
    byes: Iterable[int] = (),
    dropped: Iterable[int] = (),
) -> list[Standing]:
    """The standings, best first, with each entrant's place (rule in the module's docstring).
    ``entrants``: in join order (the last tie-break); ``byes``: one entry per bye had."""
    rows = {e: Standing(entrant=e) for e in entrants}
    join = {e: i for i, e in enumerate(entrants)}
    games = list(games)
    by_player: dict[int, list[GameRecord]] = defaultdict(list)
    for g in games:
        for p in g.players:
            by_player[p].append(g)
        points = _table_points(g.ranks)
        for p, pts, pw, m in zip(g.players, points, g.powered, g.money, strict=True):
            row = rows.get(p)
            if row is None:
                continue
            row.points += pts
            row.powered += pw
            row.money += m
            row.games += 1
    for p in byes:
        if p in rows:
            rows[p].points += BYE_POINTS
            rows[p].byes += 1
    for p in dropped:
        if p in rows:
            rows[p].dropped = True

    def main(s: Standing) -> tuple[int, int, int]:
        return (-s.points, -s.powered, -s.money)

    ordered = sorted(rows.values(), key=main)
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and main(ordered[j + 1]) == main(ordered[i]):
            j += 1
        if j > i:
            group = ordered[i : j + 1]
            _head_to_head(group, by_player)
            group.sort(key=lambda s: (-s.head_to_head, join[s.entrant]))
            ordered[i : j + 1] = group
        i = j + 1
    for k, s in enumerate(ordered):
        prev = ordered[k - 1] if k else None
        same = prev is not None and main(prev) == main(s) and prev.head_to_head == s.head_to_head
        s.place = prev.place if same and prev is not None else k + 1
    return ordered
