"""The deadline sweeper, the bot's turn, and reminders.

``deadlines_sweep`` (periodic, beat) finds seats whose ``deadline`` has passed with one indexed
query, then handles each game in its own short transaction: the game row is locked with
``SELECT ... FOR UPDATE SKIP LOCKED`` (a game being moved by a player, or handled by a second
sweeper running at the same time, is skipped - it is picked up again on the next run if still due),
the due seats are re-read under the lock, and for each one a move is made through
``games.services.moves.move_apply_system``:
  * an ordinary seat gets the engine's ``default_action`` with source ``timeout`` (the turn hook
    counts the timeout, tells the player, and hands the seat to the bot after
    ``timeouts_before_bot`` in a row);
  * a bot-controlled seat gets its bot's choice with source ``bot``: the level of a server
    bot's seat, or the game's ``bot_level`` for a seat taken over (``level_bot_for``); a search
    level spends its budget here, in the worker, never in a request. Such a seat's
    deadline is "now" as soon as it is awaited; ``games.tasks.game_play_due`` (queued on commit by
    the hook) plays it at once and the sweep is only the fallback.
``expected_seq`` is passed, so nothing is applied on a game that moved since it was read.

A search level's move (up to a second or two of CPU) is never computed under the game's row
lock, where it would hold up the players' moves and the sweep's chunk: ``game_handle_due`` reads
a snapshot of the game without a lock, computes the move from it, then locks the row and applies
the move only if the game's ``seq`` is still the snapshot's (:class:`Premade`); if the game moved
meanwhile the move is stale and is dropped, and the move is computed again from a new snapshot
(a few times at most, then the next task or sweep retries). Under the lock a search seat without
a fresh premade move is left due (``SweepReport.deferred``): the sweep queues the bot task for it
after its commit, and the task plays it as above. Rule-based levels are cheap and still move
under the lock.

``reminders_queue`` (periodic) writes a reminder row for each seat whose ``reminder_at`` passed.

In a game played by round sheets, a seat past its deadline whose sheet for the round is not
answered has the sheet's suggestion played first (``games.sheets.timeouts``); what is still due
after that is handled as above.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Min, Q
from django.utils import timezone

from games import engine, selectors
from games.log import public_accounts as log_accounts
from games.models import Game, Notification, Seat
from games.notifications.outbox import schedule_send_pending, wants_email
from games.selectors.names import seat_bot_level
from games.services.errors import MoveRejected
from games.services.moves import MoveResult, SystemMove, move_apply_system_batch
from games.sheets.asking import sheets_on
from games.sheets.timeouts import sheets_time_out
from games.turns import queue_bot_on_commit
from powergrid.bots import Bot, RandomBot
from powergrid.heuristic import HeuristicBot
from powergrid.levels import DEFAULT_LEVEL, LEVELS, LevelBot
from powergrid.state import State

log = logging.getLogger(__name__)

_bot = HeuristicBot()


def heuristic_bot() -> HeuristicBot:
    """The engine's heuristic bot (stateless; one instance per process)."""
    return _bot


def due_game_ids(*, now: datetime | None = None, limit: int = 1000) -> list[int]:
    """Games with at least one seat past its deadline, earliest first (uses the deadline index)."""
    now = now or timezone.now()
    rows = (
        Seat.objects.filter(deadline__lte=now)
        .values("game_id")
        .annotate(first=Min("deadline"))
        .order_by("first")[:limit]
    )
    return [r["game_id"] for r in rows]


def bot_budget_scale() -> float:
    """The factor on the search levels' budgets (``BOT_BUDGET_SCALE``: 1 in production; the
    test settings make it small so a game at the top level plays in seconds)."""
    return float(getattr(settings, "BOT_BUDGET_SCALE", 1.0))


def bot_seed(game: Game, seat: Seat) -> str:
    """The seed of the bot in ``seat``: a secret of the game, from its secret seed (revealed
    only at the game's end), and the seat. Every bot's draws (a search level's states, the
    beginner's and the random bot's choices, the amount of any level's sealed bid) follow it,
    so a bot's hidden move (a sealed bid) cannot be worked out from public facts, nor played
    again in a practice game (whose seed is its own). A hash, kept apart from the seed
    commitment's (``games.selectors.detail.game_seed_commitment``, of the game's number and
    seed), so nothing shown reveals it; of the seed alone, so a game's replay (or a practice
    game made twice with one seed) plays the same."""
    secret = hashlib.sha256(f"bots:{game.seed}".encode()).hexdigest()
    return f"{secret}:{seat.seat}"


