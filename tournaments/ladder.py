"""A league's divisions from one season to the next: pure functions, no Django.

A league plays in seasons; in each, its members play in divisions (division 1 the top), each
division a tournament of its own (``tournaments.seating`` seats it, ``tournaments.scoring``
ranks it). Between two seasons:

1. **The first season** ranks the members by rating (best first; an unrated player counts as
   0, the rating of a new player; ties: who joined first) and cuts them into divisions
   (``split``): as few as keep each at most ``division_size``, as even as possible (larger
   ones on top), none smaller than ``table_min``.
2. **Promotion and relegation** (``moves``): at each boundary between two divisions, the top
   ``movers`` of the lower division (by its final standings) change places with the bottom
   ``movers`` of the upper one, so the divisions keep their sizes. A boundary moves fewer when
   either division is too small for it (at most half of each moves), so nobody is both
   promoted and relegated. Members who left the league are taken out first: the places they
   leave go to the next in the standings.
3. **Newcomers** (who joined during the last season, or since) join the bottom division,
   best rated first.
4. **Sizes** (``rebalance``): a division smaller than ``table_min`` (members left) joins the
   one below it (the bottom one joins the one above); a division larger than ``division_size``
   (newcomers) splits into even divisions in its order, so its upper part keeps its tier.

Within a division the order is: those relegated into it, then those who stayed (in the order
they finished), then those promoted into it, then newcomers; it is the division's join order
(who sits out a round that cannot seat everyone: the last ones).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Moves:
    """Who leaves a division at a season's end: ``up`` to the division above, ``down`` below."""

    up: tuple[int, ...] = ()
    down: tuple[int, ...] = ()


def boundary(upper: int, lower: int, movers: int) -> int:
    """How many change places at the boundary of an upper division of ``upper`` members and a
    lower one of ``lower``: ``movers``, but at most half of either."""
    return max(0, min(movers, upper // 2, lower // 2))


def moves(finishes: Sequence[Sequence[int]], movers: int) -> list[Moves]:
    """Each division's promoted and relegated players. ``finishes``: each division's members in
    final standings order (best first), the top division first."""
    out = [Moves() for _ in finishes]
    for i in range(len(finishes) - 1):
        upper, lower = finishes[i], finishes[i + 1]
        k = boundary(len(upper), len(lower), movers)
        if k == 0:
            continue
        out[i] = Moves(up=out[i].up, down=tuple(upper[len(upper) - k :]))
        out[i + 1] = Moves(up=tuple(lower[:k]), down=out[i + 1].down)
    return out


def split(ladder: Sequence[int], division_size: int, table_min: int) -> list[list[int]]:
    """Cut ``ladder`` (best first) into the fewest divisions of at most ``division_size``, as
    even as possible (larger on top), none below ``table_min`` (so perhaps one larger than
    ``division_size``). Empty: no division."""
    n = len(ladder)
    if n == 0:
        return []
    count = max(1, min(-(-n // max(1, division_size)), n // max(1, table_min)))
    base, extra = divmod(n, count)
    out: list[list[int]] = []
    at = 0
    for i in range(count):
        size = base + (1 if i < extra else 0)
        out.append(list(ladder[at : at + size]))
        at += size
    return out


def rebalance(
    divisions: Sequence[Sequence[int]], division_size: int, table_min: int
) -> list[list[int]]:
    """Rule 4: divisions too small join a neighbour, divisions too large split."""
    work = [list(d) for d in divisions if d]
    i = 0
    while i < len(work) and len(work) > 1:
        if len(work[i]) >= table_min:
            i += 1
            continue
        if i + 1 < len(work):
            work[i + 1] = work[i] + work[i + 1]
        else:
            work[i - 1] = work[i - 1] + work[i]
        del work[i]
        i = max(0, i - 1)
    out: list[list[int]] = []
    for d in work:
        out.extend(split(d, division_size, table_min) if len(d) > division_size else [d])
    return out


def first_divisions(
    ranked: Sequence[int], *, division_size: int, table_min: int
) -> list[list[int]]:
    """Rule 1: the first season's divisions, ``ranked`` best first."""
    return split(ranked, division_size, table_min)


def next_divisions(
    finishes: Sequence[Sequence[int]],
    newcomers: Sequence[int],
    *,
    movers: int,
    division_size: int,
    table_min: int,
) -> list[list[int]]:
    """The next season's divisions (top first). ``finishes``: the last season's divisions,
    each in its final standings order, holding only the members who stay in the league;
    ``newcomers``: members in no division of the last season, best rated first."""
    if not any(finishes):
        return first_divisions(newcomers, division_size=division_size, table_min=table_min)
    mv = moves(finishes, movers)
    out: list[list[int]] = []
    for i, order in enumerate(finishes):
        leaving = set(mv[i].up) | set(mv[i].down)
        from_above = list(mv[i - 1].down) if i > 0 else []
        from_below = list(mv[i + 1].up) if i + 1 < len(finishes) else []
        out.append(from_above + [p for p in order if p not in leaving] + from_below)
    out[-1].extend(newcomers)
    return rebalance(out, division_size, table_min)
