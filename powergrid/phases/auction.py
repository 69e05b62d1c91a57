"""Phase 2: the plant auction, the plant limit with its discard, and the end of the phase."""

from __future__ import annotations

from typing import Any

from powergrid.errors import IllegalAction
from powergrid.fields import MAX_NUMBER, int_field, plant_field, tokens_field
from powergrid.plant_market import PlantMarketOps
from powergrid.plants import NUMBER, PLANTS, RANK, STEP3
from powergrid.power import capacity, fits, overflow
from powergrid.state import AUCTION, RESOURCES, SEALED_BID, Auction, State
from powergrid.tables import CURRENT_SIZE, PLAYER_COUNTS
from powergrid.tables import RESOURCES as NAMES
from powergrid.turns import next_after


def current_market(s: State) -> tuple[int, ...]:
    """The plants that may be auctioned now: the lowest four (step 3: all six), never the
    Step 3 card."""
    m = s.market if s.step == 3 else s.market[:CURRENT_SIZE]
    if m and m[-1] == STEP3:
        m = m[:-1]
    return m


def _need_opening(s: State, seat: int) -> None:
    if s.discard is not None:
        raise IllegalAction("wrong_phase", "A plant must be discarded first: send discard_plant.")
    if s.auction is not None:
        raise IllegalAction(
            "wrong_phase", "An auction is under way: send bid or pass_bid.", {"awaiting": "bid"}
        )


def choose_plant(s: State, seat: int, a: dict[str, Any]) -> State:
    # Each check in line for a good move; the helpers raise the error for a bad one (a
    # function call costs more than the test itself, and apply is on every move's path).
    if s.discard is not None or s.auction is not None:
        _need_opening(s, seat)
    plant: Any = a.get("plant")
    if type(plant) is not int or plant not in PLANTS:
        plant_field(plant)
    least = NUMBER[plant]  # the minimum bid: the printed number (an id may differ)
    bid: Any = a.get("bid", least)
    if type(bid) is not int or bid < 0 or bid > MAX_NUMBER:
        int_field(bid, "bid")
    if plant not in current_market(s):
        raise IllegalAction(
            "plant_not_available",
            f"Plant {plant} is not in the current market.",
            {"plant": plant, "available": list(current_market(s))},
        )
    if bid < least:
        raise IllegalAction("bid_too_low", f"The bid must be at least {least}.", {"min": least})
    money = s.players[seat].money
    if bid > money:
        raise IllegalAction(
            "insufficient_funds",
            f"You cannot bid {bid}: you have {money} Elektro.",
            {"max": money},
        )
    done = s.done
    bidders = tuple([i for i in range(s.n) if not done[i]])
    s = s.copy()
    if len(bidders) == 1:
        # Nobody else can take part: the last player buys at the minimum.
        return _sale(s, seat, plant, least)
    if s.variant == SEALED_BID:
        # Everyone else still in gives a sealed bid at once; the opening bid is the opener's.
        sealed = tuple(bid if i == seat else (-1 if i in bidders else 0) for i in range(s.n))
        s.auction = Auction(plant, bid, seat, bidders, seat, seat, sealed)
        return s
    s.auction = Auction(plant, bid, seat, bidders, next_after(bidders, seat), seat)
    return s


def pass_auction(s: State, seat: int, a: dict[str, Any]) -> State:
    if s.discard is not None or s.auction is not None:
        _need_opening(s, seat)
    if s.round == 1:
        raise IllegalAction(
            "cannot_pass_round_one", "In the first round every player must buy a power plant."
        )
    s = s.copy()
    done = list(s.done)
    done[seat] = True
    s.done = tuple(done)
    if all(done):
        _end_auction(s)
    return s


def _need_bid_turn(s: State) -> Auction:
    if s.discard is not None:
        raise IllegalAction("wrong_phase", "A plant must be discarded first: send discard_plant.")
    if s.auction is None:
        raise IllegalAction(
            "wrong_phase", "No auction is under way: choose a plant or pass.", {"awaiting": "open"}
        )
    return s.auction