def level_bot_for(game: Game, seat: Seat, state: State) -> Bot:
    """The bot that plays ``seat``: the random bot for a random bot's seat, else the level's
    (``games.selectors.names.seat_bot_level``: the bot's own, or the game's ``bot_level`` for a
    person's seat taken over). A level decides from the seat's view alone and its draws are
    seeded by the game's secret (``bot_seed``): a replay of the same position makes the same
    choice, and no player can work it out before the end."""
    profile = getattr(seat.user, "profile", None)
    if getattr(profile, "bot_kind", "") == "random":
        return RandomBot(f"{bot_seed(game, seat)}:{state.round}:{state.phase}")
    level = seat_bot_level(game, seat) or DEFAULT_LEVEL
    return LevelBot(
        level,
        seed=bot_seed(game, seat),
        budget_scale=bot_budget_scale(),
        edition=int(state.edition),
    )


def searches(game: Game, seat: Seat) -> bool:
    """Whether ``seat``'s bot is a search level (its move is never computed under the lock)."""
    if not seat.bot_controlled:
        return False
    profile = getattr(seat.user, "profile", None)
    if getattr(profile, "bot_kind", "") == "random":
        return False
    level = seat_bot_level(game, seat) or DEFAULT_LEVEL
    return LEVELS[level].budget is not None


#: Moves computed outside the lock: (game id, seat, the game's seq when read) -> the action.
Premade = dict[tuple[int, int, int], dict[str, object]]


def _bot_action(game: Game, state: State, seat: Seat) -> dict[str, object]:
    try:
        bot = level_bot_for(game, seat, state)
        if isinstance(bot, LevelBot) and bot.keeps_accounts:
            # The expert reads the public log's accounts of every seat's money, as a player can.
            return dict(bot.choose(state, seat.seat, log_accounts(game)))
        return dict(bot.choose(state, seat.seat))
    except Exception:  # a bot bug must not stall the game: fall back to the default
        log.exception("bot failed on game %s seat %s", seat.game_id, seat.seat)
        return dict(engine.default_action(state, seat.seat))


def _action_for(
    game: Game, state: State, seat: Seat, premade: Premade | None = None
) -> tuple[dict[str, object], str] | None:
    """The move for a due seat, or None for a search seat with no premade move computed at
    the game's current ``seq`` (it is left due: see the module)."""
    if seat.bot_controlled:
        if searches(game, seat):
            action = (premade or {}).get((game.pk, seat.seat, game.seq))
            return None if action is None else (dict(action), "bot")
        return _bot_action(game, state, seat), "bot"
    return dict(engine.default_action(state, seat.seat)), "timeout"


