"""Plans that acted on a move taken back are evaluated again: a standing order used up by its
answer to the cancelled move is put back, and answers the move made instead (here: a buy order
for coal at price 1 buys what the new purchase left). A plan its owner gave again since stays as
given; a take-back needs the agreement of a player whose plan moved."""

from __future__ import annotations

from typing import Any

import pytest
from apihelpers import seat_players

pytestmark = pytest.mark.django_db


def _state(gid: int):
    import powergrid
    from games.models import Game

    return powergrid.from_json(Game.objects.get(pk=gid).state_json)


def _move(p, gid: int, action: dict[str, Any]):
    from games.models import Game

    seq = Game.objects.get(pk=gid).seq
    r = p.post(f"/api/v1/games/{gid}/moves/", {"action": action, "expected_seq": seq})
    assert r.status_code == 201, r.json()


def _to_phase_3(new_game):
    """Two players: one buys plant 4 (coal), the other plant 5 (hybrid); phase 3 then asks the
    coal player first (reverse order), the hybrid player second."""
    gid, ps = new_game(players=2, options={"takebacks_rated": True})
    seats = seat_players(gid, ps)
    first, second = _state(gid).order
    _move(seats[first], gid, {"type": "choose_plant", "plant": 4, "bid": 4})
    _move(seats[second], gid, {"type": "pass_bid"})
    _move(seats[second], gid, {"type": "choose_plant", "plant": 5, "bid": 5})
    s = _state(gid)
    assert s.phase == "resources"
    coal, hybrid = first, second
    assert s.order == (hybrid, coal)
    return gid, seats, coal, hybrid


def test_a_buy_order_used_by_a_cancelled_move_is_put_back_and_acts_again(new_game):
    from games.models import Plan, SpentPlan

    gid, seats, coal, hybrid = _to_phase_3(new_game)
    r = seats[hybrid].post(
        f"/api/v1/games/{gid}/plans/",
        {"kind": "buy", "amounts": {"coal": 3}, "max_price": 1},
    )
    assert r.status_code == 200, r.json()
    assert r.json()["moves_made"] == 0  # not its turn yet
    # The coal player buys 2 of the 3 coal at 1: the hybrid's order buys the one left.
    _move(seats[coal], gid, {"type": "buy_resources", "coal": 2})
    s = _state(gid)
    assert s.players[hybrid].res[0] == 1
    assert s.phase == "build"
    assert not Plan.objects.filter(game_id=gid).exists()
    assert SpentPlan.objects.filter(game_id=gid).count() == 1
    # A plan moved since: the take-back needs the hybrid player's agreement.
    seq = _state_seq(gid)
    r = seats[coal].post(f"/api/v1/games/{gid}/takeback/", {"expected_seq": seq})
    assert r.json()["error"]["details"]["reason"] == "others_moved"
    rid = seats[coal].post(f"/api/v1/games/{gid}/takeback/requests/", {"expected_seq": seq})
    rid = rid.json()["request"]["id"]
    r = seats[hybrid].post(f"/api/v1/games/{gid}/takeback/requests/{rid}/accept/")
    assert r.json()["takeback"]["cancels"] == [seq - 1, seq]
    s = _state(gid)
    assert s.phase == "resources"
    assert s.players[hybrid].res[0] == 0
    assert Plan.objects.filter(game_id=gid, seat=hybrid, kind="buy").exists()  # put back
    # The coal player now buys none: the order, evaluated again, buys its 3 at price 1.
    _move(seats[coal], gid, {"type": "buy_resources"})
    s = _state(gid)
    assert s.players[hybrid].res[0] == 3
    assert s.phase == "build"
    from django.core.management import call_command

    call_command("check_replays", str(gid))


def test_a_plan_given_again_since_is_kept_as_given(new_game):
    from games.models import Plan, SpentPlan
    from games.services.takeback import _plans_back

    gid, seats, coal, hybrid = _to_phase_3(new_game)
    seats[hybrid].post(
        f"/api/v1/games/{gid}/plans/", {"kind": "buy", "amounts": {"coal": 3}, "max_price": 1}
    )
    _move(seats[coal], gid, {"type": "buy_resources", "coal": 2})
    spent = SpentPlan.objects.get(game_id=gid)
    from games.models import Game

    game = Game.objects.get(pk=gid)
    Plan.objects.create(
        game=game, seat=hybrid, kind="buy", key=0,
        data={**spent.data, "amounts": {"coal": 1}},
    )  # fmt: skip
    _plans_back(game, spent.seq)
    plan = Plan.objects.get(game_id=gid, seat=hybrid, kind="buy")
    assert plan.data["amounts"] == {"coal": 1}
    assert not SpentPlan.objects.filter(game_id=gid).exists()


def _state_seq(gid: int) -> int:
    from games.models import Game

    return Game.objects.get(pk=gid).seq
