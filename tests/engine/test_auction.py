"""Phase 2: opening by player order, bidding by seat, passing, the plant limit, the no-sale rule."""

from __future__ import annotations

import pytest

import powergrid
from powergrid.plants import STEP3
from powergrid.state import AUCTION, RESOURCES
from tests.engine.helpers import ALL_CARDS, at_phase, check_invariants, make_state, with_player


def test_round_one_nobody_may_pass():
    s = make_state(4)
    first = s.order[0]
    assert powergrid.to_act(s) == (first,)
    assert {"type": "pass_auction"} not in powergrid.legal(s, first)
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, first, {"type": "pass_auction"})
    assert err.value.code == "cannot_pass_round_one"


def test_opening_follows_player_order_but_bidding_goes_round_the_table_by_seat():
    """Order 2, 0, 3, 1: seat 2 opens; bidding continues with seat 3 (next seat), then 0, 1."""
    s = make_state(4, order=(2, 0, 3, 1))
    assert powergrid.to_act(s) == (2,)
    s = powergrid.apply(s, 2, {"type": "choose_plant", "plant": 4, "bid": 4})
    assert powergrid.to_act(s) == (3,)
    s = powergrid.apply(s, 3, {"type": "bid", "amount": 5})
    assert powergrid.to_act(s) == (0,)
    s = powergrid.apply(s, 0, {"type": "pass_bid"})
    assert powergrid.to_act(s) == (1,)
    s = powergrid.apply(s, 1, {"type": "pass_bid"})
    assert powergrid.to_act(s) == (2,)
    s = powergrid.apply(s, 2, {"type": "pass_bid"})
    # Seat 3 won plant 4 for 5; the opener (seat 2) chooses again.
    assert 4 in s.players[3].plants
    assert s.players[3].money == 45
    assert powergrid.to_act(s) == (2,)


def test_a_player_who_bought_takes_no_further_part():
    s = make_state(4, order=(0, 1, 2, 3))
    s = powergrid.apply(s, 0, {"type": "choose_plant", "plant": 3, "bid": 3})
    for seat in (1, 2, 3):
        s = powergrid.apply(s, seat, {"type": "pass_bid"})
    assert s.done[0]
    s = powergrid.apply(s, 1, {"type": "choose_plant", "plant": 4, "bid": 4})
    # Bidders are seats 1, 2, 3 only; seat 0 is out.
    assert s.auction is not None
    assert s.auction.bidders == (1, 2, 3)
    assert powergrid.to_act(s) == (2,)


def test_pass_auction_takes_a_player_out_for_the_round():
    s = at_phase(make_state(4), AUCTION, order=(0, 1, 2, 3))
    s = with_player(s, 1, plants=(20,))
    s = powergrid.apply(s, 0, {"type": "pass_auction"})
    assert powergrid.to_act(s) == (1,)
    s = powergrid.apply(s, 1, {"type": "choose_plant", "plant": s.market[0], "bid": s.market[0]})
    assert s.auction is not None
    assert 0 not in s.auction.bidders


def test_the_last_player_buys_at_the_minimum():
    """Only seat 3 is still in: its opening is a purchase at the plant's number."""
    s = at_phase(make_state(4), AUCTION, order=(3, 0, 1, 2))
    s = s.replace(done=(True, True, True, False), bought_any=True)
    plant = s.market[1]
    s = powergrid.apply(s, 3, {"type": "choose_plant", "plant": plant, "bid": plant + 7})
    assert plant in s.players[3].plants
    assert s.players[3].money == 50 - plant
    assert s.phase == RESOURCES


def test_round_one_order_is_recomputed_by_highest_plant_on_every_path():
    """Round 1: the winner is not the opener, the opener chooses again, the last buys alone."""
    s = make_state(4, order=(0, 1, 2, 3))
    s = powergrid.apply(s, 0, {"type": "choose_plant", "plant": 3, "bid": 3})
    s = powergrid.apply(s, 1, {"type": "bid", "amount": 4})  # seat 1 outbids the opener
    for seat in (2, 3, 0):
        s = powergrid.apply(s, seat, {"type": "pass_bid"})
    assert s.players[1].plants == (3,)
    assert powergrid.to_act(s) == (0,)  # the opener chooses again
    s = powergrid.apply(s, 0, {"type": "choose_plant", "plant": 7, "bid": 7})
    for seat in (2, 3):
        s = powergrid.apply(s, seat, {"type": "pass_bid"})
    s = powergrid.apply(s, 2, {"type": "choose_plant", "plant": 6, "bid": 6})
    s = powergrid.apply(s, 3, {"type": "pass_bid"})
    s = powergrid.apply(s, 3, {"type": "choose_plant", "plant": 5, "bid": 9})
    assert s.players[3].money == 45  # alone: at the minimum
    assert s.phase == RESOURCES
    # Highest plant first: seat 0 (7), seat 2 (6), seat 3 (5), seat 1 (3).
    assert s.order == (0, 2, 3, 1)