def premade_move(game_id: int, *, now: datetime | None = None) -> Premade:
    """Outside any lock: the search move of the game's first due seat, from a snapshot of the
    game read without locking (empty if that seat is not a search bot's). The move is keyed by
    the snapshot's ``seq``; it is applied only if the game is still there when locked."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != Game.Status.RUNNING:
        return {}
    at = now or timezone.now()
    seat = (
        Seat.objects.filter(game=game, deadline__lte=at, seat__in=list(game.to_act or []))
        .select_related("user__profile")
        .order_by("deadline", "seat")
        .first()
    )
    if seat is None or not searches(game, seat):
        return {}
    state = selectors.game_engine_state(game)
    return {(game.pk, seat.seat, game.seq): _bot_action(game, state, seat)}


def _clear_deadlines(game_ids: list[int], *, keep: dict[int, list[int]] | None = None) -> None:
    """Clear the deadlines of the games' seats (all of them, or all but ``keep[game]``'s seats)."""
    if not game_ids:
        return
    qs = Seat.objects.filter(game_id__in=game_ids, deadline__isnull=False)
    if keep:
        cond = Q()
        for gid, seats in keep.items():
            cond |= Q(game_id=gid, seat__in=seats)
        qs = qs.exclude(cond)
    qs.update(deadline=None, reminder_at=None)


def _due_after_move(result: MoveResult, *, now: datetime | None) -> list[Seat]:
    """The game's awaited seats already due after a move (a bot-controlled seat is due at once),
    from the seats the move service read under the lock and the turn hook updated in place."""
    at = now or timezone.now()
    to_act = {int(x) for x in result.game.to_act or []}
    due = [
        s for s in result.seats if s.seat in to_act and s.deadline is not None and s.deadline <= at
    ]
    return sorted(due, key=lambda s: (s.deadline or at, s.seat))


#: Snapshots a bot task reads for one search move before it gives up on a game that keeps
#: moving under it (the next task or sweep retries).
SEARCH_ATTEMPTS = 3


def game_handle_due(
    *, game_id: int, now: datetime | None = None, wait: bool = False, max_moves: int = 60
) -> int:
    """Make the moves due on one game (timeouts, bot turns). Returns how many were made.

    ``wait=False`` (the sweeper) skips a game whose row is locked; ``wait=True`` (the bot task,
    queued after the commit that awaited the bot) waits for the lock. The same path as the sweep's
    chunks, with a chunk of one game. A search bot's move is computed first, outside the lock
    (:func:`premade_move`), and applied under it only if the game has not moved since; after
    one search move the task ends, as the commit queued the task for the next bot.
    """
    made = 0
    for _attempt in range(SEARCH_ATTEMPTS):
        premade = premade_move(game_id, now=now)
        with transaction.atomic():
            game = (
                Game.objects.select_for_update(skip_locked=not wait, no_key=True)
                .filter(pk=game_id)
                .first()
            )
            if game is None:
                return made
            at = now or timezone.now()
            due = list(
                Seat.objects.filter(game=game, deadline__lte=at).order_by("deadline", "seat")
            )
            report = SweepReport()
            _handle_claim(
                Claim(games=[game], due={game.pk: due}),
                now=now,
                report=report,
                premade=premade,
                max_moves=max_moves,
            )
        made += report.moves
        if report.moves or not report.deferred:
            # Moved (a bot awaited next has its own task, queued on commit), or nothing left
            # for a search bot.
            return made
        # The premade move was stale (the game moved while it was computed): read again.
    return made


@dataclass
class Claim:
    """Due games this transaction has locked, each with its seats past their deadline."""

    games: list[Game]
    due: dict[int, list[Seat]]


def due_games_claim(
    *, now: datetime | None = None, limit: int = 1000, exclude: list[int] | None = None
) -> Claim:
    """Inside a transaction: lock up to ``limit`` due games at once and read their due seats.

    Two statements whatever ``limit`` is::

        SELECT g.* FROM games_game g
          JOIN (SELECT game_id, min(deadline) AS first FROM games_seat
                 WHERE deadline <= now GROUP BY game_id) d ON d.game_id = g.id
         ORDER BY d.first, g.id LIMIT n
           FOR NO KEY UPDATE OF g SKIP LOCKED
        SELECT * FROM games_seat WHERE game_id IN (...) AND deadline <= now

    The LIMIT counts the games locked, after the ones other transactions hold (a player moving,
    another sweeper) were skipped - not waited for - so two sweepers take disjoint chunks. The due
    seats are read under our lock, so a seat whose player moved meanwhile is not due any more.
    Games that stopped running are returned too (their deadlines get cleared). ``exclude``: games
    this run has already handled (or failed on).
    """
    now = now or timezone.now()
    game_t, seat_t = Game._meta.db_table, Seat._meta.db_table
    params: list[datetime | int] = [now]
    skip = ""
    if exclude:
        skip = f"WHERE g.id NOT IN ({', '.join(['%s'] * len(exclude))})"
        params.extend(int(i) for i in exclude)
    params.append(limit)
    sql = (
        f"SELECT g.* FROM {game_t} g JOIN (SELECT game_id, MIN(deadline) AS first FROM {seat_t}"
        f" WHERE deadline <= %s GROUP BY game_id) d ON d.game_id = g.id {skip}"
        " ORDER BY d.first, g.id LIMIT %s FOR NO KEY UPDATE OF g SKIP LOCKED"
    )
    if connection.vendor != "postgresql":  # SQLite (development): one writer at a time anyway
        sql = sql.replace(" FOR NO KEY UPDATE OF g SKIP LOCKED", "")
    games = list(Game.objects.raw(sql, params))
    due: dict[int, list[Seat]] = {g.pk: [] for g in games}
    if games:
        for seat in Seat.objects.filter(game_id__in=list(due), deadline__lte=now).order_by(
            "deadline", "seat"
        ):
            due[seat.game_id].append(seat)
    return Claim(games=games, due=due)


@dataclass
class SweepReport:
    found: int = 0
    handled_games: int = 0
    moves: int = 0
    errors: int = 0
    skipped: int = 0
    #: Games left with a search bot's seat due (its move is not computed under the lock).
    deferred: list[int] = field(default_factory=list)
    find_seconds: float = 0.0
    handle_seconds: float = 0.0


def sweep_chunk() -> int:
    """Games locked and handled per transaction by the sweeper (``DEADLINE_SWEEP_CHUNK``: 200,
    ~0.1-0.2 s a chunk): a player moving in one of them waits at most for the chunk's handling."""
    return int(settings.DEADLINE_SWEEP_CHUNK)


