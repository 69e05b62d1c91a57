"""Storage and powering: what a player's plants can hold, which plants can fire, the best choice.

A player's tokens are kept as counts per resource (the rules let players rearrange tokens between
their plants at any time), so "does it fit" means "does an assignment to plants exist":
pure plants hold their own fuel, hybrids hold coal and oil in any mix.

The best power choice: most cities powered (capped at the cities owned); among those, the fewest
tokens burnt; then the fewest plants fired; then the lowest plant numbers. A hybrid burns coal
before oil unless the player says otherwise.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import NamedTuple

from powergrid.plants import PLANTS

# Capacity tuple: (coal-only, oil-only, hybrid, garbage, uranium).
Caps = tuple[int, int, int, int, int]
Res = tuple[int, int, int, int]

_FUEL_SLOT = {"coal": 0, "oil": 1, "hybrid": 2, "garbage": 3, "uranium": 4}


@cache
def capacity(plants: tuple[int, ...]) -> Caps:
    """Storage of a set of plants: (coal-only, oil-only, hybrid, garbage, uranium)."""
    caps = [0, 0, 0, 0, 0]
    for number in plants:
        p = PLANTS[number]
        slot = _FUEL_SLOT.get(p.fuel)
        if slot is not None:
            caps[slot] += 2 * p.burns
    return (caps[0], caps[1], caps[2], caps[3], caps[4])


def fits(res: Res, caps: Caps) -> bool:
    """True if the tokens ``res`` can be stored on plants with capacity ``caps``."""
    c, o, g, u = res
    if g > caps[3] or u > caps[4]:
        return False
    extra = (c - caps[0] if c > caps[0] else 0) + (o - caps[1] if o > caps[1] else 0)
    return extra <= caps[2]


def room_for(res: Res, caps: Caps, r: int) -> int:
    """How many more tokens of resource ``r`` (alone) fit beside ``res``."""
    c, o, g, u = res
    if r == 0:
        free = caps[0] + caps[2] - (o - caps[1] if o > caps[1] else 0) - c
    elif r == 1:
        free = caps[1] + caps[2] - (c - caps[0] if c > caps[0] else 0) - o
    elif r == 2:
        free = caps[3] - g
    else:
        free = caps[4] - u
    return free if free > 0 else 0


class Overflow(NamedTuple):
    """The tokens that no longer fit on a set of plants (after a discard).

    Garbage and uranium overflow exactly; of coal and oil, ``excess`` tokens must go in all, of
    which at least ``min_coal`` and at most ``max_coal`` are coal (hybrids hold either, so the
    mix is a choice). The players' different drops are all :meth:`drop` of one choice of coal:

    >>> ov = overflow((5,), (3, 3, 0, 0))   # plant 5 (hybrid, burns 2) holds 4 coal/oil
    >>> ov.excess, ov.min_coal, ov.max_coal
    (2, 0, 2)
    >>> ov.drop(ov.max_coal)                # coal first
    (2, 0, 0, 0)
    """

    excess: int
    min_coal: int
    max_coal: int
    garbage: int
    uranium: int

    def drop(self, coal: int) -> Res:
        """The tokens given back, with ``coal`` of the coal-or-oil excess as coal."""
        excess = self.excess if self.excess > 0 else 0
        return (coal, excess - coal, self.garbage, self.uranium)


def overflow(plants: tuple[int, ...], res: Res) -> Overflow:
    """What of ``res`` does not fit on ``plants``: one rule for every discard (the rules' check,
    the default move, and both bots)."""
    cc, oc, hc, gc, uc = capacity(plants)
    c, o, g, u = res
    over_c = c - cc if c > cc else 0
    over_o = o - oc if o > oc else 0
    excess = over_c + over_o - hc
    lo = excess - over_o if excess > over_o else 0
    hi = excess if excess < over_c else over_c
    if excess <= 0:
        lo = hi = 0
    return Overflow(excess, lo, hi, g - gc if g > gc else 0, u - uc if u > uc else 0)


class PowerChoice(NamedTuple):
    """A choice of plants to fire: the plants, the cities they power (capped at the cities
    owned) and the tokens burnt per resource (coal, oil, garbage, uranium)."""

    plants: tuple[int, ...]
    cities: int
    burnt: Res


def burn_need(fired: tuple[int, ...]) -> tuple[int, int, int, int, int]:
    """Tokens needed to fire plants: (coal, oil, hybrid coal-or-oil, garbage, uranium)."""
    need = [0, 0, 0, 0, 0]
    for number in fired:
        p = PLANTS[number]
        slot = _FUEL_SLOT.get(p.fuel)
        if slot is not None:
            need[slot] += p.burns
    return (need[0], need[1], need[2], need[3], need[4])


def can_fire(res: Res, need: tuple[int, int, int, int, int]) -> bool:
    c, o, g, u = res
    if c < need[0] or o < need[1] or g < need[3] or u < need[4]:
        return False
    return (c - need[0]) + (o - need[1]) >= need[2]


def powers(fired: tuple[int, ...]) -> int:
    return sum(PLANTS[n].powers for n in fired)


def hybrid_split(
    fired: tuple[int, ...], res: Res, coal_first: bool = True
) -> dict[int, tuple[int, int]]:
    """A split of coal and oil for each fired hybrid (coal first, by default), assuming
    the plants can fire."""
    need = burn_need(fired)
    spare_c = res[0] - need[0]
    spare_o = res[1] - need[1]
    out: dict[int, tuple[int, int]] = {}
    for number in fired:
        p = PLANTS[number]
        if p.fuel != "hybrid":
            continue
        if coal_first:
            c = min(p.burns, spare_c)
            o = p.burns - c
        else:
            o = min(p.burns, spare_o)
            c = p.burns - o
        spare_c -= c
        spare_o -= o
        out[number] = (c, o)
    return out


#: Per plant number: (fuel slot or -1, tokens burnt, cities powered).
_FIRE = {n: (_FUEL_SLOT.get(p.fuel, -1), p.burns, p.powers) for n, p in PLANTS.items()}

#: One way to fire a set of plants: tokens needed (coal, oil, hybrid coal-or-oil, garbage,
#: uranium), cities it powers, and the plants fired (in the order of the player's plants).
Subset = tuple[int, int, int, int, int, int, tuple[int, ...]]


@lru_cache(maxsize=1 << 14)
def _subsets(plants: tuple[int, ...]) -> tuple[Subset, ...]:
    """Every non-empty subset of ``plants`` with its needs, best first by (fewest tokens,
    fewest plants, lowest numbers): the tie-break order of the best choice, so that among the
    subsets powering the most cities the first one found is the best. Depends on the plants
    alone (a player's plants change rarely), so it is cached apart from the tokens. Each
    subset (bit i = plants[i]) is the one without its lowest plant, plus that plant."""
    rows: list[Subset] = [(0, 0, 0, 0, 0, 0, ())]
    for mask in range(1, 1 << len(plants)):
        low = mask & -mask
        number = plants[low.bit_length() - 1]
        prev = rows[mask ^ low]
        need = [prev[0], prev[1], prev[2], prev[3], prev[4]]
        slot, burns, powers_ = _FIRE[number]
        if slot >= 0:
            need[slot] += burns
        rows.append(
            (need[0], need[1], need[2], need[3], need[4], prev[5] + powers_, (number, *prev[6]))
        )
    return tuple(sorted(rows[1:], key=_tie_break))


def _tie_break(row: Subset) -> tuple[int, int, tuple[int, ...]]:
    nc, no, nh, ng, nu, _, fired = row
    return (nc + no + nh + ng + nu, len(fired), fired)


@lru_cache(maxsize=1 << 16)
def best_power(plants: tuple[int, ...], res: Res, cities: int) -> PowerChoice:
    """The best plants to fire, with the cities they power and the tokens they burn.

    The key is (most cities, fewest tokens, fewest plants, lowest numbers). The subsets come in
    the order of the last three (:func:`_subsets`), so the first one that can fire at a higher
    count of cities than any before it is the best at that count; firing nothing (0 cities)
    comes before them all."""
    c, o, g, u = res
    co = c + o
    best_pw = 0
    best: tuple[int, ...] = ()
    for nc, no, nh, ng, nu, pw, fired in _subsets(plants):
        if pw > cities:
            pw = cities
        if pw <= best_pw or nc > c or no > o or ng > g or nu > u or nc + no + nh > co:
            continue
        best_pw = pw
        best = fired
    return PowerChoice(best, best_pw, burnt(best, res))


def burnt(fired: tuple[int, ...], res: Res, split: dict[int, tuple[int, int]] | None = None) -> Res:
    """Tokens burnt per resource firing ``fired`` (hybrids by ``split``, else coal first)."""
    need = burn_need(fired)
    if need[2]:
        hs = hybrid_split(fired, res) if split is None else split
        hc = sum(c for c, _ in hs.values())
        ho = sum(o for _, o in hs.values())
    else:
        hc = ho = 0
    return (need[0] + hc, need[1] + ho, need[3], need[4])


def assign(plants: tuple[int, ...], res: Res) -> dict[int, dict[str, int]]:
    """A deterministic placement of a player's tokens on their plants (for display):
    pure plants fill first in number order, hybrids take the rest of the coal and oil."""
    left = list(res)
    out: dict[int, dict[str, int]] = {}
    order = ("coal", "oil", "garbage", "uranium")
    for number in plants:
        p = PLANTS[number]
        if p.fuel in order:
            r = order.index(p.fuel)
            put = min(left[r], 2 * p.burns)
            left[r] -= put
            out[number] = {p.fuel: put}
        else:
            out[number] = {}
    for number in plants:
        p = PLANTS[number]
        if p.fuel == "hybrid":
            cap = 2 * p.burns
            c = min(left[0], cap)
            o = min(left[1], cap - c)
            left[0] -= c
            left[1] -= o
            out[number] = {"coal": c, "oil": o}
    return out