def test_market_is_refilled_exactly_once_per_purchase():
    s = make_state(4, order=(0, 1, 2, 3))
    deck = len(s.deck)
    s = powergrid.apply(s, 0, {"type": "choose_plant", "plant": 3, "bid": 3})
    for seat in (1, 2, 3):
        s = powergrid.apply(s, seat, {"type": "pass_bid"})
    assert len(s.deck) == deck - 1
    assert len(s.market) == 8
    assert 13 in s.market  # 13 lies on top of the deck
    assert list(s.market) == sorted(s.market)


def _limit_position():
    """Round 2, seat 0 already has three plants with tokens, and buys a fourth."""
    s = at_phase(make_state(4), AUCTION, order=(0, 1, 2, 3))
    s = with_player(s, 0, plants=(4, 5, 7), res=(4, 3, 0, 0), money=50)
    s = s.replace(done=(False, True, True, True), bought_any=True)
    return s


def test_plant_limit_discard_moves_tokens_to_the_remaining_plants():
    s = _limit_position()
    s = powergrid.apply(s, 0, {"type": "choose_plant", "plant": s.market[0], "bid": s.market[0]})
    assert s.discard is not None
    assert powergrid.to_act(s) == (0,)
    assert powergrid.legal(s, 0) == [{"type": "discard_plant", "plants": [4, 5, 7]}]
    deck, market = s.deck, s.market
    # Discarding plant 4 (coal): its coal moves to the hybrid 5 (4 coal + 3 oil fit 5 + 7).
    s2 = powergrid.apply(s, 0, {"type": "discard_plant", "plant": 4})
    assert s2.players[0].res == (4, 3, 0, 0)
    assert 4 in s2.removed
    assert s2.deck == deck
    assert s2.market == market
    assert s2.phase == RESOURCES
    check_invariants(s2)


def test_discard_needs_a_sufficient_drop():
    s = at_phase(make_state(4), AUCTION, order=(0, 1, 2, 3))
    s = with_player(s, 0, plants=(4, 8, 10), res=(8, 0, 0, 0))
    s = s.replace(done=(False, True, True, True), bought_any=True)
    s = powergrid.apply(s, 0, {"type": "choose_plant", "plant": s.market[0], "bid": s.market[0]})
    # Without plant 8 (coal, stores 6) the coal plants 4 and 10 hold 4 + 4: 12 coal is 4 too many.
    s = with_player(s, 0, res=(12, 0, 0, 0))
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "discard_plant", "plant": 8, "drop": {"coal": 3}})
    assert err.value.code == "no_storage"
    assert err.value.details == {"drop_at_least": {"coal": 4}}
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "discard_plant", "plant": 8, "drop": {"coal": 13}})
    assert err.value.code == "not_enough_resources"
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "discard_plant", "plant": 8, "drop": {"gold": 1}})
    assert err.value.code == "invalid_field"
    after = powergrid.apply(s, 0, {"type": "discard_plant", "plant": 8, "drop": {"coal": 4}})
    assert after.players[0].res == (8, 0, 0, 0)
    assert after.supply()[0] == s.supply()[0] + 4  # dropped tokens go back to the supply


def test_the_plant_just_bought_cannot_be_discarded():
    s = _limit_position()
    plant = s.market[0]
    s = powergrid.apply(s, 0, {"type": "choose_plant", "plant": plant, "bid": plant})
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "discard_plant", "plant": plant})
    assert err.value.code == "plant_not_available"
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "discard_plant", "plant": 50})
    assert err.value.code == "plant_not_owned"
    # Nobody else may act while the discard is awaited.
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 1, {"type": "choose_plant", "plant": s.market[0]})
    assert err.value.code == "not_your_turn"


