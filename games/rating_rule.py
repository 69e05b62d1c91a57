"""THE rule of what a finished game rates for people, and how (docs/RATINGS.md): pure, from the
game's facts, so the examples below are the rule's tests and ``manage.py recompute_ratings``
reproduces it (``games.ratings.game_rate`` is the only caller, there and after each game).

A game is rated for people when it was played from its start (``counts_for_ratings``) and no seat
is a server bot's (those games rate the bot levels instead). Then each **holder** of a seat (a
tenure, ``games.tenures``) is one of:

* **played on**: held the seat to the end and the bot did not have it at the end. Rated by the
  seat's place, among the others who played on (their places keep their order; ties stay ties).
  A substitute (a tenure that began after move 0) is rated only if it covered at least
  ``SUBSTITUTE_SHARE`` (one half) of the game's moves (every seat's moves after they took the
  seat, to the end); under the share they are left out (``short_tenure``): neither win nor loss.
* **left**: resigned, was replaced after seeking a substitute, or timed out (the bot took the
  seat over after missed deadlines and they never came back). Ranked **last**, below everyone who
  played on, whatever the bot or a substitute later did with the seat; several leavers share the
  last place. A leaver is rated whatever share they played: leaving always costs.
* **excused**: a timeout that is not the player's first in a window of ``TIMEOUT_WINDOW`` (24 h,
  as OGS after mass timeouts): a player who vanishes from ten games at once loses rating once,
  for the first (``timeouts_excused``). Left out of the game's rating.

The game is rated only if at least two holders are rated and one of them played on.

Examples (``Holder(seat, user, from_seq, to_seq, ended, bot_at_end, excused)``; places by seat):

>>> H = Holder
>>> plan = rating_plan(total_moves=100, places={0: 1, 1: 2, 2: 3},
...     holders=[H(0, 10), H(1, 11, to_seq=40, ended="resigned"), H(2, 12)])
>>> plan.rated, plan.ranks
(True, {10: 1, 12: 3, 11: 4})

The leaver (11) is last though the bot then took their seat to second place; 10 and 12 keep
their order. A substitute over the share is rated by the seat's place, one under it is not:

>>> plan = rating_plan(total_moves=100, places={0: 2, 1: 1, 2: 3},
...     holders=[H(0, 10), H(1, 11, to_seq=30, ended="replaced"), H(1, 21, from_seq=30),
...              H(2, 12, to_seq=80, ended="resigned"), H(2, 22, from_seq=80)])
>>> plan.ranks, plan.left_out
({10: 2, 21: 1, 11: 4, 12: 4}, {22: 'short_tenure'})

A player the bot took over from (and who never came back) is a leaver, unless that timeout came
within 24 h of an earlier one of theirs in another game:

>>> rating_plan(total_moves=50, places={0: 1, 1: 2},
...     holders=[H(0, 10, bot_at_end=True), H(1, 11)]).ranks
{11: 2, 10: 3}
>>> plan = rating_plan(total_moves=50, places={0: 1, 1: 2, 2: 3},
...     holders=[H(0, 10, bot_at_end=True, excused=True), H(1, 11), H(2, 12)])
>>> plan.ranks, plan.left_out
({11: 2, 12: 3}, {10: 'simultaneous_timeout'})

One who played on and one who left: rated (the leaver loses). When the only other holder is
excused, nobody is rated against anyone:

>>> rating_plan(total_moves=50, places={0: 1, 1: 2},
...     holders=[H(0, 10, to_seq=5, ended="resigned"), H(1, 11)]).rated
True
>>> rating_plan(total_moves=50, places={0: 1, 1: 2},
...     holders=[H(0, 10, to_seq=5, ended="resigned"), H(1, 11, bot_at_end=True, excused=True)]
... ).rated
False
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

#: A substitute's tenure is rated when it covered at least this share of the game's moves.
SUBSTITUTE_SHARE = 0.5
#: Timeouts of one player closer together than this are one lapse: only the first counts.
TIMEOUT_WINDOW = timedelta(hours=24)

LEFT = ("resigned", "timed_out", "replaced")


@dataclass(frozen=True)
class Holder:
    """One tenure of a seat, as the rule reads it. ``to_seq`` None: held to the end;
    ``bot_at_end``: the bot had the seat at the end after this holder's timeouts (they never came
    back); ``excused``: that timeout is not their first within ``TIMEOUT_WINDOW``."""

    seat: int
    user_id: int
    from_seq: int = 0
    to_seq: int | None = None
    ended: str = ""
    bot_at_end: bool = False
    excused: bool = False

    @property
    def timed_out(self) -> bool:
        return self.ended == "timed_out" or (self.to_seq is None and self.bot_at_end)

    @property
    def left(self) -> bool:
        return self.ended in LEFT or (self.to_seq is None and self.bot_at_end)


@dataclass(frozen=True)
class RatingPlan:
    """``ranks``: user id -> rank for openskill (1 best; ties share); ``left_out``: user id ->
    why their tenure is not rated (``short_tenure``, ``simultaneous_timeout``)."""

    rated: bool
    ranks: dict[int, int] = field(default_factory=dict)
    left_out: dict[int, str] = field(default_factory=dict)


def rating_plan(*, total_moves: int, places: dict[int, int], holders: list[Holder]) -> RatingPlan:
    """THE rule (see the module): who is rated in a people's game played from its start, and
    at which rank. ``places``: seat -> the rules' final place (1 = winner, ties shared)."""
    played_on: dict[int, int] = {}
    leavers: list[int] = []
    left_out: dict[int, str] = {}
    for h in holders:
        if h.timed_out and h.excused:
            left_out[h.user_id] = "simultaneous_timeout"
        elif h.left:
            leavers.append(h.user_id)
        elif h.from_seq > 0 and (total_moves - h.from_seq) < SUBSTITUTE_SHARE * total_moves:
            left_out[h.user_id] = "short_tenure"
        else:
            played_on[h.user_id] = places.get(h.seat, len(places))
    last = max([*played_on.values(), len(places)]) + 1
    ranks = {**played_on, **dict.fromkeys(leavers, last)}
    rated = bool(played_on) and len(ranks) >= 2
    return RatingPlan(rated=rated, ranks=ranks if rated else {}, left_out=left_out)