def bid(s: State, seat: int, a: dict[str, Any]) -> State:
    auc = s.auction
    if auc is None or s.discard is not None:
        auc = _need_bid_turn(s)
    amount: Any = a.get("amount")
    if type(amount) is not int or amount < 0 or amount > MAX_NUMBER:
        int_field(amount, "amount")
    if auc.sealed is not None:
        raise IllegalAction(
            "wrong_phase",
            "This auction is sealed: send seal_bid or pass_bid.",
            {"awaiting": "seal"},
        )
    _check_amount(s, seat, auc.bid, amount)
    s = s.copy()
    s.auction = Auction(
        auc.plant, amount, seat, auc.bidders, next_after(auc.bidders, seat), auc.opener
    )
    return s


def pass_bid(s: State, seat: int, a: dict[str, Any]) -> State:
    auc = s.auction
    if auc is None or s.discard is not None:
        auc = _need_bid_turn(s)
    if auc.sealed is not None:
        return _seal(s, seat, auc, 0)
    left = auc.bidders
    if seat in left:  # the bidders are distinct seats: drop the one
        i = left.index(seat)
        left = left[:i] + left[i + 1 :]
    s = s.copy()
    if len(left) == 1:
        return _sale(s, left[0], auc.plant, auc.bid)
    s.auction = Auction(auc.plant, auc.bid, auc.high, left, next_after(left, seat), auc.opener)
    return s


def seal_bid(s: State, seat: int, a: dict[str, Any]) -> State:
    """Sealed-bid variant: give one sealed bid for the plant put up (more than the opening bid,
    at most one's money). Hidden from the others until every bid is in."""
    auc = s.auction
    if auc is None or s.discard is not None:
        auc = _need_bid_turn(s)
    if auc.sealed is None:
        raise IllegalAction(
            "wrong_phase", "This auction is open: send bid or pass_bid.", {"awaiting": "bid"}
        )
    amount: Any = a.get("amount")
    if type(amount) is not int or amount < 0 or amount > MAX_NUMBER:
        int_field(amount, "amount")
    _check_amount(s, seat, auc.bid, amount)
    return _seal(s, seat, auc, amount)


def _seal(s: State, seat: int, auc: Auction, amount: int) -> State:
    """Record ``seat``'s sealed bid (0: it passes); when the last is in, resolve the auction."""
    assert auc.sealed is not None
    if auc.sealed[seat] != -1:
        raise IllegalAction("not_your_turn", "Your sealed bid is in already.")
    sealed = (*auc.sealed[:seat], amount, *auc.sealed[seat + 1 :])
    s = s.copy()
    if -1 in sealed:
        s.auction = Auction(auc.plant, auc.bid, auc.high, auc.bidders, auc.turn, auc.opener, sealed)
        return s
    winner, price = sealed_winner(sealed, s.order)
    s.sealed_last = (auc.plant, winner, price, sealed)
    return _sale(s, winner, auc.plant, price)


def sealed_winner(sealed: tuple[int, ...], order: tuple[int, ...]) -> tuple[int, int]:
    """The winner of sealed bids and its price: the highest bid wins (between equal bids, the
    earlier in player ``order``) and pays the second-highest bid plus one, never more than its
    own. Alone (everyone else passed), the opener pays its opening bid.

    >>> sealed_winner((13, 20, 17), (0, 1, 2))   # seat 1 bids 20, the next best is 17
    (1, 18)
    >>> sealed_winner((13, 20, 20), (2, 0, 1))   # a tie: seat 2 comes first in player order
    (2, 20)
    >>> sealed_winner((13, 0, 0), (0, 1, 2))
    (0, 13)
    """
    ranked = sorted(
        (seat for seat, amount in enumerate(sealed) if amount > 0),
        key=lambda seat: (-sealed[seat], order.index(seat)),
    )
    winner = ranked[0]
    if len(ranked) == 1:
        return winner, sealed[winner]
    return winner, min(sealed[winner], sealed[ranked[1]] + 1)


def _sale(s: State, winner: int, plant: int, price: int) -> State:
    """``s`` is already a private copy: the winner pays and takes the plant; refill the market."""
    s.auction = None
    players = list(s.players)
    p = players[winner].copy()
    p.money -= price
    p.plants = tuple(sorted((*p.plants, plant), key=RANK.__getitem__))
    players[winner] = p
    s.players = tuple(players)
    done = list(s.done)
    done[winner] = True
    s.done = tuple(done)
    s.bought_any = True
    ops = PlantMarketOps(s, AUCTION)
    ops.take(plant)
    if len(p.plants) > PLAYER_COUNTS[s.n].max_plants:
        s.discard = (winner, plant)
    elif all(done):
        _end_auction(s, ops)
    ops.commit()
    return s


