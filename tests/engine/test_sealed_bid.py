"""The sealed-bid variant (RULES-level variant of phase 2): after a plant is put up, everyone
else still in the round's auctions gives one sealed bid at the same time; the highest wins and
pays the second-highest plus one (never more than its own bid); ties go to the earlier in player
order; bids are hidden until the last is in; a replay gives the same game."""

from __future__ import annotations

import pytest

import powergrid
from powergrid.describe import move_entries
from powergrid.errors import IllegalAction
from powergrid.plans import ProxyBid, plan_move
from powergrid.serialize import from_json, to_json
from powergrid.state import SEALED_BID


def _opened(players: int = 4, seed: int = 3):
    s = powergrid.new_game(map="germany", players=players, seed=seed, variant=SEALED_BID)
    opener = powergrid.to_act(s)[0]
    plant = s.market[0]
    t = powergrid.apply(s, opener, {"type": "choose_plant", "plant": plant, "bid": plant})
    return t, opener, plant


def test_everyone_else_is_asked_at_once_for_one_sealed_bid():
    s, opener, plant = _opened()
    others = [seat for seat in s.order if seat != opener]
    assert list(powergrid.to_act(s)) == others
    for seat in others:
        kinds = {e["type"]: e for e in powergrid.legal(s, seat)}
        assert set(kinds) == {"seal_bid", "pass_bid"}
        assert kinds["seal_bid"]["min"] == plant + 1
    assert powergrid.legal(s, opener) == []
    with pytest.raises(IllegalAction) as exc:
        powergrid.apply(s, others[0], {"type": "bid", "amount": plant + 1})
    assert exc.value.code == "wrong_phase"


def test_the_highest_wins_and_pays_the_second_highest_plus_one():
    s, opener, plant = _opened()
    a, b, c = [seat for seat in s.order if seat != opener]
    money = s.players[b].money
    s = powergrid.apply(s, a, {"type": "seal_bid", "amount": plant + 4})
    s = powergrid.apply(s, b, {"type": "seal_bid", "amount": plant + 9})
    assert s.auction is not None  # not resolved until the last bid is in
    s = powergrid.apply(s, c, {"type": "pass_bid"})
    assert s.auction is None
    assert plant in s.players[b].plants
    assert money - s.players[b].money == plant + 5
    assert s.sealed_last == (plant, b, plant + 5, s.sealed_last[3])


def test_equal_bids_go_to_the_earlier_in_player_order_at_that_bid():
    s, opener, plant = _opened()
    a, b, c = [seat for seat in s.order if seat != opener]  # a before b in player order
    s = powergrid.apply(s, b, {"type": "seal_bid", "amount": plant + 3})
    s = powergrid.apply(s, a, {"type": "seal_bid", "amount": plant + 3})
    money = s.players[a].money
    s = powergrid.apply(s, c, {"type": "pass_bid"})
    assert plant in s.players[a].plants
    assert money - s.players[a].money == plant + 3


def test_when_everyone_else_passes_the_opener_pays_its_opening_bid():
    s, opener, plant = _opened()
    money = s.players[opener].money
    for seat in [x for x in s.order if x != opener]:
        s = powergrid.apply(s, seat, {"type": "pass_bid"})
    assert plant in s.players[opener].plants
    assert money - s.players[opener].money == plant


def test_a_sealed_bid_must_beat_the_opening_bid_and_be_paid_for_and_counts_once():
    s, opener, plant = _opened()
    seat = next(x for x in s.order if x != opener)
    for amount, code in ((plant, "bid_too_low"), (10_000, "insufficient_funds")):
        with pytest.raises(IllegalAction) as exc:
            powergrid.apply(s, seat, {"type": "seal_bid", "amount": amount})
        assert exc.value.code in (code, "invalid_field")
    t = powergrid.apply(s, seat, {"type": "seal_bid", "amount": plant + 1})
    with pytest.raises(IllegalAction) as exc:
        powergrid.apply(t, seat, {"type": "seal_bid", "amount": plant + 2})
    assert exc.value.code == "not_your_turn"


