"""Plans answer for a player without a wait, with ordinary moves (powergrid/plans.py)."""

from __future__ import annotations

import powergrid
from powergrid.plans import (
    AutoPass,
    BuildOrder,
    BuyOrder,
    PassWhenNothing,
    PowerOrder,
    ProxyBid,
    plan_move,
    proxy_maxima,
)
from powergrid.state import AUCTION, BUILD, BUREAUCRACY, RESOURCES
from tests.engine.helpers import at_phase, make_state, with_player


def _run(s, plans_by_seat, manual=None):
    """Apply plan moves until the auction ends or a seat without an applicable plan is awaited;
    ``manual`` answers for seats without plans."""
    log = []
    while s.phase == AUCTION and s.auction is not None:
        seat = powergrid.to_act(s)[0]
        d = plan_move(s, seat, plans_by_seat.get(seat, []), proxy_maxima(s, plans_by_seat))
        action = d.action if d.action is not None else (manual or {}).get(seat)
        if action is None:
            break
        s = powergrid.apply(s, seat, action)
        log.append((seat, action))
    return s, log


def _opened(plant=13, bid=13):
    s = at_phase(make_state(3, order=(0, 1, 2)), AUCTION, order=(0, 1, 2))
    s = s.replace(market=(3, 4, 5, 13, 20, 21, 22, 23))
    return powergrid.apply(s, 0, {"type": "choose_plant", "plant": plant, "bid": bid})


def test_a_proxy_bids_the_minimum_needed_against_a_manual_bidder():
    s = _opened()
    seat = powergrid.to_act(s)[0]
    assert plan_move(s, seat, [ProxyBid(plant=13, max=20)]).action == {"type": "bid", "amount": 14}


def test_two_proxies_resolve_at_once_to_the_lower_maximum_plus_one():
    s = _opened()
    s, _ = _run(s, {0: [ProxyBid(13, 18)], 1: [ProxyBid(13, 25)], 2: [AutoPass(round=s.round)]})
    assert 13 in s.players[1].plants
    assert s.players[1].money == 50 - 19  # paid the other's maximum plus one


def test_a_tie_goes_to_the_one_whose_turn_comes_first_in_the_bidding_order():
    s = _opened()
    first = powergrid.to_act(s)[0]  # the next bidder after the opener
    s, _ = _run(s, {0: [ProxyBid(13, 20)], 1: [ProxyBid(13, 20)], 2: [AutoPass(round=s.round)]})
    assert 13 in s.players[first].plants  # it reached 20 first; the other cannot pass it
    assert s.players[first].money == 50 - 20


def test_against_a_bidder_by_hand_a_proxy_goes_one_step_at_a_time():
    s = _opened()
    s, log = _run(s, {1: [ProxyBid(13, 30)], 2: [AutoPass(round=s.round)]}, manual={})
    assert log[0] == (1, {"type": "bid", "amount": 14})  # no jump: the rival's hand is unknown


def test_a_maximum_below_the_minimum_passes():
    s = _opened(bid=15)
    seat = powergrid.to_act(s)[0]
    assert plan_move(s, seat, [ProxyBid(13, 14)]).action == {"type": "pass_bid"}


def test_a_proxy_for_another_plant_does_not_act():
    s = _opened()
    seat = powergrid.to_act(s)[0]
    assert plan_move(s, seat, [ProxyBid(20, 40)]).action is None


def _won_one_too_many(discard):
    """Seat 1 holds three plants (the 3-player limit) and its proxy wins plant 13."""
    s = at_phase(make_state(3, order=(0, 1, 2)), AUCTION, order=(0, 1, 2))
    s = with_player(s, 1, plants=[3, 4, 5])
    s = s.replace(market=(6, 7, 8, 13, 20, 21, 22, 23))
    s = powergrid.apply(s, 0, {"type": "choose_plant", "plant": 13, "bid": 13})
    plans = {1: [ProxyBid(13, 20, discard=discard)], 2: [AutoPass(round=s.round)]}
    s, _ = _run(s, plans, manual={0: {"type": "pass_bid"}})
    assert s.discard == (1, 13)
    return s, plans[1]


