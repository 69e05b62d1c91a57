"""Query budgets of the hot API paths, so a later change cannot add queries to them unnoticed.

A move (POST /moves/) is, inside its transaction: the token lookup, the savepoint (a BEGIN outside
tests), the game row locked, its seats with users and profiles (read once: the seat check, the
turn hook's deadlines and the response's names all use them), the move inserted, the game updated,
the changed seats updated in one statement, the outbox rows inserted in one statement, the
stream's event log (``games.stream.log.record``, the change's last write: the PostgreSQL advisory
lock that keeps the log's ids in commit order, then the event's INSERT), the commit (savepoint
release). Reading the state is the token, then the game and its seats in one query.
"""

from __future__ import annotations

import pytest
from apihelpers import seat_players

import powergrid

MOVE_QUERIES = 11
STATE_QUERIES = 2


def _next_move(gid: int) -> tuple[int, int, dict]:
    """(seat to act, seq, the engine's default action for it): test-only, from the snapshot."""
    from games.models import Game

    game = Game.objects.get(pk=gid)
    seat = game.to_act[0]
    return seat, game.seq, powergrid.default_action(powergrid.from_json(game.state_json), seat)


def _play(gid, seats, moves: int) -> None:
    for _ in range(moves):
        seat, seq, action = _next_move(gid)
        r = seats[seat].post(f"/api/v1/games/{gid}/moves/", {"action": action, "expected_seq": seq})
        assert r.status_code == 201, r.content


@pytest.mark.parametrize("moves_before", [0, 12])
def test_move_submission_query_budget(new_game, django_assert_max_num_queries, moves_before):
    gid, ps = new_game(players=4)
    seats = seat_players(gid, ps)
    _play(gid, seats, moves_before)
    seat, seq, action = _next_move(gid)
    with django_assert_max_num_queries(MOVE_QUERIES):
        r = seats[seat].post(f"/api/v1/games/{gid}/moves/", {"action": action, "expected_seq": seq})
    assert r.status_code == 201, r.content


def test_state_read_query_budget(new_game, django_assert_max_num_queries):
    gid, ps = new_game(players=4)
    with django_assert_max_num_queries(STATE_QUERIES):
        r = ps[1].get(f"/api/v1/games/{gid}/state/")
    assert r.status_code == 200, r.content


def test_move_response_equals_a_fresh_read(new_game):
    """The 201 body is built from the rows the move service holds (seats updated in place by the
    turn hook, no second read): it must equal what a fresh GET /state/ returns, deadline included,
    for every move of a few rounds and for the mover and the next player alike."""
    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    for _ in range(25):
        seat, seq, action = _next_move(gid)
        mover = seats[seat]
        r = mover.post(f"/api/v1/games/{gid}/moves/", {"action": action, "expected_seq": seq})
        assert r.status_code == 201, r.content
        assert r.json() == mover.get(f"/api/v1/games/{gid}/state/").json()
        after = ps[0].get(f"/api/v1/games/{gid}/").json()
        assert r.json()["deadline"] == after["deadline"]
