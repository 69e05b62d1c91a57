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
>>> per_wait(observed=None, replies=0, turn_hours=24, prior=PRACTICE_PRIOR_HOURS) * 60
1.0

A practice game (one person against the bots) waits for its person only, who is there: the bots
answer at once, and a person who starts a practice game plays it now. Its prior is a minute a
wait (``PRACTICE_PRIOR_HOURS``), not half the turn limit, and its waits are the person's alone,
so its forecast speaks in minutes, not days.
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
from games.models import Game, Move, SheetAnswer
from games.players import replay_awaited
from games.selectors.moves import sealed_hidden
from powergrid.state import FIRST_GAME
from powergrid.tables import FIRST_GAME_END, PLAYER_COUNTS

log = logging.getLogger(__name__)

# (game id, seed) -> (seq, reply hours per seat, people's replies): the seed tells apart two games
# that had the same id (SQLite reuses a deleted row's id), as the log and replay caches do.
_cache: OrderedDict[tuple[int, int | None], tuple[int, dict[int, list[float]], int]] = OrderedDict()
_lock = threading.Lock()
_CACHE_SIZE = 256

#: Waits a round played by round sheets (bench/async_bench.py: one sheet a round, everyone at
#: once, and a few seats asked again; 1.0 measured when every suggestion is accepted).
SHEET_WAITS_PER_ROUND = 1.5

#: Typical rounds in a whole game by player count (heuristic bots, `python -m powergrid simulate`).
TYPICAL_ROUNDS = {2: 12, 3: 11, 4: 10, 5: 9, 6: 8}
#: Moves per seat looked at for its reply time.
RECENT = 20
#: Only moves a person made: a plan, a bot or a timeout did not wait for anyone.
HUMAN = (Move.Source.WEB, Move.Source.API, Move.Source.EMAIL)


#: Replies (people's, over all seats) from which the forecast trusts what it saw alone.
ENOUGH = 12


#: A practice game's prior per wait: a minute (its person is playing now; its bots at once).
PRACTICE_PRIOR_HOURS = 1 / 60


def per_wait(
    *, observed: float | None, replies: int, turn_hours: float, prior: float | None = None
) -> float:
    """Hours per wait: ``observed`` (the seats' median reply times averaged, None if none yet),
    blended with the prior (``prior``, else half the turn limit) weighted as
    ``ENOUGH - replies`` replies."""
    prior = turn_hours / 2 if prior is None else prior
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
    sheet_rounds: int = 0  # rounds answered by round sheets (one wait each)

    def minutes_left(self, now: datetime | None = None) -> int:
        """Whole minutes until the expected finish (at least 1)."""
        left = (self.finish - (now or timezone.now())).total_seconds() / 60
        return max(1, round(left))

    def as_json(self) -> shapes.Forecast:
        # One figure in two units: the hours are the minutes shown / 60 (3 places), so a
        # practice game's minute a wait is 0.017 hours, not 0.0 (rounded to 1 place alone).
        minutes = round(self.hours_per_wait * 60, 1)
        return {
            "rounds_left": self.rounds_left,
            "waits_left": self.waits_left,
            "hours_per_wait": round(minutes / 60, 3),
            "minutes_per_wait": minutes,
            "minutes_left": self.minutes_left(),
            "finish": self.finish,
            "bottleneck": self.bottleneck,
            "sheet_rounds": self.sheet_rounds,
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


def sheets_counted(game: Game) -> bool:
    """Whether the forecast counts the rounds the game's sheets answered (``sheet_rounds``):
    a game played by sheets, or one whose plans ran (a sheet's answer makes plans)."""
    return bool(game.plans_active or (game.options or {}).get("sheets"))


def sheet_rounds_of(game: Game) -> int:
    """The rounds of ``game`` answered by round sheets (each one wait: every seat at once)."""
    return SheetAnswer.objects.filter(game=game).values("round").distinct().count()


def forecast(
    game: Game, *, now: datetime | None = None, sheet_rounds: int | None = None
) -> Forecast | None:
    """The forecast of a running game (None for an open or finished one). ``sheet_rounds``:
    ``sheet_rounds_of(game)`` when the caller read it with other things (the game page's one
    read for its reader, ``games.web.reader``), else read here when ``sheets_counted``."""
    if game.status != Game.Status.RUNNING or not game.state_json:
        return None
    now = now or timezone.now()
    state = engine.state_load(
        game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
    )
    end = FIRST_GAME_END if state.variant == FIRST_GAME else PLAYER_COUNTS[state.n].end_cities
    left = rounds_left(max_cities=state.max_cities(), round_=state.round, end=end, players=state.n)
    delays, waits_so_far = reply_hours(game, players=state.n, now=now)
    # A round answered by sheets is one wait (every seat asked at once); their moves are none.
    if not sheets_counted(game):
        sheet_rounds = 0
    elif sheet_rounds is None:
        sheet_rounds = sheet_rounds_of(game)
    waits_so_far += sheet_rounds
    rounds_played = max(1, state.round - 1) if state.round > 1 else 1
    people = 1 if game.practice else state.n  # a practice game waits for its person only
    prior = SHEET_WAITS_PER_ROUND if (game.options or {}).get("sheets") else 3.0 * people
    per_round = waits_so_far / rounds_played if waits_so_far else prior
    if state.round <= 1:
        per_round = max(per_round, prior)
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
        prior=PRACTICE_PRIOR_HOURS if game.practice else None,
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
        sheet_rounds=sheet_rounds,
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
    hidden = sealed_hidden(game)  # a sealed answer counts once the bids are opened
    moves = [m for m in moves if m[0] not in hidden]
    started = game.started_at or (moves[0][4] if moves else now or timezone.now())
    awaited = _awaited_since(game, moves, players=players)
    delays: dict[int, list[float]] = {i: [] for i in range(players)}
    waits_so_far = 0
    previous = started
    for seq, seat, _action, source, at in moves:
        if source == Move.Source.SHEET:
            continue  # made from a sheet answered before: no wait of its own
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