def sweep_parallel() -> int:
    """How many sweeps may run at once when many games are due (``DEADLINE_SWEEP_PARALLEL``, 2):
    each on a worker of its own, taking disjoint chunks (SKIP LOCKED)."""
    return max(1, int(settings.DEADLINE_SWEEP_PARALLEL))


def deadlines_sweep(
    *,
    now: datetime | None = None,
    limit: int = 1000,
    budget_seconds: float = 50.0,
    on_full_chunk: Callable[[], None] | None = None,
) -> SweepReport:
    """Handle every game with a passed deadline (up to ``limit`` per run, within a time budget).

    Due games are claimed in chunks (``due_games_claim``: one locking statement per chunk) and
    handled in the chunk's transaction; a game whose move is rejected is skipped (the move service
    undoes its savepoint), the others' moves stand. Games other transactions hold are skipped (due
    again next run); a game is taken at most once per run.

    ``on_full_chunk`` is called once, when a claimed chunk is full (more games may be due), before
    it is handled: the Celery task starts a second sweep on another worker there, which claims the
    next chunks while this one handles its own (a thousand timeouts after an outage, a weekend's
    end).
    """
    report = SweepReport()
    t0 = time.perf_counter()
    chunk = max(1, sweep_chunk())
    seen: list[int] = []
    while report.found < limit:
        if time.perf_counter() - t0 > budget_seconds:
            break  # the next run continues
        with transaction.atomic():
            tc = time.perf_counter()
            want = min(chunk, limit - report.found)
            claim = due_games_claim(now=now, limit=want, exclude=seen)
            report.find_seconds += time.perf_counter() - tc
            if not claim.games:
                break
            if on_full_chunk is not None and len(claim.games) == chunk:
                on_full_chunk()
                on_full_chunk = None
            report.found += len(claim.games)
            seen += [g.pk for g in claim.games]
            th = time.perf_counter()
            before = len(report.deferred)
            _handle_claim(claim, now=now, report=report)
            report.handle_seconds += time.perf_counter() - th
            for game_id in report.deferred[before:]:
                # A search bot's seat: its task computes the move outside any lock.
                queue_bot_on_commit(game_id)
    return report


def _handle_claim(
    claim: Claim,
    *,
    now: datetime | None,
    report: SweepReport,
    premade: Premade | None = None,
    max_moves: int = 60,
) -> None:
    stopped = [g.pk for g in claim.games if g.status != Game.Status.RUNNING]
    _clear_deadlines(stopped)
    running = [g for g in claim.games if g.status == Game.Status.RUNNING]
    for game in running:
        # Round sheets not answered in time: their suggestions play first (games.sheets.timeouts),
        # then what is still due (a turn the suggestion could not decide) as below.
        if sheets_on(game) and _sheets_time_out(game, claim.due[game.pk], report):
            at = now or timezone.now()
            claim.due[game.pk] = sorted(
                (s for s in game.seats_read or [] if s.deadline is not None and s.deadline <= at),
                key=lambda s: (s.deadline or at, s.seat),
            )
    # Seats past their deadline that are not awaited (should not happen): clear them.
    stray = {
        g.pk: [s.pk for s in claim.due[g.pk] if s.seat not in (g.to_act or [])] for g in running
    }
    stray_ids = [pk for pks in stray.values() for pk in pks]
    if stray_ids:
        Seat.objects.filter(pk__in=stray_ids).update(deadline=None, reminder_at=None)
    work: list[tuple[Game, list[Seat]]] = []
    for game in running:
        due = [s for s in claim.due[game.pk] if s.seat in (game.to_act or [])]
        if due:
            work.append((game, due))
        else:
            report.skipped += 1
    _handle_batched(work, now=now, report=report, premade=premade, max_moves=max_moves)


def _sheets_time_out(game: Game, due: list[Seat], report: SweepReport) -> bool:
    """``sheets_time_out`` in a savepoint: a failure is logged and counted, and the game's turns
    are handled as in a game without sheets. Whether sheets were played."""
    try:
        with transaction.atomic():
            made = sheets_time_out(game, due)
    except Exception:
        log.exception("round sheets at their deadline failed on game %s", game.pk)
        report.errors += 1
        game.refresh_from_db()
        game.seats_read = None  # changed in memory by the undone work: read again
        return False
    if made is None:
        return False
    report.moves += made
    return True