def _check_amount(s: State, seat: int, standing: int, amount: int) -> None:
    """A bid (open or sealed) must beat the standing bid and be paid for."""
    if amount <= standing:
        raise IllegalAction(
            "bid_too_low", f"The bid must be at least {standing + 1}.", {"min": standing + 1}
        )
    money = s.players[seat].money
    if amount > money:
        raise IllegalAction(
            "insufficient_funds",
            f"You cannot bid {amount}: you have {money} Elektro.",
            {"max": money},
        )


def min_drop(plants: tuple[int, ...], res: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """The fewest tokens to give back so ``res`` fits ``plants`` (coal dropped before oil)."""
    ov = overflow(plants, res)
    return ov.drop(ov.max_coal)


def discard_plant(s: State, seat: int, a: dict[str, Any]) -> State:
    if s.discard is None:
        raise IllegalAction("wrong_phase", "You have no plant to discard now.")
    _, new = s.discard
    plant = plant_field(a.get("plant"))
    p = s.players[seat]
    if plant not in p.plants:
        raise IllegalAction(
            "plant_not_owned", f"You do not own plant {plant}.", {"plants": list(p.plants)}
        )
    if plant == new:
        raise IllegalAction(
            "plant_not_available",
            f"You keep plant {new}, just bought: discard one of your other plants.",
            {"plants": [n for n in p.plants if n != new]},
        )
    res = p.res
    left = tuple(n for n in p.plants if n != plant)
    # Without ``drop`` the discarded plant's tokens move to the remaining plants where they fit
    # and the rest return to the supply (coal before oil when a hybrid leaves a choice).
    drop = tokens_field(a["drop"], "drop") if "drop" in a else min_drop(left, res)
    for r in range(4):
        if drop[r] > res[r]:
            raise IllegalAction(
                "not_enough_resources",
                f"You cannot drop {drop[r]} {NAMES[r]}: you have {res[r]}.",
                {"resource": NAMES[r], "have": res[r]},
            )
    after = (res[0] - drop[0], res[1] - drop[1], res[2] - drop[2], res[3] - drop[3])
    if not fits(after, capacity(left)):
        need = min_drop(left, res)
        raise IllegalAction(
            "no_storage",
            "Your remaining plants cannot hold the resources you keep: drop at least "
            f"{_describe(need)}.",
            {"drop_at_least": {NAMES[r]: need[r] for r in range(4) if need[r]}},
        )
    s = s.copy()
    q = p.copy()
    q.plants = left
    q.res = after
    players = list(s.players)
    players[seat] = q
    s.players = tuple(players)
    s.removed = (*s.removed, plant)
    s.discard = None
    if all(s.done):
        _end_auction(s)
    return s


def _describe(tokens: tuple[int, int, int, int]) -> str:
    parts = [f"{tokens[r]} {NAMES[r]}" for r in range(4) if tokens[r]]
    return ", ".join(parts) if parts else "nothing"


def _end_auction(s: State, ops: PlantMarketOps | None = None) -> None:
    """Everybody bought or passed: the no-sale rule, the Step 3 card, round-1 order; phase 3.
    ``ops``: the market operations of the move so far (a sale), committed by the caller after
    this; without it the market is read from ``s`` and committed here."""
    mine = ops is None
    if ops is None:
        ops = PlantMarketOps(s, AUCTION)
    if not s.bought_any:
        ops.remove_lowest()
        ops.draw()
        ops.settle()
    ops.end_auction_step3()
    if mine:
        ops.commit()
    if s.round == 1:
        players = s.players
        s.order = tuple(
            sorted(range(s.n), key=lambda i: -max((RANK[n] for n in players[i].plants), default=0))
        )
    s.phase = RESOURCES
    s.turn = 0
    s.auction = None


__all__ = [
    "PLANTS",
    "bid",
    "choose_plant",
    "current_market",
    "discard_plant",
    "min_drop",
    "pass_auction",
    "pass_bid",
    "seal_bid",
    "sealed_winner",
]