def test_a_proxy_that_wins_one_plant_too_many_gives_up_the_plant_it_names():
    s, plans = _won_one_too_many(discard=4)
    decision = plan_move(s, 1, plans)
    assert decision.action == {"type": "discard_plant", "plant": 4}
    after = powergrid.apply(s, 1, decision.action)
    assert after.players[1].plants == (3, 5, 13)
    assert after.discard is None


def test_without_a_named_discard_the_player_is_asked():
    s, plans = _won_one_too_many(discard=None)
    decision = plan_move(s, 1, plans)
    assert (decision.action, decision.reason) == (None, "")


def test_a_named_discard_no_longer_owned_is_not_made_and_says_why():
    s, _plans = _won_one_too_many(discard=None)
    decision = plan_move(s, 1, [ProxyBid(13, 20, discard=8)])
    assert decision.action is None
    assert "8" in decision.reason


def test_the_discard_of_a_proxy_for_another_plant_does_not_act():
    s, _plans = _won_one_too_many(discard=None)
    assert plan_move(s, 1, [ProxyBid(20, 30, discard=4)]).action is None


def test_auto_pass_passes_every_auction_of_its_round_only():
    s = at_phase(make_state(3, order=(0, 1, 2)), AUCTION, order=(0, 1, 2))
    assert plan_move(s, 0, [AutoPass(round=s.round)]).action == {"type": "pass_auction"}
    assert plan_move(s, 0, [AutoPass(round=s.round + 1)]).action is None


def test_pass_when_nothing_is_affordable():
    s = at_phase(make_state(3, order=(0, 1, 2)), AUCTION, order=(0, 1, 2))
    poor = with_player(s, 0, money=2)
    assert plan_move(poor, 0, [PassWhenNothing()]).action == {"type": "pass_auction"}
    assert plan_move(s, 0, [PassWhenNothing()]).action is None  # a plant is affordable: ask


def test_a_buy_order_buys_what_it_can_at_its_price_and_says_why_not():
    s = at_phase(make_state(3, order=(0, 1, 2)), RESOURCES, order=(0, 1, 2))
    s = with_player(s, 2, plants=(4,))  # coal, burns 2, stores 4; seat 2 buys first
    d = plan_move(s, 2, [BuyOrder(round=s.round, amounts={"coal": 2}, max_price=5)])
    assert d.action == {"type": "buy_resources", "coal": 2}
    cheap = plan_move(s, 2, [BuyOrder(round=s.round, amounts={"coal": 2}, max_price=0)])
    assert cheap.action is None
    assert "costs 0 or less" in cheap.reason


def test_a_build_order_holds_only_within_its_total():
    s = at_phase(make_state(3, order=(0, 1, 2)), BUILD, order=(0, 1, 2))
    city = s.board.cities[0]
    assert plan_move(s, 2, [BuildOrder(s.round, (city,), 10)]).action == {
        "type": "build",
        "cities": [city],
    }
    refused = plan_move(s, 2, [BuildOrder(s.round, (city,), 9)])
    assert refused.action is None
    assert "more than 9" in refused.reason


def test_a_power_order_powers_with_the_best_choice():
    s = at_phase(make_state(3, order=(0, 1, 2)), BUREAUCRACY, order=(0, 1, 2))
    assert plan_move(s, 1, [PowerOrder(round=s.round)]).action == {"type": "power"}


def test_plans_never_act_for_a_seat_that_is_not_awaited():
    s = _opened()
    idle = next(i for i in range(3) if i not in powergrid.to_act(s))
    assert plan_move(s, idle, [ProxyBid(13, 40), AutoPass(s.round)]).action is None