def test_nobody_bought_removes_the_lowest_plant_and_draws():
    s = at_phase(make_state(4), AUCTION, order=(0, 1, 2, 3))
    market = s.market
    top = s.deck[0]
    for seat in (0, 1, 2, 3):
        s = powergrid.apply(s, seat, {"type": "pass_auction"})
    assert s.phase == RESOURCES
    assert market[0] in s.removed
    assert s.market == tuple(sorted((*market[1:], top)))


def test_bids_must_rise_and_be_affordable():
    s = make_state(4, order=(0, 1, 2, 3))
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "choose_plant", "plant": 6, "bid": 5})
    assert (err.value.code, err.value.details) == ("bid_too_low", {"min": 6})
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "choose_plant", "plant": 6, "bid": 51})
    assert err.value.code == "insufficient_funds"
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "choose_plant", "plant": 9, "bid": 9})
    assert err.value.code == "plant_not_available"  # 9 is in the future market
    s = powergrid.apply(s, 0, {"type": "choose_plant", "plant": 6, "bid": 8})
    assert powergrid.legal(s, 1) == [{"type": "bid", "min": 9, "max": 50}, {"type": "pass_bid"}]
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 1, {"type": "bid", "amount": 8})
    assert (err.value.code, err.value.details) == ("bid_too_low", {"min": 9})
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 1, {"type": "bid", "amount": 60})
    assert err.value.code == "insufficient_funds"


def test_a_poor_player_is_not_skipped_in_the_bidding():
    """Skipping players who cannot afford a raise would reveal their money."""
    s = make_state(4, order=(0, 1, 2, 3))
    s = with_player(s, 1, money=3)
    s = powergrid.apply(s, 0, {"type": "choose_plant", "plant": 6, "bid": 6})
    assert powergrid.to_act(s) == (1,)
    assert powergrid.legal(s, 1) == [{"type": "pass_bid"}]


def test_step3_card_never_offered_for_auction():
    s = at_phase(make_state(4), AUCTION, order=(0, 1, 2, 3))
    s = s.replace(
        market=(20, 21, 22, STEP3), deck=tuple(x for x in s.deck if x not in (20, 21, 22, STEP3))
    )
    s = s.replace(
        removed=tuple(
            x
            for x in ALL_CARDS
            if x not in s.deck and x not in s.market and x not in s.setup_removed
        )
    )
    with pytest.raises(powergrid.IllegalAction) as err:
        powergrid.apply(s, 0, {"type": "choose_plant", "plant": STEP3})
    assert err.value.code == "unknown_plant"


def test_discard_without_drop_returns_what_does_not_fit_to_the_supply():
    """legal offers every other plant with no drop; apply must accept each of them (it used to
    answer no_storage): the tokens that fit move to the remaining plants (rulebook: "the rest
    return to the supply"), coal going back before oil when a hybrid leaves a choice."""
    s = at_phase(make_state(4), AUCTION, order=(0, 1, 2, 3))
    # 4 coal (stores 4), 5 hybrid (4), 7 oil (6): 6 coal + 6 oil; plant 6 (garbage) bought.
    s = with_player(s, 0, plants=(4, 5, 7), res=(6, 6, 0, 0))
    s = s.replace(done=(False, True, True, True), bought_any=True)
    assert 6 in s.market[:4]
    s = powergrid.apply(s, 0, {"type": "choose_plant", "plant": 6, "bid": 6})  # garbage
    assert powergrid.legal(s, 0) == [{"type": "discard_plant", "plants": [4, 5, 7]}]
    kept = {
        4: (4, 6, 0, 0),  # 5 + 7 hold 10 coal-or-oil, coal only on the hybrid: 2 coal back
        5: (4, 6, 0, 0),  # 4 + 7 hold 4 coal and 6 oil
        7: (4, 4, 0, 0),  # 4 + 5 hold 8 coal-or-oil, oil only on the hybrid: 2 coal, 2 oil back
    }
    for plant in (4, 5, 7):
        after = powergrid.apply(s, 0, {"type": "discard_plant", "plant": plant})
        assert after.players[0].res == kept[plant], plant
        assert after.phase == RESOURCES
        check_invariants(after)
    # The player may still say what goes back: here 4 oil instead of 2 coal and 2 oil.
    after = powergrid.apply(s, 0, {"type": "discard_plant", "plant": 7, "drop": {"oil": 4}})
    assert after.players[0].res == (6, 2, 0, 0)
