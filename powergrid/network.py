"""The board in play: shortest connection costs between in-play cities, and build quotes.

A :class:`Board` is computed once per (map, areas) and cached: all-pairs shortest connection
costs (Dijkstra from every city over the subgraph of cities in play, so no route passes through
a city outside the chosen areas).

Building several cities in one turn is done one at a time, each connecting from the network as
it then stands. The cheapest order therefore costs the weight of a minimum spanning tree over the
shortest-path distances between the new cities, with the player's existing network contracted to
one root node (no root when the network is empty: the first city costs no connection). Prim's
algorithm finds it in O(k^2) for k new cities.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache

from powergrid.maps import GameMap, load_map

INF = 1 << 40


class Board:
    """The cities in play on one map with the chosen areas, and the distances between them."""

    __slots__ = ("areas", "cities", "dist", "gmap", "index", "map")

    def __init__(self, gmap: GameMap, areas: tuple[str, ...]) -> None:
        self.gmap = gmap
        self.map = gmap.slug
        self.areas = areas
        self.cities: tuple[str, ...] = tuple(sorted(gmap.cities_in(areas)))
        self.index: dict[str, int] = {c: i for i, c in enumerate(self.cities)}
        n = len(self.cities)
        adj: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for c in gmap.connections:
            ia = self.index.get(c.a)
            ib = self.index.get(c.b)
            if ia is not None and ib is not None:
                adj[ia].append((ib, c.cost))
                adj[ib].append((ia, c.cost))
        dist: list[tuple[int, ...]] = []
        for src in range(n):
            d = [INF] * n
            d[src] = 0
            heap = [(0, src)]
            while heap:
                du, u = heapq.heappop(heap)
                if du > d[u]:
                    continue
                for v, w in adj[u]:
                    nd = du + w
                    if nd < d[v]:
                        d[v] = nd
                        heapq.heappush(heap, (nd, v))
            dist.append(tuple(d))
        self.dist: tuple[tuple[int, ...], ...] = tuple(dist)

    def distance(self, a: str, b: str) -> int:
        """The cheapest connection cost between two in-play cities (``KeyError`` if not in play)."""
        return self.dist[self.index[a]][self.index[b]]

    def to_network(self, network: Iterable[str]) -> tuple[int, ...]:
        """For every in-play city (by index), the cheapest connection cost from ``network``;
        an empty network gives 0 everywhere (the first city needs no connection)."""
        return network_distances(self, tuple(network))

    def connection_cost(self, network: Sequence[str], new: Sequence[str]) -> int:
        """The cheapest total connection cost of adding ``new`` (in-play, not in ``network``)
        to ``network``, over every order the rules allow (Prim over the metric closure)."""
        k = len(new)
        if k == 0:
            return 0
        if k == 1:  # the common case: one city, joined by its cheapest connection
            if not network:
                return 0
            return network_distances(self, tuple(network))[self.index[new[0]]]
        dist = self.dist
        nodes = [self.index[c] for c in new]
        if network:
            root = network_distances(self, tuple(network))
            key = [root[i] for i in nodes]
            total = 0
        else:
            # No network yet: the first city is free to connect; grow the tree from it.
            first = nodes[0]
            row = dist[first]
            nodes = nodes[1:]
            key = [row[i] for i in nodes]
            total = 0
        while nodes:
            m = min(range(len(nodes)), key=key.__getitem__)
            total += key[m]
            u = nodes.pop(m)
            key.pop(m)
            row = dist[u]
            for j, v in enumerate(nodes):
                d = row[v]
                if d < key[j]:
                    key[j] = d
        return total


@lru_cache(maxsize=1 << 14)
def network_distances(board: Board, network: tuple[str, ...]) -> tuple[int, ...]:
    """:meth:`Board.to_network`, cached: a player's network changes only when they build, so
    every build quote, ``legal`` and the heuristic bot in between share it. Networks grow by
    appending (a player's cities in the order built), so the network without its last city
    is almost always cached already: a new network costs one row's minimum, not all of them."""
    if not network:
        return (0,) * len(board.cities)
    row = board.dist[board.index[network[-1]]]
    if len(network) == 1:
        return row
    base = network_distances(board, network[:-1])
    return tuple([a if a < b else b for a, b in zip(base, row, strict=True)])


@cache
def board_for(map_slug: str, areas: tuple[str, ...]) -> Board:
    """The cached :class:`Board` for a map and a (sorted) tuple of areas."""
    return Board(load_map(map_slug), areas)


def cities_connected(map_slug: str, areas: tuple[str, ...] | list[str]) -> bool:
    """Whether the cities of ``areas`` form one network through cities in play (every city can
    reach every other without leaving the areas): what a game needs to be able to end.

    >>> cities_connected("germany", ("brown", "green", "red"))
    True
    >>> cities_connected("italy", ("blue", "green", "red"))   # Livorno is cut off
    False
    """
    board = board_for(map_slug, tuple(sorted(areas)))
    return bool(board.dist) and all(d < INF for d in board.dist[0])
