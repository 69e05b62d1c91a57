"""Whose move is awaited.

* Phase 2: the player who must discard (after winning a plant over the limit); else the bidder
  whose turn it is in the auction under way; else the first player in player order who has
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


def to_act(s: State) -> tuple[int, ...]:
    phase = s.phase
    if phase == AUCTION:
        if s.discard is not None:
            return (s.discard[0],)
        if s.auction is not None:
            return (s.auction.turn,)
        seat = opener(s)
        return () if seat is None else (seat,)
    if phase in (RESOURCES, BUILD):
        return (s.order[s.n - 1 - s.turn],)
    if phase == BUREAUCRACY:
        done = s.done
        return tuple(seat for seat in s.order if not done[seat])
    return ()


def first_to_act(s: State) -> int:
    """``to_act(s)[0]`` without building the tuple: the seat a driver that plays one move at a
    time asks next. Raises ``IndexError`` when nobody is awaited, as ``to_act(s)[0]`` would."""
    phase = s.phase
    if phase == AUCTION:
        if s.discard is not None:
            return s.discard[0]
        if s.auction is not None:
            return s.auction.turn
    elif phase in (RESOURCES, BUILD):
        return s.order[s.n - 1 - s.turn]
    elif phase != BUREAUCRACY:
        raise IndexError("nobody is awaited")
    # The opener of an auction, or the first in player order yet to power.
    done = s.done
    for seat in s.order:
        if not done[seat]:
            return seat
    raise IndexError("nobody is awaited")


@cache
def next_after(bidders: tuple[int, ...], seat: int) -> int:
    """The next seat round the table after ``seat`` among ``bidders`` (seat order). Cached: a
    handful of seat sets, asked on every bid."""
    for b in bidders:
        if b > seat:
            return b
    return bidders[0]
