"""Seating a tournament round: pure functions, no Django.

Power Grid is played at tables of 3 to 6, so a tournament round is a partition of the entrants
into tables. The rules, in the order they apply:

1. **Table sizes** (``table_sizes``): as many entrants seated as the range allows, then the
   fewest tables, then sizes as even as possible (they differ by at most one, larger tables
   first). 7 entrants at 3-4 play 4 + 3; 13 at 3-5 play 5 + 4 + 4. A count no number of tables
   can take exactly (5 at 3-4, 7 at 5-6) seats as many as it can; the rest sit the round out
   (a *bye*, scored in ``tournaments.scoring``). Fewer entrants than ``table_min``: refused
   (``SeatingRefused``, code ``too_few_entrants``).
2. **Who sits out**: in round 1 the last entrants to have joined; later, the lowest in the
   standings among those who had the fewest byes so far.
3. **Round 1** seats the entrants in a seeded random order; **later rounds** are Swiss-style:
   the entrants in standings order fill the tables from the top, each seat taken by the
   candidate among the next few (``WINDOW``) who has met the table's players least often, then
   pairs of players in neighbouring tables are swapped while that lowers the repeat count.
   Similar scores play together; repeat opponents are avoided where the window allows.
4. **Seat order and maps**: at a table, the player who sat earliest on average so far takes
   the last seat (seat order is the colour and the order of the table's list; the engine draws
   the player order of the game itself); each table plays the tournament map its players have
   played least (ties: the map used by the fewest tables this round, then the list's order).
5. **Blocks** (``apart``: two entrants a block stands between, ``accounts.blocks``) never share
   a table. The fill and the search count such a pair as ``APART`` repeat meetings, so they part
   it before they avoid any repeat (round 1 runs the search too when it has such pairs). When no
   seating parts a pair (one table for all, say), the one of the two later in ``order`` (round
   1: joined later; then: lower in the standings) sits the round out, and the round is seated
   again without them; a round that can no longer fill a table is refused
   (``too_few_entrants``).
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

TABLE_LIMITS = (3, 6)  # Power Grid's player counts
#: How many entrants below the next free place a seat may be taken from in a later round: wider
#: finds more new opponents, narrower keeps scores closer together.
WINDOW = 6
#: How many tables away a later round's swaps may move a player to avoid a repeat opponent.
REACH = 6
#: The search's budget: tries per table of the round.
STEPS_PER_TABLE = 40
#: What two entrants across a block cost at one table, in repeat meetings: more than any
#: number of repeats a round can hold, so the search parts them first.
APART = 10_000

#: Entrant -> the entrants a block stands between them and (either made it).
Apart = Mapping[int, Collection[int]]


class SeatingRefused(ValueError):
    """The round cannot be seated (``code``: ``too_few_entrants`` or ``invalid_range``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass
class History:
    """What earlier rounds did, as the seating reads it: how often each pair met, the seat
    positions each player held (0 = first, 1 = last, as a fraction of the table), the maps each
    played, and the byes each had."""

    met: dict[int, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    seat_share: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    maps: dict[int, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    byes: Counter[int] = field(default_factory=Counter)

    def record(self, plan: RoundPlan) -> None:
        """Add a seated round to the history."""
        for table in plan.tables:
            size = len(table.players)
            for pos, p in enumerate(table.players):
                self.seat_share[p].append(pos / (size - 1))
                self.maps[p][table.map] += 1
                for q in table.players:
                    if q != p:
                        self.met[p][q] += 1
        for p in plan.byes:
            self.byes[p] += 1


@dataclass(frozen=True)
class TablePlan:
    """One table: its players in seat order and its map."""

    players: tuple[int, ...]
    map: str


@dataclass(frozen=True)
class RoundPlan:
    tables: tuple[TablePlan, ...]
    byes: tuple[int, ...]


def check_range(table_min: int, table_max: int) -> None:
    """Refuse a table range outside 3-6 or upside down (``invalid_range``)."""
    low, high = TABLE_LIMITS
    if not low <= table_min <= table_max <= high:
        raise SeatingRefused(
            "invalid_range",
            f"Tables take {low} to {high} players: table_min and table_max must satisfy "
            f"{low} <= table_min <= table_max <= {high}.",
        )


def table_sizes(entrants: int, table_min: int, table_max: int) -> list[int]:
    """The table sizes for ``entrants`` (rule 1 above), largest first; their sum may fall short
    of ``entrants`` when no number of tables takes them all."""
    check_range(table_min, table_max)
    if entrants < table_min:
        raise SeatingRefused(
            "too_few_entrants",
            f"{entrants} entrants cannot fill a table of at least {table_min}.",
        )
    best: tuple[int, int] | None = None  # (seated, tables)
    for tables in range(1, entrants // table_min + 1):
        seated = min(entrants, tables * table_max)
        if best is None or seated > best[0]:
            best = (seated, tables)
    assert best is not None
    seated, tables = best
    base, extra = divmod(seated, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def _byes(order: Sequence[int], count: int, history: History, first_round: bool) -> list[int]:
    """Who sits the round out (rule 2): ``order`` is join order in round 1, standings after."""
    if count <= 0:
        return []
    if first_round:
        return list(order[-count:])
    ranked = sorted(
        range(len(order)), key=lambda i: (history.byes[order[i]], -i)
    )  # fewest byes, then lowest in the standings
    return [order[i] for i in ranked[:count]]


def _cost(player: int, table: Sequence[int], history: History) -> int:
    met = history.met.get(player)
    if not met:
        return 0
    return sum(met[q] for q in table)


def _fill(order: list[int], sizes: Sequence[int], history: History) -> list[list[int]]:
    """Greedy Swiss fill: each seat goes to the first entrant in standings order (among the
    next ``WINDOW``) who has met none of the table's players; failing that, to the one who has
    met them least."""
    pool = list(order)
    tables: list[list[int]] = []
    for size in sizes:
        table = [pool.pop(0)]
        while len(table) < size:
            best_i, best_c = 0, -1
            for i in range(min(WINDOW, len(pool))):
                c = _cost(pool[i], table, history)
                if best_c < 0 or c < best_c:
                    best_i, best_c = i, c
                    if c == 0:
                        break
            table.append(pool.pop(best_i))
        tables.append(table)
    return tables


def _improve(tables: list[list[int]], history: History, rng: random.Random) -> None:
    """Min-conflicts search (in place): a player who meets someone again at their table is
    swapped with a player of a table up to ``REACH`` away (tables near each other hold similar
    scores) when the swap lowers the repeat count, or, now and then, keeps it equal (to leave a
    local minimum); at most ``STEPS_PER_TABLE`` tries a table."""
    where = {p: t for t, table in enumerate(tables) for p in table}

    def conflicts() -> list[int]:
        return [p for table in tables for p in table if _cost(p, table, history)]

    todo = conflicts()
    for _ in range(STEPS_PER_TABLE * len(tables)):
        if not todo:
            return
        p = todo[rng.randrange(len(todo))]
        t = where[p]
        a = tables[t]
        before_p = _cost(p, a, history)
        if before_p == 0:
            todo.remove(p)
            continue
        best: tuple[int, int] | None = None
        best_delta = 1
        for u in range(max(0, t - REACH), min(len(tables), t + REACH + 1)):
            if u == t:
                continue
            b = tables[u]
            for j, q in enumerate(b):
                before = before_p + _cost(q, b, history)
                after = (
                    _cost(q, a, history)
                    - history.met[q][p]
                    + _cost(p, b, history)
                    - history.met[p][q]
                )
                delta = after - before
                if delta < best_delta or (delta == best_delta == 0 and rng.random() < 0.3):
                    best, best_delta = (u, j), delta
        if best is None or best_delta > 0:
            continue
        u, j = best
        b = tables[u]
        q = b[j]
        a[a.index(p)], b[j] = q, p
        where[p], where[q] = u, t
        if best_delta < 0 or rng.random() < 0.1:
            todo = conflicts()


def _seat_order(table: list[int], history: History) -> tuple[int, ...]:
    """Earliest average seat so far sits last (rule 4); ties keep the standings order."""

    def mean(p: int) -> float:
        shares = history.seat_share.get(p)
        return sum(shares) / len(shares) if shares else 0.5

    return tuple(sorted(table, key=lambda p: -mean(p)))


def _maps(tables: Sequence[Sequence[int]], maps: Sequence[str], history: History) -> list[str]:
    used: Counter[str] = Counter()
    out = []
    for table in tables:

        def key(m: str, table: Sequence[int] = table) -> tuple[int, int, int]:
            played = sum(history.maps[p][m] for p in table if p in history.maps)
            return (played, used[m], maps.index(m))

        chosen = min(maps, key=key)
        used[chosen] += 1
        out.append(chosen)
    return out


def _pairs(apart: Apart | None) -> set[frozenset[int]]:
    """The pairs across a block, each once whichever way ``apart`` names it."""
    return {frozenset((p, q)) for p, qs in (apart or {}).items() for q in qs if q != p}


def _weighted(history: History, pairs: set[frozenset[int]]) -> History:
    """``history`` as the fill and the search read it: each pair across a block counts
    ``APART`` meetings more (a copy: the real history is not changed)."""
    if not pairs:
        return history
    met: dict[int, Counter[int]] = defaultdict(Counter)
    for p, counts in history.met.items():
        met[p] = Counter(counts)
    for pair in pairs:
        p, q = tuple(pair)
        met[p][q] += APART
        met[q][p] += APART
    return History(met=met, seat_share=history.seat_share, maps=history.maps, byes=history.byes)


def _tables(
    order: list[int],
    table_min: int,
    table_max: int,
    history: History,
    first: bool,
    pairs: set[frozenset[int]],
    seed: int,
) -> tuple[list[list[int]], list[int]]:
    """Rules 1 to 3 and 5's search: the tables (standings or random order) and the byes."""
    sizes = table_sizes(len(order), table_min, table_max)
    byes = _byes(order, len(order) - sum(sizes), history, first)
    out = set(byes)
    playing = [p for p in order if p not in out]
    weighted = _weighted(history, pairs)
    rng = random.Random(seed)
    if first:
        rng.shuffle(playing)
        tables = [playing[sum(sizes[:i]) : sum(sizes[: i + 1])] for i in range(len(sizes))]
        if pairs:
            _improve(tables, weighted, rng)
    else:
        tables = _fill(playing, sizes, weighted)
        _improve(tables, weighted, rng)
    return tables, byes


def seat_round(
    order: Sequence[int],
    *,
    table_min: int,
    table_max: int,
    maps: Sequence[str],
    history: History | None = None,
    seed: int = 0,
    apart: Apart | None = None,
) -> RoundPlan:
    """Seat one round. ``order``: the entrants still playing, in join order for round 1 (when
    ``history`` is None or empty) or in standings order (best first) for later rounds;
    ``apart``: who must not share a table (rule 5)."""
    if not maps:
        raise SeatingRefused("no_maps", "A tournament needs at least one map.")
    history = history if history is not None else History()
    first = not history.met and not history.byes
    pairs = _pairs(apart)
    rank = {p: i for i, p in enumerate(order)}
    parted: list[int] = []  # sit out: no seating parted them from someone across a block
    while True:
        playing = [p for p in order if p not in parted]
        tables, byes = _tables(playing, table_min, table_max, history, first, pairs, seed)
        clash = next(
            (pair for t in tables for pair in pairs if pair <= set(t)),
            None,
        )
        if clash is None:
            break
        parted.append(max(clash, key=lambda p: rank[p]))
    ordered = [_seat_order(t, history) for t in tables]
    chosen = _maps(ordered, list(maps), history)
    return RoundPlan(
        tables=tuple(TablePlan(players=t, map=m) for t, m in zip(ordered, chosen, strict=True)),
        byes=tuple(byes) + tuple(p for p in order if p in set(parted)),
    )


def repeat_pairs(history: History) -> int:
    """How many times two players met again (each pair's meetings beyond the first, summed)."""
    total = 0
    for p, met in history.met.items():
        for q, n in met.items():
            if p < q and n > 1:
                total += n - 1
    return total


def _split_pairs(size: int, groups: int) -> int:
    """The fewest pairs that share a group when ``size`` players come from ``groups`` groups."""
    base, extra = divmod(size, groups)
    return extra * (base + 1) * base // 2 + (groups - extra) * base * (base - 1) // 2


def repeat_floor(entrants: int, sizes_per_round: Sequence[Sequence[int]]) -> int:
    """A lower bound on ``repeat_pairs`` for these rounds' table sizes, the larger of two: the
    meetings beyond the number of distinct pairs there are, and (pigeonhole) for each table of
    a later round, the pairs its players must share from the earlier round that forces most
    (a table of 5 drawn from 4 earlier tables seats two who met). Not always reachable."""
    meetings = sum(s * (s - 1) // 2 for sizes in sizes_per_round for s in sizes)
    overall = max(0, meetings - entrants * (entrants - 1) // 2)
    forced = 0
    for r in range(1, len(sizes_per_round)):
        groups = [len(q) + entrants - sum(q) for q in sizes_per_round[:r]]
        forced += sum(max(_split_pairs(s, g) for g in groups) for s in sizes_per_round[r])
    return max(overall, forced)


def sizes_of(plan: RoundPlan) -> list[int]:
    return [len(t.players) for t in plan.tables]
