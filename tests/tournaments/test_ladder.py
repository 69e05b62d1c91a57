"""The ladder between seasons (tournaments.ladder): first divisions by rating, promotion and
relegation at each boundary, newcomers at the bottom, sizes kept within the league's limits."""

from __future__ import annotations

import pytest

from tournaments import ladder


def test_first_divisions_are_even_and_within_the_size():
    assert ladder.first_divisions(list(range(18)), division_size=9, table_min=3) == [
        list(range(9)),
        list(range(9, 18)),
    ]
    assert [
        len(d) for d in ladder.first_divisions(list(range(20)), division_size=9, table_min=3)
    ] == [7, 7, 6]
    # too few for two divisions of table_min: one larger division
    assert [
        len(d) for d in ladder.first_divisions(list(range(5)), division_size=4, table_min=3)
    ] == [5]
    assert ladder.first_divisions([], division_size=9, table_min=3) == []


@pytest.mark.parametrize("n", range(3, 61))
@pytest.mark.parametrize(("size", "table_min"), [(3, 3), (4, 3), (6, 4), (9, 3), (12, 5)])
def test_every_division_seats_a_table_and_everyone_is_placed_once(n, size, table_min):
    if size < table_min or n < table_min:
        return
    divisions = ladder.first_divisions(list(range(n)), division_size=size, table_min=table_min)
    assert sorted(p for d in divisions for p in d) == list(range(n))
    assert all(len(d) >= table_min for d in divisions)
    assert max(len(d) for d in divisions) - min(len(d) for d in divisions) <= 1
    if len(divisions) < n // table_min:  # not held back by table_min: within the size
        assert all(len(d) <= size for d in divisions)


def test_top_movers_go_up_and_bottom_movers_go_down():
    finishes = [[1, 2, 3, 4, 5, 6], [11, 12, 13, 14, 15, 16], [21, 22, 23, 24, 25, 26]]
    mv = ladder.moves(finishes, 2)
    assert mv[0] == ladder.Moves(up=(), down=(5, 6))
    assert mv[1] == ladder.Moves(up=(11, 12), down=(15, 16))
    assert mv[2] == ladder.Moves(up=(21, 22), down=())
    nxt = ladder.next_divisions(finishes, [], movers=2, division_size=6, table_min=3)
    assert nxt == [
        [1, 2, 3, 4, 11, 12],
        [5, 6, 13, 14, 21, 22],
        [15, 16, 23, 24, 25, 26],
    ]


def test_a_small_division_moves_at_most_half_so_nobody_goes_both_ways():
    finishes = [[1, 2, 3, 4], [11, 12, 13], [21, 22, 23, 24]]
    mv = ladder.moves(finishes, 3)
    assert len(mv[1].up) == 1
    assert len(mv[1].down) == 1
    assert not set(mv[1].up) & set(mv[1].down)
    sizes = [
        len(d) for d in ladder.next_divisions(finishes, [], movers=3, division_size=4, table_min=3)
    ]
    assert sizes == [4, 3, 4]


def test_newcomers_join_the_bottom_which_splits_when_too_large():
    finishes = [[1, 2, 3, 4], [11, 12, 13, 14]]
    nxt = ladder.next_divisions(finishes, [31, 32, 33, 34], movers=1, division_size=4, table_min=3)
    assert nxt[0] == [1, 2, 3, 11]
    assert nxt[1] == [4, 12, 13, 14]  # the upper part of the bottom keeps its tier
    assert nxt[2] == [31, 32, 33, 34]


def test_a_division_emptied_by_leavers_joins_the_one_below():
    finishes = [[1, 2, 3, 4, 5], [11], [21, 22, 23, 24]]  # division 2 lost all but one
    nxt = ladder.next_divisions(finishes, [], movers=1, division_size=5, table_min=3)
    assert sorted(p for d in nxt for p in d) == sorted(p for d in finishes for p in d)
    assert all(len(d) >= 3 for d in nxt)
    assert nxt[0][:4] == [1, 2, 3, 4]


def test_nobody_promoted_plays_lower_nor_relegated_higher_over_many_seasons():
    import random

    rng = random.Random(7)
    divisions = ladder.first_divisions(list(range(40)), division_size=8, table_min=3)
    next_id = 40
    for _ in range(12):
        finishes = [rng.sample(d, len(d)) for d in divisions]
        leavers = set(rng.sample(range(next_id), 3))
        staying = [[p for p in f if p not in leavers] for f in finishes]
        newcomers = list(range(next_id, next_id + rng.randrange(0, 8)))
        next_id += len(newcomers)
        mv = ladder.moves(staying, 2)
        nxt = ladder.next_divisions(staying, newcomers, movers=2, division_size=8, table_min=3)
        rank = {p: i for i, d in enumerate(nxt) for p in d}
        # a division's order is kept, so relative tiers hold even when sizes change
        for i, m in enumerate(mv):
            for p in m.up:
                assert all(
                    rank[p] <= rank[q] for q in staying[i] if q not in m.up and q not in m.down
                )
            for p in m.down:
                assert all(
                    rank[p] >= rank[q] for q in staying[i] if q not in m.up and q not in m.down
                )
        assert all(len(d) >= 3 for d in nxt)
        assert sorted(p for d in nxt for p in d) == sorted(
            [p for d in staying for p in d] + newcomers
        )
        divisions = nxt
