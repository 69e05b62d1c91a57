"""Positions from replayed games, and their hidden twins, for the bot level tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

import powergrid
from powergrid.bots import play_game
from powergrid.describe import Entry, move_entries, public_money
from powergrid.practice import unseen_places
from powergrid.state import Auction, State
from powergrid.turns import to_act

#: (map, variant, plant deck) of the games the positions come from: every map, every variant
#: and every deck.
SETUPS = (
    ("germany", "standard", "base"),
    ("usa", "sealed_bid", "base"),
    ("france", "standard", "new"),
    ("italy", "standard", "mixed"),
    ("germany", "first_game", "base"),
    ("usa", "sealed_bid", "mixed"),
)


def positions(every: int, seed: int = 7) -> Iterator[tuple[State, int]]:
    """(state, awaited seat) every ``every`` moves of one heuristic game per setup."""
    for state, who, _ in positions_with_accounts(every, seed):
        yield state, who


def positions_with_accounts(
    every: int, seed: int = 7
) -> Iterator[tuple[State, int, tuple[int, ...]]]:
    """As :func:`positions`, with each seat's money as the public move log tells it then (the
    accounts a player keeps, from the log's entries alone, never from the state)."""
    for i, (map_, variant, deck) in enumerate(SETUPS):
        setup = {"map": map_, "players": 3 + i % 3, "seed": seed + i, "variant": variant}
        setup["plant_deck"] = deck
        _, moves = play_game(**setup)  # type: ignore[arg-type]
        s = powergrid.new_game(**setup)  # type: ignore[arg-type]
        entries: list[Entry] = []
        for k, (seat, action) in enumerate(moves):
            if k % every == 0:
                accounts = tuple(public_money(s.n, entries))
                for who in to_act(s):
                    yield s, who, accounts
            after = powergrid.apply(s, seat, action)
            entries += move_entries(action, seat, powergrid.view(s), powergrid.view(after))
            s = after


def hidden_twin(state: State, seat: int, rng: random.Random) -> State:
    """``state`` with everything ``seat`` cannot see changed: the unseen cards dealt again
    (deck places and the set-up's removals), every other player's money, the seed, and the
    amounts of the others' sealed bids already in (a pass may become a bid and back)."""
    places = unseen_places(state)
    pool = [state.deck[i] for i in places] + list(state.setup_removed)
    rng.shuffle(pool)
    k = len(state.setup_removed)
    deck = list(state.deck)
    for place, card in zip(places, pool[k:], strict=True):
        deck[place] = card
    players = tuple(
        p if i == seat else p.replace(money=rng.randint(0, 200))
        for i, p in enumerate(state.players)
    )
    auction = state.auction
    if auction is not None and auction.sealed is not None:
        sealed = tuple(
            b
            if i in (seat, auction.opener) or b == -1 or i not in auction.bidders
            else (0 if rng.random() < 0.5 else rng.randint(auction.bid + 1, auction.bid + 40))
            for i, b in enumerate(auction.sealed)
        )
        auction = Auction(
            auction.plant,
            auction.bid,
            auction.high,
            auction.bidders,
            auction.turn,
            auction.opener,
            sealed,
        )
    return state.replace(
        deck=tuple(deck),
        setup_removed=tuple(pool[:k]),
        players=players,
        seed=rng.randrange(1 << 60),
        auction=auction,
    )
