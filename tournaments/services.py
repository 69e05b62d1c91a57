"""Tournament services: each public function owns one transaction (the tournament's row locked
first, so a round is seated and advanced once however many games end at once).

A round's tables are ordinary games made through the lobby's services (``game_create`` and
``game_join``, the last join starting the game), with the tournament's turn limit; a seat that
times out goes to the bot (the tournament's ``bot_level``) like in any game. A table's game is
as private as its tournament: a public tournament's are public (anyone may watch them, as any
game), a private one's private, with its director and every entrant granted its watchers
(``games.services.watchers``) so that they may follow every table of their tournament.

Seating a round and making its games are two steps (issue 37: a game costs about half a second
to make, so a round of 400-670 tables made in the seating's transaction took minutes and held
the tournament's lock). The round's transaction seats everyone and records each ``Table`` with
its players and seats but no game; after its commit one task per table
(``tournaments.tasks.table_make``) makes the table's game in a transaction of its own
(``table_make``: the table's row locked, a table that has its game left alone, so a task run
twice or by two workers makes one game) and tells its players it is ready. The periodic sweep
makes any table still without a game (the broker was down, a worker died).
"""

from __future__ import annotations

import logging
import secrets
import time
import unicodedata
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts import blocks
from games import engine, queue
from games.models import Game, Rating
from games.services import lobby, watchers
from tournaments import scoring, seating
from tournaments.errors import (
    AlreadyEntered,
    InvalidTournament,
    NotDirector,
    NotEntered,
    OutsideRatingRange,
    TooFewEntrants,
    TournamentNotFound,
    TournamentOver,
    TournamentStarted,
)
from tournaments.models import MADE_FOR, Bye, Entrant, Round, Table, TablePlayer, Tournament
from tournaments.selectors import history_of, may_see, standings_of
from tournaments.signals import table_ready, tournament_finished

log = logging.getLogger(__name__)

ROUNDS_MAX = 12
#: The range a tournament's optional bounds on the shown rating (``Rating.display``) may name.
RATING_LIMITS = (-10000, 10000)
NAME_MAX = 80
#: The task that makes one table's game (``tournaments.tasks.table_make``).
TABLE_MAKE = "tournaments.tasks.table_make"
#: The sweep leaves a table this long to its task before making its game itself.
TABLE_MAKE_GRACE = timedelta(seconds=60)
#: The most seconds one sweep spends making tables' games (the next sweep goes on).
TABLE_SWEEP_SECONDS = 40.0


