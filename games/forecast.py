"""When will this game end, and who is it waiting on? From public information only.

An asynchronous game's calendar time is the sum of its waits for people. The forecast
multiplies two estimates:

* **waits left**: rounds left times this game's own waits per round so far (so a table that uses
  plans, whose waits are fewer, is forecast faster). Rounds left come from the leader's pace
  towards the end threshold (cities connected per round), or, in the first two rounds, from a
  typical game's length for the player count.
* **time per wait**: each seat's median reply time over its recent moves (from the moment the
  seat was awaited to its move, ``games.players.replay_awaited``, as the profiles measure it),
  averaged over the seats, blended with a prior until there are enough replies (``per_wait``):
  the prior is half the turn limit, weighted as ``ENOUGH`` replies less the replies seen, so one
  quick reply moves a 49-day forecast a little, not to a day, and from ``ENOUGH`` replies on
  only what was observed counts.

Everything used is public: round, cities, the move log's seats and times. Money, plans and
the deck play no part. A forecast is a rough guide, shown as such (rounded to days).

>>> rounds_left(max_cities=10, round_=6, end=17, players=4)   # 2 a round, 7 to go
4
>>> rounds_left(max_cities=0, round_=1, end=17, players=4)
10
>>> per_wait(observed=None, replies=0, turn_hours=24)   # nothing seen: half the turn limit
12.0
>>> round(per_wait(observed=0.25, replies=1, turn_hours=24), 1)   # one quick reply
11.0
>>> per_wait(observed=0.25, replies=12, turn_hours=24)   # enough: what was seen
0.25
"""

from __future__ import annotations

import logging
import math
import statistics
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games import engine, shapes
from games.models import Game, Move
from games.players import replay_awaited
from powergrid.state import FIRST_GAME
from powergrid.tables import FIRST_GAME_END, PLAYER_COUNTS

log = logging.getLogger(__name__)

# (game id, seed) -> (seq, reply hours per seat, people's replies): the seed tells apart two games
# that had the same id (SQLite reuses a deleted row's id), as the log and replay caches do.
_cache: OrderedDict[tuple[int, int | None], tuple[int, dict[int, list[float]], int]] = OrderedDict()
_lock = threading.Lock()
_CACHE_SIZE = 256

#: Typical rounds in a whole game by player count (heuristic bots, `python -m powergrid simulate`).
TYPICAL_ROUNDS = {2: 12, 3: 11, 4: 10, 5: 9, 6: 8}
#: Moves per seat looked at for its reply time.
RECENT = 20
#: Only moves a person made: a plan, a bot or a timeout did not wait for anyone.
HUMAN = (Move.Source.WEB, Move.Source.API, Move.Source.EMAIL)


#: Replies (people's, over all seats) from which the forecast trusts what it saw alone.
ENOUGH = 12


def per_wait(*, observed: float | None, replies: int, turn_hours: float) -> float:
    """Hours per wait: ``observed`` (the seats' median reply times averaged, None if none yet),
    blended with the prior (half the turn limit) weighted as ``ENOUGH - replies`` replies."""
    prior = turn_hours / 2
    if observed is None or replies <= 0:
        return prior
    weight = max(0, ENOUGH - replies)
    return (weight * prior + replies * observed) / (weight + replies)


def rounds_left(*, max_cities: int, round_: int, end: int, players: int) -> int:
    """Rounds still to play, from the leader's pace (cities per round played) towards ``end``."""
    if round_ <= 2 or max_cities == 0:
        return max(1, TYPICAL_ROUNDS.get(players, 10) - round_ + 1)
    pace = max(1.0, max_cities / (round_ - 1))
    return max(1, math.ceil((end - max_cities) / pace))


@dataclass(frozen=True)
class SeatPace:
    seat: int
    median_reply_hours: float | None
    waited_hours: float  # the game's total wait for this seat over its recent moves
    replies: int


@dataclass(frozen=True)
class Forecast:
    rounds_left: int
    waits_left: int
    hours_per_wait: float
    finish: datetime
    seats: list[SeatPace]
    bottleneck: int | None  # the seat the game waits on most (None: too early to say)

    def as_json(self) -> shapes.Forecast:
        return {
            "rounds_left": self.rounds_left,
            "waits_left": self.waits_left,
            "hours_per_wait": round(self.hours_per_wait, 1),
            "finish": self.finish,
            "bottleneck": self.bottleneck,
            "seats": [
                {
                    "seat": p.seat,
                    "median_reply_hours": None
                    if p.median_reply_hours is None
                    else round(p.median_reply_hours, 1),
                    "waited_hours": round(p.waited_hours, 1),
                    "replies": p.replies,
                }
                for p in self.seats
            ],
        }