def test_bids_are_hidden_until_the_last_is_in_then_shown_to_all():
    s, opener, plant = _opened()
    a, b, c = [seat for seat in s.order if seat != opener]
    s = powergrid.apply(s, a, {"type": "seal_bid", "amount": plant + 7})
    for viewer in (None, opener, b, c):
        v = powergrid.view(s, viewer)
        assert v["auction"]["sealed_in"] == [a]
        assert "your_sealed_bid" not in v["auction"]
        assert plant + 7 not in [v["auction"]["high_bid"]]
        assert "sealed_last" not in v
    assert powergrid.view(s, a)["auction"]["your_sealed_bid"] == plant + 7
    s = powergrid.apply(s, b, {"type": "pass_bid"})
    s = powergrid.apply(s, c, {"type": "seal_bid", "amount": plant + 2})
    shown = powergrid.view(s, None)["sealed_last"]
    assert shown["winner"] == a
    assert shown["price"] == plant + 3
    assert shown["bids"] == {str(opener): plant, str(a): plant + 7, str(c): plant + 2}


def test_the_move_log_says_a_bid_was_sealed_never_how_much_and_the_price_paid():
    s, opener, plant = _opened(players=3)
    a, b = [seat for seat in s.order if seat != opener]
    act = {"type": "seal_bid", "amount": plant + 6}
    t = powergrid.apply(s, a, act)
    (entry,) = move_entries(act, a, powergrid.view(s), powergrid.view(t))
    assert entry["kind"] == "seal_bid"
    assert plant + 6 not in entry["params"].values()
    last = {"type": "pass_bid"}
    u = powergrid.apply(t, b, last)
    entries = move_entries(last, b, powergrid.view(t), powergrid.view(u))
    sale = next(e for e in entries if e["kind"] == "sale")
    assert sale["seat"] == a
    # b passed: the second-highest bid is the opening bid, so a pays it plus one.
    assert sale["params"] == {"plant": plant, "price": plant + 1}


def test_a_proxy_bid_seals_its_maximum():
    s, opener, plant = _opened()
    seat = next(x for x in s.order if x != opener)
    assert plan_move(s, seat, [ProxyBid(plant=plant, max=plant + 8)]).action == {
        "type": "seal_bid",
        "amount": plant + 8,
    }
    assert plan_move(s, seat, [ProxyBid(plant=plant, max=plant)]).action == {"type": "pass_bid"}


def test_a_sealed_game_replays_identically_and_round_trips_mid_auction():
    s, opener, plant = _opened()
    seat = next(x for x in s.order if x != opener)
    s = powergrid.apply(s, seat, {"type": "seal_bid", "amount": plant + 2})
    assert from_json(to_json(s)) == s
    assert to_json(from_json(to_json(s))) == to_json(s)


def test_a_standard_games_state_json_has_no_sealed_keys():
    s = powergrid.new_game(map="germany", players=3, seed=5)
    opener = powergrid.to_act(s)[0]
    s = powergrid.apply(s, opener, {"type": "choose_plant", "plant": s.market[0], "bid": 9})
    assert "sealed" not in to_json(s)


@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_whole_sealed_games_end_and_replay_from_their_move_log(bot):
    from powergrid.bots import RandomBot, play_game
    from powergrid.heuristic import HeuristicBot

    for seed in range(4):
        bots = [HeuristicBot() if bot == "heuristic" else RandomBot(seed) for _ in range(4)]
        final, moves = play_game("germany", 4, seed, bots, variant=SEALED_BID)
        assert final.phase == "finished"
        assert any(a["type"] == "seal_bid" for _, a in moves)
        s = powergrid.new_game(map="germany", players=4, seed=seed, variant=SEALED_BID)
        for seat, action in moves:
            s = powergrid.apply(s, seat, action)
        assert to_json(s) == to_json(final)
