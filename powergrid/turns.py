"""Whose move is awaited.

* Phase 2: the player who must discard (after winning a plant over the limit); else the bidder
  whose turn it is in the auction under way (in a sealed-bid auction, every player whose sealed
  bid is not in yet, all at once); else the first player in player order who has
  neither bought nor passed this round (they open an auction or pass).
* Phases 3 and 4: one player at a time, in reverse player order.
* Phase 5: every player who has not yet chosen what to power, all at once (player order).
* Finished: nobody.
"""

from __future__ import annotations

from functools import cache

from powergrid.state import AUCTION, BUILD, BUREAUCRACY, RESOURCES, State


def opener(s: State) -> int | None:
    """The first player in order still in this round's auctions (None when all are out)."""
    done = s.done
    for seat in s.order:
        if not done[seat]:
            return seat
    return None


def single(s: State) -> int | None:
    """The one seat awaited in phases 2 to 4 (None when nobody is, or in phase 5, where
    several are): the rule the other functions here share.

    >>> import powergrid
    >>> s = powergrid.new_game(map="germany", players=3, seed=1)
    >>> single(s) == s.order[0]   # round 1 opens with the first in player order
    True
    """
    phase = s.phase
    if phase == AUCTION:
        if s.discard is not None:
            return s.discard[0]
        if s.auction is not None:
            return s.auction.turn if s.auction.sealed is None else None
        return opener(s)
    if phase in (RESOURCES, BUILD):
        return s.order[s.n - 1 - s.turn]
    return None


def awaits(s: State, seat: int) -> bool:
    """Whether a move of ``seat`` is awaited now: the whose-turn rule of :func:`apply` and
    :func:`legal`, without building :func:`to_act`'s tuple."""
    if s.phase == BUREAUCRACY:
        return not s.done[seat]
    sealed = _sealed(s)
    if sealed is not None:
        return sealed[seat] == -1
    return single(s) == seat


def _sealed(s: State) -> tuple[int, ...] | None:
    """The sealed bids of a sealed-bid auction awaiting them, else None."""
    auc = s.auction
    if auc is None or s.phase != AUCTION or s.discard is not None:
        return None
    return auc.sealed


def to_act(s: State) -> tuple[int, ...]:
    """Every seat awaited now, in player order (several only in phase 5)."""
    if s.phase == BUREAUCRACY:
        done = s.done
        return tuple(seat for seat in s.order if not done[seat])
    sealed = _sealed(s)
    if sealed is not None:
        return tuple(seat for seat in s.order if sealed[seat] == -1)
    seat = single(s)
    return () if seat is None else (seat,)


def first_to_act(s: State) -> int:
    """``to_act(s)[0]`` without building the tuple: the seat a driver that plays one move at a
    time asks next. Raises ``IndexError`` when nobody is awaited, as ``to_act(s)[0]`` would."""
    seat = opener(s) if s.phase == BUREAUCRACY else single(s)
    if seat is None and _sealed(s) is not None:
        seat = to_act(s)[0]
    if seat is None:
        raise IndexError("nobody is awaited")
    return seat


@cache
def next_after(bidders: tuple[int, ...], seat: int) -> int:
    """The next seat round the table after ``seat`` among ``bidders`` (seat order). Cached: a
    handful of seat sets, asked on every bid."""
    for b in bidders:
        if b > seat:
            return b
    return bidders[0]
