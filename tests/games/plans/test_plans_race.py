"""A plan and its owner's own move racing for the same turn (PostgreSQL, real threads): one of
them makes the move, the other is refused (409 stale_state) or finds nothing left to do; the
move is never made twice."""

from __future__ import annotations

import os
import threading

import pytest
from apihelpers import open_first_auction, seat_players
from django.db import connections

pytestmark = pytest.mark.django_db(transaction=True)

needs_postgres = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="row locks need PostgreSQL",
)


@needs_postgres
@pytest.mark.parametrize("attempt", range(3))
def test_a_plan_and_its_owners_move_never_both_act(new_game, attempt):
    import powergrid
    from games.models import Game, Move

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    _s, _opener, plant = open_first_auction(gid, seats)
    bidder = powergrid.to_act(powergrid.from_json(Game.objects.get(pk=gid).state_json))[0]
    p = seats[bidder]
    barrier = threading.Barrier(2)
    out: dict[str, int] = {}

    def own_move() -> None:
        from rest_framework.test import APIClient

        c = APIClient()
        c.credentials(HTTP_AUTHORIZATION=f"Token {p.token}")
        try:
            barrier.wait()
            out["move"] = c.post(
                f"/api/v1/games/{gid}/moves/",
                {"action": {"type": "bid", "amount": plant + 2}, "expected_seq": 1},
                format="json",
            ).status_code
        finally:
            connections.close_all()

    def plan() -> None:
        from rest_framework.test import APIClient

        c = APIClient()
        c.credentials(HTTP_AUTHORIZATION=f"Token {p.token}")
        try:
            barrier.wait()
            r = c.post(
                f"/api/v1/games/{gid}/plans/",
                {"kind": "proxy_bid", "plant": plant, "max": plant + 9},
                format="json",
            )
            out["plan"] = r.status_code
            out["plan_moves"] = r.json().get("moves_made", -1)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=own_move), threading.Thread(target=plan)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out["plan"] == 200
    by_bidder = list(Move.objects.filter(game_id=gid, seat=bidder).order_by("seq"))
    assert len(by_bidder) == 1, [(m.source, m.action) for m in by_bidder]
    if out["move"] == 201:  # the own move came first: the plan waits for the next turn
        assert out["plan_moves"] == 0
        assert by_bidder[0].source == "api"
    else:  # the plan moved first: the own move is refused, nothing doubled
        assert out["move"] == 409
        assert out["plan_moves"] == 1
        assert by_bidder[0].source == "plan"
    game = Game.objects.get(pk=gid)
    assert game.seq == 2
    assert bidder not in game.to_act