def _lock(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise TournamentNotFound() from None


def invalid_field(field: str, message: str, **details: object) -> InvalidTournament:
    return InvalidTournament(message, details={"field": field, **details})


def clean_name(value: object) -> str:
    """A tournament's or a league's name, stripped: 1 to ``NAME_MAX`` characters, none of them
    a control or format character (a text-direction override would reverse the email subject
    it is put in, "your table is ready" with it; a line break would forge a line of a
    plain-text email), as display names (``accounts.models.validate_display_name``)."""
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > NAME_MAX:
        raise invalid_field("name", f"name: 1 to {NAME_MAX} characters.")
    bad = [c for c in value if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")]
    if bad:
        raise invalid_field(
            "name",
            f"name cannot contain control characters (U+{ord(bad[0]):04X}): text-direction "
            "controls and line breaks included.",
        )
    return value.strip()


def whole_number(value: object, field: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise invalid_field(
            field, f"{field} must be a whole number from {low} to {high}.", min=low, max=high
        )
    return value


def clean_maps(maps: object) -> list[str]:
    known = engine.maps_available()
    if (
        not isinstance(maps, list)
        or not maps
        or len(set(maps)) != len(maps)
        or not all(isinstance(m, str) and m in known for m in maps)
    ):
        raise invalid_field(
            "maps", f"maps: one or more distinct maps of {', '.join(known)}.", choices=known
        )
    return list(maps)


def tournament_create(
    *,
    director: Any,
    name: object,
    maps: object,
    table_min: object = 3,
    table_max: object = 5,
    rounds: object = 3,
    turn_hours: object = 24,
    private: object = False,
    signup_deadline: datetime | None = None,
    rating_min: object = None,
    rating_max: object = None,
) -> Tournament:
    """A tournament open for sign-up; the director does not enter by creating it. Every field
    is checked here (400 ``invalid_field`` naming it) for every caller."""
    clean = clean_name(name)
    map_list = clean_maps(maps)
    low = whole_number(table_min, "table_min", *seating.TABLE_LIMITS)
    high = whole_number(table_max, "table_max", low, seating.TABLE_LIMITS[1])
    n_rounds = whole_number(rounds, "rounds", 1, ROUNDS_MAX)
    hours = whole_number(turn_hours, "turn_hours", lobby.TURN_HOURS_MIN, lobby.TURN_HOURS_MAX)
    if not isinstance(private, bool):
        raise invalid_field("private", "private must be true or false.")
    if signup_deadline is not None and signup_deadline <= timezone.now():
        raise invalid_field("signup_deadline", "signup_deadline must be in the future.")
    bounds = []
    for field, value in (("rating_min", rating_min), ("rating_max", rating_max)):
        bounds.append(None if value is None else whole_number(value, field, *RATING_LIMITS))
    if bounds[0] is not None and bounds[1] is not None and bounds[0] > bounds[1]:
        raise invalid_field("rating_max", "rating_max must not be below rating_min.")
    return Tournament.objects.create(
        name=clean,
        director=director,
        maps=map_list,
        table_min=low,
        table_max=high,
        rounds=n_rounds,
        turn_hours=hours,
        private=private,
        invite_code=secrets.token_urlsafe(12),
        signup_deadline=signup_deadline,
        rating_min=bounds[0],
        rating_max=bounds[1],
        seed=secrets.randbits(62),
    )


def _rating_allows(t: Tournament, user: Any) -> None:
    """A player with no rating yet may enter; a rated one must lie in the range."""
    if t.rating_min is None and t.rating_max is None:
        return
    rating = Rating.objects.filter(user=user).first()
    if rating is None:
        return
    shown = rating.display
    if (t.rating_min is not None and shown < t.rating_min) or (
        t.rating_max is not None and shown > t.rating_max
    ):
        raise OutsideRatingRange(
            details={"rating": shown, "rating_min": t.rating_min, "rating_max": t.rating_max}
        )


def tournament_join(*, tournament_id: int, user: Any, code: str = "") -> Entrant:
    """Enter an open tournament (``code``: its private link's, when private). A private one
    the caller may not see (``selectors.may_see``: no code, not its director) is not found, as
    on every other path: its state (open, started) would tell that it exists."""
    with transaction.atomic():
        t = _lock(tournament_id)
        if not may_see(t, user, code if isinstance(code, str) else ""):
            raise TournamentNotFound()
        if t.status != Tournament.Status.OPEN:
            raise TournamentStarted()
        if Entrant.objects.filter(tournament=t, user=user).exists():
            raise AlreadyEntered()
        _rating_allows(t, user)
        return Entrant.objects.create(tournament=t, user=user)


def tournament_leave(*, tournament_id: int, user: Any) -> Tournament:
    """Leave: before the start the entry is removed; after, the entrant drops out (keeps the
    points so far, is not seated again; a running game's seat goes on to the bot through its
    timeouts, as for any player who stops moving)."""
    with transaction.atomic():
        t = _lock(tournament_id)
        entrant = Entrant.objects.filter(tournament=t, user=user).first()
        if entrant is None:
            raise NotEntered()
        if t.status == Tournament.Status.FINISHED:
            raise TournamentOver()
        if t.status == Tournament.Status.OPEN:
            entrant.delete()
        elif entrant.dropped_at is None:
            entrant.dropped_at = timezone.now()
            entrant.save(update_fields=["dropped_at"])
        return t


def tournament_start(*, tournament_id: int, user: Any | None) -> Tournament:
    """Seat round 1 (its tables' games are made after commit: ``table_make``). ``user``: the
    director, or None for the sign-up deadline (the periodic sweep). Fewer entrants than
    ``table_min``: 409 ``too_few_entrants`` (the sweep leaves such a tournament open for the
    director to decide)."""
    with transaction.atomic():
        t = _lock(tournament_id)
        if user is not None and t.director_id != user.pk:
            raise NotDirector()
        if t.status != Tournament.Status.OPEN:
            raise TournamentStarted("The tournament has started already.")
        t.status = Tournament.Status.RUNNING
        t.started_at = timezone.now()
        _round_seat(t, 1)
        return t


def _round_seat(t: Tournament, number: int) -> Round:
    """Seat round ``number`` of the locked tournament: its tables with their players and
    seats, and its byes. Each table's game is made after commit (``tables_queue``)."""
    entrants = [e for e in Entrant.objects.filter(tournament=t) if e.dropped_at is None]
    by_id = {e.pk: e for e in entrants}
    if number == 1:
        order = [e.pk for e in entrants]
        history = seating.History()
    else:
        order = [s.entrant for s in standings_of(t) if s.entrant in by_id]
        history = history_of(t)
    users = {e.pk: e.user_id for e in entrants}
    entrant_of = {u: e for e, u in users.items()}
    apart = {
        entrant_of[u]: {entrant_of[v] for v in others}
        for u, others in blocks.blocked_pairs(users.values()).items()
    }
    try:
        plan = seating.seat_round(
            order,
            table_min=t.table_min,
            table_max=t.table_max,
            maps=t.maps,
            history=history,
            seed=t.seed + number,
            apart=apart,  # a block's two never share a table (seating's rule 5)
        )
    except seating.SeatingRefused as exc:
        raise TooFewEntrants(
            exc.message, details={"entrants": len(order), "table_min": t.table_min}
        ) from exc
    t.current_round = number
    t.save()
    rnd = Round.objects.create(tournament=t, number=number)
    rows = Table.objects.bulk_create(
        Table(round=rnd, number=i, map=table.map) for i, table in enumerate(plan.tables, start=1)
    )
    TablePlayer.objects.bulk_create(
        TablePlayer(table=row, entrant_id=p, seat=s)
        for row, table in zip(rows, plan.tables, strict=True)
        for s, p in enumerate(table.players)
    )
    Bye.objects.bulk_create(Bye(round=rnd, entrant_id=p) for p in plan.byes)
    ids = [row.pk for row in rows]
    transaction.on_commit(lambda: tables_queue(ids))
    return rnd


def tables_queue(table_ids: Sequence[int]) -> int:
    """Queue a ``table_make`` task per table (after the round's commit); how many were queued.
    A broker that is down stops the queueing (logged, never raised: the round is committed):
    the periodic sweep makes the tables left without a game."""
    for done, table_id in enumerate(table_ids):
        try:
            queue.publish(TABLE_MAKE, table_id)
        except Exception:
            log.warning(
                "could not queue %d tables' games; the sweep will make them",
                len(table_ids) - done,
            )
            return done
    return len(table_ids)


def table_make(*, table_id: int, skip_locked: bool = False) -> Game | None:
    """Make table ``table_id``'s game through the lobby and tell its players (and, with the
    round's first table, its byes) that the round starts, in one transaction with the table's
    row locked: a table that has its game already is left alone, so a task run twice, or by
    two workers at once, makes one game. A private tournament's director and entrants are made
    the game's watchers in the same transaction. The game, or None (made already, no such table, a
    tournament no longer running; ``skip_locked``: another transaction is making it)."""
    with transaction.atomic():
        rows = Table.objects.select_for_update(skip_locked=skip_locked, of=("self",))
        rows = rows.filter(pk=table_id)
        table = rows.select_related("round__tournament").first()
        if table is None or table.game_id is not None:
            return None
        t = table.round.tournament
        if t.status != Tournament.Status.RUNNING:
            return None
        players = list(table.players.select_related("entrant__user").order_by("seat"))
        made = _table_game(t, [p.entrant.user for p in players], table.map)
        if t.private:  # its director and entrants may watch every table
            entrants = Entrant.objects.filter(tournament=t).values_list("user_id", flat=True)
            watchers.watchers_grant(game_id=made.pk, users=[t.director_id, *entrants])
        # as the joins and the start left it (its seq, whether a player's webhooks watch it)
        game = Game.objects.get(pk=made.pk)
        table.game = game
        table.save(update_fields=["game"])
        table_ready.send(sender=Tournament, tournament=t, round=table.round, table=table)
        return game


def tables_sweep(*, now: datetime | None = None, budget: float = TABLE_SWEEP_SECONDS) -> int:
    """Make the games of running tournaments' tables still without one a while after their
    round was seated (``TABLE_MAKE_GRACE``: their tasks' time), skipping a table another
    transaction is making; stops after ``budget`` seconds (the next sweep goes on). How many
    games it made."""
    at = now or timezone.now()
    waiting = Table.objects.filter(
        game__isnull=True,
        round__tournament__status=Tournament.Status.RUNNING,
        round__started_at__lte=at - TABLE_MAKE_GRACE,
    ).order_by("pk")
    made = 0
    began = time.monotonic()
    for table_id in waiting.values_list("pk", flat=True):
        if time.monotonic() - began > budget:
            break
        try:
            if table_make(table_id=table_id, skip_locked=True) is not None:
                made += 1
        except Exception:
            log.exception(
                "could not make the game of table %s; the next sweep will retry", table_id
            )
    return made


def _table_game(t: Tournament, users: Sequence[Any], map: str) -> Game:
    """A table's game, made and started through the lobby: the first player creates it, the
    others join by its code, the last join starts it (``auto_start``). Private when the
    tournament is (joined by its code all the same)."""
    game = lobby.game_create(
        creator=users[0],
        map=map,
        max_players=len(users),
        options={
            "turn_hours": t.turn_hours,
            "private": t.private,
            # A table's seats are its entrants': a seat left is the bot's to the end, never a
            # stranger's (a public tournament's tables are public games).
            "substitutes": False,
            "auto_start": True,
            "bot_level": t.bot_level,
        },
    )
    Game.objects.filter(pk=game.pk).update(made_for=MADE_FOR)
    for user in users[1:]:
        lobby.game_join(game_id=game.pk, user=user, code=game.invite_code, seated_apart=True)
    return game


def _record(table: Table) -> None:
    """Write a finished table's result and points (the engine's result: powered, money,
    cities, rank per seat)."""
    game = table.game
    assert game is not None, "a finished table has its game"
    state = engine.state_load(
        game_id=game.pk, seed=game.seed, seq=game.seq, state_json=game.state_json
    )
    result = state.result or ()
    players = list(table.players.all())
    ranks = [int(result[p.seat][3]) for p in players]
    points = scoring.table_points(ranks)
    for p, pts in zip(players, points, strict=True):
        row = result[p.seat]
        p.powered, p.money, p.rank, p.points = int(row[0]), int(row[1]), int(row[3]), pts
    TablePlayer.objects.bulk_update(players, ["powered", "money", "rank", "points"])
    table.finished = True
    table.save(update_fields=["finished"])


def tournament_game_ended(*, game_id: int) -> Tournament | None:
    """A table's game ended (the ``games.signals.game_finished`` hook, after its commit, and
    the sweep): record its result; when the round's last table ends, seat the next round or
    finish the tournament. Idempotent; None for a game that is no tournament's table."""
    table_ref = Table.objects.filter(game_id=game_id).select_related("round").first()
    if table_ref is None:
        return None
    with transaction.atomic():
        t = _lock(table_ref.round.tournament_id)
        table = Table.objects.select_related("game", "round").get(pk=table_ref.pk)
        game = table.game  # found by its game: never None here
        if not table.finished and game is not None and game.status == Game.Status.FINISHED:
            _record(table)
        _advance(t)
        return t


def _advance(t: Tournament) -> None:
    """Next round or the end, once every table of the current round is recorded."""
    if t.status != Tournament.Status.RUNNING:
        return
    rnd = Round.objects.get(tournament=t, number=t.current_round)
    if rnd.finished_at is not None or Table.objects.filter(round=rnd, finished=False).exists():
        return
    rnd.finished_at = timezone.now()
    rnd.save(update_fields=["finished_at"])
    active = Entrant.objects.filter(tournament=t, dropped_at__isnull=True).count()
    if t.current_round >= t.rounds or active < t.table_min:
        t.status = Tournament.Status.FINISHED
        t.finished_at = timezone.now()
        t.save(update_fields=["status", "finished_at"])
        tournament_finished.send(sender=Tournament, tournament=t)
        return
    _round_seat(t, t.current_round + 1)


def tournaments_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """The periodic sweep: start the tournaments whose sign-up deadline passed (one
    transaction each; one with too few entrants stays open), record any finished table the
    game-end hook missed (a crash between the game's commit and the hook), and make the games
    of tables their task did not make (``tables_sweep``)."""
    at = now or timezone.now()
    started = refused = recorded = 0
    due = Tournament.objects.filter(status=Tournament.Status.OPEN, signup_deadline__lte=at)
    for tid in due.values_list("pk", flat=True):
        try:
            tournament_start(tournament_id=tid, user=None)
            started += 1
        except (TooFewEntrants, TournamentStarted):
            refused += 1
    missed = Table.objects.filter(
        finished=False,
        round__tournament__status=Tournament.Status.RUNNING,
        game__status=Game.Status.FINISHED,
    )
    for gid in missed.values_list("game_id", flat=True):
        tournament_game_ended(game_id=gid)
        recorded += 1
    made = tables_sweep(now=at)
    return {"started": started, "refused": refused, "recorded": recorded, "tables": made}
