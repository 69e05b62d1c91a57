"""Seating rules for every entrant count 3..40 at every table range, and Swiss later rounds."""

from __future__ import annotations

import random

import pytest

from tournaments.scoring import GameRecord, standings
from tournaments.seating import (
    History,
    SeatingRefused,
    repeat_floor,
    repeat_pairs,
    seat_round,
    sizes_of,
    table_sizes,
)

RANGES = [(a, b) for a in range(3, 7) for b in range(a, 7)]


def _best_seated(n: int, low: int, high: int) -> int:
    return max(min(n, t * high) for t in range(1, n // low + 1))


@pytest.mark.parametrize(("low", "high"), RANGES)
def test_sizes_every_count(low: int, high: int) -> None:
    for n in range(3, 41):
        if n < low:
            with pytest.raises(SeatingRefused) as exc:
                table_sizes(n, low, high)
            assert exc.value.code == "too_few_entrants"
            continue
        sizes = table_sizes(n, low, high)
        assert all(low <= s <= high for s in sizes), (n, sizes)
        assert max(sizes) - min(sizes) <= 1, (n, sizes)
        assert sizes == sorted(sizes, reverse=True)
        assert sum(sizes) == _best_seated(n, low, high), (n, sizes)
        # the fewest tables that seat that many
        assert all(t * high < sum(sizes) for t in range(1, len(sizes))), (n, sizes)
        # the round itself: everyone seated once or on a bye
        plan = seat_round(list(range(n)), table_min=low, table_max=high, maps=["de"], seed=n)
        seated = [p for t in plan.tables for p in t.players]
        assert sorted(seated + list(plan.byes)) == list(range(n))
        assert sizes_of(plan) == sizes


def test_examples_from_the_issue() -> None:
    assert table_sizes(7, 3, 4) == [4, 3]
    assert table_sizes(13, 3, 5) == [5, 4, 4]
    assert table_sizes(5, 3, 4) == [4]  # one bye
    assert table_sizes(12, 3, 3) == [3, 3, 3, 3]


@pytest.mark.parametrize(("low", "high"), [(2, 4), (4, 3), (3, 7)])
def test_range_refused(low: int, high: int) -> None:
    with pytest.raises(SeatingRefused) as exc:
        table_sizes(10, low, high)
    assert exc.value.code == "invalid_range"


def test_first_round_byes_go_to_last_joined() -> None:
    plan = seat_round(list(range(5)), table_min=3, table_max=4, maps=["de"])
    assert plan.byes == (4,)


def _play(n: int, rounds: int, low: int, high: int, seed: int) -> tuple[History, list[list[int]]]:
    rng = random.Random(seed)
    history = History()
    records: list[GameRecord] = []
    byes: list[int] = []
    order = list(range(n))
    per_round = []
    for r in range(1, rounds + 1):
        plan = seat_round(
            order, table_min=low, table_max=high, maps=["de", "us"], history=history, seed=seed
        )
        history.record(plan)
        per_round.append(sizes_of(plan))
        byes += plan.byes
        for t in plan.tables:
            ranks = list(range(1, len(t.players) + 1))
            rng.shuffle(ranks)
            records.append(
                GameRecord(r, t.players, tuple(ranks), tuple(ranks), tuple([50] * len(ranks)))
            )
        order = [s.entrant for s in standings(list(range(n)), records, byes=byes)]
    return history, per_round


def test_sixty_entrants_five_rounds_few_repeats() -> None:
    history, per_round = _play(60, 5, 3, 6, seed=1)
    floor = repeat_floor(60, per_round)
    repeats = repeat_pairs(history)
    print(f"60 entrants, 5 rounds at 3-6: {repeats} repeat meetings (floor {floor})")
    assert floor == 0
    assert repeats <= 6


@pytest.mark.parametrize(("n", "low", "high"), [(9, 3, 3), (10, 3, 4), (13, 3, 5), (20, 4, 6)])
def test_repeats_near_floor_small(n: int, low: int, high: int) -> None:
    history, per_round = _play(n, 3, low, high, seed=n)
    assert repeat_pairs(history) <= repeat_floor(n, per_round) + n // 3


def test_byes_rotate() -> None:
    history, _ = _play(7, 4, 3, 3, seed=3)  # 7 at 3-3: one bye a round
    assert max(history.byes.values()) == 1


def test_seat_order_balanced() -> None:
    history, _ = _play(12, 4, 4, 4, seed=5)
    for shares in history.seat_share.values():
        assert 0.2 <= sum(shares) / len(shares) <= 0.8


def test_maps_alternate() -> None:
    history, _ = _play(12, 4, 4, 4, seed=5)
    for maps in history.maps.values():
        assert maps["de"] >= 1
        assert maps["us"] >= 1
    per_table = [sum(m.values()) for m in history.maps.values()]
    assert set(per_table) == {4}


def test_deterministic() -> None:
    a = seat_round(list(range(20)), table_min=3, table_max=6, maps=["de"], seed=9)
    b = seat_round(list(range(20)), table_min=3, table_max=6, maps=["de"], seed=9)
    assert a == b


def test_no_player_twice() -> None:
    history, _ = _play(40, 3, 3, 6, seed=7)
    for p, met in history.met.items():
        assert p not in met


def test_repeat_floor_pigeonhole() -> None:
    # 20 at 5 a table: from round 2 on, each table of 5 seats two of one earlier table
    assert repeat_floor(20, [[5, 5, 5, 5]] * 3) == 8
    assert repeat_floor(9, [[3, 3, 3]] * 2) == 0
    assert repeat_floor(6, [[3, 3]] * 2) == 2


def _shares_a_table(plan, pairs) -> list[tuple[int, int]]:
    return [(p, q) for t in plan.tables for p, q in pairs if p in t.players and q in t.players]


@pytest.mark.parametrize("seed", range(12))
def test_entrants_across_a_block_never_share_a_table_in_round_one(seed: int) -> None:
    """Rule 5: 12 entrants at 3-4, blocks between 0 and each of 1, 2 (0 blocked them) and between
    3-4, 5-6, 7-8: every seating parts them, nobody sits out for it, the sizes stay the rule's."""
    pairs = [(0, 1), (0, 2), (3, 4), (5, 6), (7, 8)]
    apart = {0: {1, 2}, 3: {4}, 6: {5}, 7: {8}}
    plan = seat_round(
        list(range(12)), table_min=3, table_max=4, maps=["de"], seed=seed, apart=apart
    )
    assert _shares_a_table(plan, pairs) == []
    assert plan.byes == ()
    assert sizes_of(plan) == [4, 4, 4]


def test_a_block_changes_nothing_else_of_a_round() -> None:
    """Without blocks the seating is the one it always was; a block far from a table leaves it."""
    plain = seat_round(list(range(20)), table_min=3, table_max=6, maps=["de"], seed=9)
    assert plain == seat_round(
        list(range(20)), table_min=3, table_max=6, maps=["de"], seed=9, apart={}
    )


def test_later_rounds_keep_blocked_entrants_apart() -> None:
    """Swiss rounds: the standings put 0 and 1 side by side every round, the block parts them,
    and repeats stay near what the rounds allow."""
    rng = random.Random(4)
    history = History()
    apart = {0: {1}, 2: {3}}
    records: list[GameRecord] = []
    order = list(range(16))
    for r in range(1, 5):
        plan = seat_round(
            order, table_min=4, table_max=4, maps=["de"], history=history, seed=r, apart=apart
        )
        assert _shares_a_table(plan, [(0, 1), (2, 3)]) == []
        assert plan.byes == ()
        history.record(plan)
        for t in plan.tables:
            ranks = list(range(1, 5))
            rng.shuffle(ranks)
            records.append(GameRecord(r, t.players, tuple(ranks), tuple(ranks), (50,) * 4))
        order = [s.entrant for s in standings(list(range(16)), records)]
        order.remove(1)
        order.insert(order.index(0) + 1, 1)  # 0 and 1 next to each other in the standings
    assert history.met[0][1] == 0
    assert history.met[2][3] == 0


def test_when_no_seating_parts_them_the_later_one_sits_out() -> None:
    """One table for everyone: the one of the pair later in the order (joined later in round
    1, lower in the standings after) sits the round out; the round is seated without them."""
    plan = seat_round([10, 11, 12, 13], table_min=3, table_max=4, maps=["de"], apart={13: {11}})
    assert plan.byes == (13,)
    assert sorted(plan.tables[0].players) == [10, 11, 12]
    plan = seat_round([10, 11, 12, 13], table_min=3, table_max=4, maps=["de"], apart={11: {12}})
    assert plan.byes == (12,)
    with pytest.raises(SeatingRefused) as exc:
        seat_round([10, 11, 12], table_min=3, table_max=3, maps=["de"], apart={10: {12}})
    assert exc.value.code == "too_few_entrants"
