"""Tournament points by table size, ties shared, standings' tie-breaks."""

from __future__ import annotations

import pytest

from tournaments.scoring import BYE_POINTS, GameRecord, place_points, standings, table_points


@pytest.mark.parametrize(
    ("size", "points"),
    [
        (3, [120, 60, 0]),
        (4, [120, 80, 40, 0]),
        (5, [120, 90, 60, 30, 0]),
        (6, [120, 96, 72, 48, 24, 0]),
    ],
)
def test_place_points(size: int, points: list[int]) -> None:
    assert [place_points(size, p) for p in range(1, size + 1)] == points
    assert table_points(list(range(1, size + 1))) == points


def test_ties_share_whole_numbers() -> None:
    assert table_points([1, 1, 3]) == [90, 90, 0]
    assert table_points([2, 1, 2, 4, 5]) == [75, 120, 75, 30, 0]
    for size in range(3, 7):
        for i in range(size):
            for j in range(i + 1, size + 1):
                shared = [place_points(size, k + 1) for k in range(i, j)]
                assert sum(shared) % len(shared) == 0


def test_standings_tie_breaks() -> None:
    games = [
        # 1 and 2 tie on points over the tournament; 1 powered more
        GameRecord(1, (1, 2, 3), (1, 2, 3), (10, 9, 8), (5, 5, 5)),
        GameRecord(2, (1, 2, 3), (2, 1, 3), (9, 8, 7), (5, 5, 5)),
    ]
    rows = standings([1, 2, 3], games)
    assert [r.entrant for r in rows] == [1, 2, 3]
    assert rows[0].points == rows[1].points == 180
    assert [r.place for r in rows] == [1, 2, 3]


def test_money_then_head_to_head_then_join() -> None:
    games = [
        GameRecord(1, (1, 2, 3), (1, 2, 3), (9, 9, 9), (10, 20, 0)),
        GameRecord(2, (1, 2, 3), (2, 1, 3), (9, 9, 9), (20, 10, 0)),
    ]
    rows = standings([2, 1, 3], games)
    # equal points, powered, money; head-to-head 1-1: the join order decides, place shared
    assert [r.entrant for r in rows] == [2, 1, 3]
    assert [r.place for r in rows] == [1, 1, 3]
    games.append(GameRecord(3, (1, 2), (1, 2), (0, 0), (0, 0)))
    rows = standings(
        [2, 1, 3], [*games[:2], GameRecord(3, (1, 4, 2), (1, 2, 3), (0, 0, 0), (0, 0, 0))]
    )
    assert rows[0].entrant == 1


def test_byes_and_drops() -> None:
    rows = standings([1, 2], [], byes=[2], dropped=[1])
    assert rows[0].entrant == 2
    assert rows[0].points == BYE_POINTS
    assert rows[1].dropped