def forecast(game: Game, *, now: datetime | None = None) -> Forecast | None:
    """The forecast of a running game (None for an open or finished one)."""
    if game.status != Game.Status.RUNNING or not game.state_json:
        return None
    now = now or timezone.now()
    state = engine.state_load(
        game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
    )
    end = FIRST_GAME_END if state.variant == FIRST_GAME else PLAYER_COUNTS[state.n].end_cities
    left = rounds_left(max_cities=state.max_cities(), round_=state.round, end=end, players=state.n)
    delays, waits_so_far = reply_hours(game, players=state.n, now=now)
    rounds_played = max(1, state.round - 1) if state.round > 1 else 1
    per_round = waits_so_far / rounds_played if waits_so_far else 3.0 * state.n
    if state.round <= 1:
        per_round = max(per_round, 3.0 * state.n)
    waits_left = max(1, round(per_round * left))
    seats = []
    for seat in range(state.n):
        recent = delays.get(seat, [])[-RECENT:]
        seats.append(
            SeatPace(
                seat=seat,
                median_reply_hours=statistics.median(recent) if recent else None,
                waited_hours=sum(recent),
                replies=len(recent),
            )
        )
    known = [p.median_reply_hours for p in seats if p.median_reply_hours is not None]
    hours = per_wait(
        observed=statistics.mean(known) if known else None,
        replies=sum(p.replies for p in seats),
        turn_hours=float(game.options.get("turn_hours", 24)),
    )
    waited = [p for p in seats if p.replies]
    bottleneck = max(waited, key=lambda p: p.waited_hours).seat if len(waited) >= 2 else None
    return Forecast(
        rounds_left=left,
        waits_left=waits_left,
        hours_per_wait=hours,
        finish=now + timedelta(hours=hours * waits_left),
        seats=seats,
        bottleneck=bottleneck,
    )


def reply_hours(
    game: Game, *, players: int, now: datetime | None = None
) -> tuple[dict[int, list[float]], int]:
    """Each seat's reply times in hours (oldest first) and the number of people's replies so
    far; the same figures as ``reply_hours_computed``, kept per game and seq in process memory.

    The game page and the API ask on every view, and the figures change only with a move: the
    computation reads the whole log and replays it (``bench/forecast_bench.py``)."""
    key = (game.pk, game.seed)
    with _lock:
        hit = _cache.get(key)
    if hit is not None and hit[0] == game.seq:
        return hit[1], hit[2]
    delays, waits = reply_hours_computed(game, players=players, now=now)
    with _lock:
        _cache[key] = (game.seq, delays, waits)
        _cache.move_to_end(key)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return delays, waits


def reply_hours_computed(
    game: Game, *, players: int, now: datetime | None = None
) -> tuple[dict[int, list[float]], int]:
    """``reply_hours`` from the move log, every time (the plain way, which the cache equals)."""
    moves = list(
        Move.objects.filter(game=game)
        .order_by("seq")
        .values_list("seq", "seat", "action", "source", "created_at")
    )
    started = game.started_at or (moves[0][4] if moves else now or timezone.now())
    awaited = _awaited_since(game, moves, players=players)
    delays: dict[int, list[float]] = {i: [] for i in range(players)}
    waits_so_far = 0
    previous = started
    for seq, seat, _action, source, at in moves:
        if source in HUMAN:
            waits_so_far += 1
            since = awaited.get(seq) or previous
            delays.setdefault(seat, []).append(max(0.0, (at - since).total_seconds() / 3600))
        previous = at
    return delays, waits_so_far


def _awaited_since(
    game: Game, moves: list[tuple[int, int, Any, str, datetime]], *, players: int
) -> dict[int, datetime | None]:
    """seq -> since when the seat that made it was awaited, for the people's moves; empty (each
    reply then timed from the move before) for a log the engine no longer replays."""
    wanted = {seq for seq, _seat, _action, source, _at in moves if source in HUMAN}
    if not wanted:
        return {}
    last = max(wanted)
    log_ = [(seq, seat, action, at) for seq, seat, action, _source, at in moves if seq <= last]
    try:
        return replay_awaited(game, log_, wanted, players=players)
    except Exception:  # a rough guide: never a failed page for it
        log.warning("forecast: could not replay game %s", game.pk, exc_info=True)
        return {}