def _apply_batch(items: list[SystemMove]) -> list[MoveResult | Exception]:
    """``move_apply_system_batch`` in a savepoint; if it fails as a whole (a bug, a database
    error), the same moves as batches of one, each in its own savepoint, so one bad game cannot
    stall the chunk: the others move, the bad one is logged and counted."""
    if not items:
        return []
    try:
        with transaction.atomic():
            return list(move_apply_system_batch(items))
    except Exception:
        log.exception("batched deadline moves failed; making them one at a time")
    out: list[MoveResult | Exception] = []
    for it in items:
        try:
            with transaction.atomic():
                out.extend(move_apply_system_batch([it]))
        except Exception as exc:
            log.exception("deadline move failed on game %s", it.game.pk)
            out.append(exc)
    return out


def _handle_batched(
    work: list[tuple[Game, list[Seat]]],
    *,
    now: datetime | None,
    report: SweepReport,
    max_moves: int = 60,
    premade: Premade | None = None,
) -> None:
    """The chunk's due moves through ``move_apply_system_batch``: one move per game per round
    (the same engine checks, one ``Move`` row each, the turn hook's batch), then again for the
    games whose next awaited seat is already due (a bot-controlled seat), up to ``max_moves``.
    A search bot's seat is played only with a ``premade`` move computed at the game's current
    ``seq`` (so at most once a game); otherwise the game is left in ``report.deferred``."""
    made: dict[int, int] = {}
    for _round in range(max_moves):
        if not work:
            break
        items: list[SystemMove] = []
        tried: list[tuple[Game, Seat, State, str]] = []
        for game, due in work:
            seat = due[0]
            try:
                state = selectors.game_engine_state(game)
                chosen = _action_for(game, state, seat, premade)
            except engine.IllegalAction:
                report.errors += 1
                log.exception("no default action for game %s seat %s", game.pk, seat.seat)
                continue
            if chosen is None:
                report.deferred.append(game.pk)
                continue
            action, source = chosen
            items.append(
                SystemMove(
                    game, seat.seat, action, source, expected_seq=game.seq, seats=game.seats_read
                )
            )
            tried.append((game, seat, state, source))
        results = _apply_batch(items)
        # A bot whose choice the engine refused plays the default instead (as one at a time).
        again = [
            (i, SystemMove(game, seat.seat, dict(engine.default_action(state, seat.seat)),
                           source, expected_seq=game.seq))
            for i, ((game, seat, state, source), r) in enumerate(zip(tried, results, strict=True))
            if isinstance(r, MoveRejected) and source == "bot"
        ]  # fmt: skip
        if again:
            for (i, _), r in zip(again, _apply_batch([m for _, m in again]), strict=True):
                results[i] = r
        work = []
        for (game, _seat, _state, _source), r in zip(tried, results, strict=True):
            if isinstance(r, Exception):
                report.errors += 1
                log.warning("deadline move refused on game %s: %r", game.pk, r)
                continue
            made[game.pk] = made.get(game.pk, 0) + 1
            next_due = _due_after_move(r, now=now)
            if next_due:
                work.append((r.game, next_due))
    report.handled_games += len(made)
    report.moves += sum(made.values())


def reminders_queue(*, now: datetime | None = None, limit: int = 1000) -> int:
    """Write a reminder row for each awaited seat past its ``reminder_at``; returns the number."""
    now = now or timezone.now()
    written = 0
    with transaction.atomic():
        seats = list(
            Seat.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(reminder_at__lte=now)
            .select_related("user__profile", "game")
            .order_by("reminder_at")[:limit]
        )
        if not seats:
            return 0
        rows = []
        for s in seats:
            game = s.game
            # Awaited, or (a sheets game's seat with a deadline, not awaited) its round sheet
            # waits for an answer (games.sheets.asking).
            if (
                game.status == Game.Status.RUNNING
                and (s.seat in (game.to_act or []) or sheets_on(game))
                and s.deadline is not None
                and s.deadline > now
                and not s.bot_controlled
                and wants_email(s.user, Notification.Kind.REMINDER)
            ):
                rows.append(
                    Notification(
                        recipient=s.user,
                        game=game,
                        kind=Notification.Kind.REMINDER,
                        payload={"seat": s.seat, "deadline": s.deadline.isoformat()},
                        dedupe_key=f"reminder:{game.pk}:{s.user_id}:{int(s.deadline.timestamp())}",
                    )
                )
        Seat.objects.filter(pk__in=[s.pk for s in seats]).update(reminder_at=None)
        if rows:
            Notification.objects.bulk_create(rows, ignore_conflicts=True)
            written = len(rows)
            schedule_send_pending()
    return written
