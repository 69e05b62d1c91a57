"""The answers of the tournaments' API and pages (shapes in ``tournaments.shapes``).

The API answers a tournament with its rounds counted (``detail``) and pages its entrants, each
round's tables and its standings (``entrants_page``, ``tables_page``, ``standings_ranked``:
``games.api.base.Paging``), so no answer grows with the entrants. The page reads what it shows:
a page of the standings (``STANDINGS_PER_PAGE`` rows, each with its path through the rounds)
and the tables of the rounds small enough to list (``TABLES_INLINE``; a bigger round's tables
are on its own page, ``TABLES_PER_PAGE`` at a time), so a tournament of 2,000 entrants renders
as fast as one of 100 (issue 37's target: the standings page of 2,000 in at most 100 ms,
``bench/tournament_page_bench.py``)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypedDict

from django.core.paginator import Page, Paginator
from django.db.models import Count, Prefetch, Q, QuerySet

from games.selectors import player_name
from tournaments import scoring, selectors, services, shapes
from tournaments.models import Division, Entrant, Round, Table, Tournament

#: Rows of the standings a page shows (a tournament of up to this many entrants: one page).
STANDINGS_PER_PAGE = 100
#: A round of more tables lists them on its own page; the tournament's page says how many.
TABLES_INLINE = 12
#: Tables a round's own page lists at a time (``?page=``).
TABLES_PER_PAGE = 50


def summary(t: Tournament) -> shapes.TournamentSummary:
    count = getattr(t, "entrant_count", None)
    return {
        "id": t.pk,
        "name": t.name,
        "director": t.director.get_username(),
        "status": t.status,  # type: ignore[typeddict-item]
        "maps": list(t.maps),
        "table_min": t.table_min,
        "table_max": t.table_max,
        "round_count": t.rounds,
        "current_round": t.current_round,
        "turn_hours": t.turn_hours,
        "private": t.private,
        "signup_deadline": t.signup_deadline,
        "rating_min": t.rating_min,
        "rating_max": t.rating_max,
        "entrants": count if count is not None else t.entrants.count(),
        "created_at": t.created_at,
    }


class RoundTables(TypedDict):
    """A round with its tables whole, for the pages (the tournament's page lists a small
    round's, the round's page every one); the API pages them (``tables_page``)."""

    number: int
    started_at: datetime
    finished_at: datetime | None
    tables: list[shapes.TournamentTable]
    byes: list[str]


#: What ``table`` reads of a table's players, read with the tables.
TABLE_READS = "players__entrant__user__profile"


def table(tbl: Table) -> shapes.TournamentTable:
    """A table with its players (read with ``TABLE_READS``), as the API and the pages show it."""
    players: list[shapes.TournamentPlayer] = [
        {
            "username": p.entrant.user.get_username(),
            "name": player_name(p.entrant.user),
            "seat": p.seat,
            "rank": p.rank,
            "powered": p.powered,
            "money": p.money,
            "points": p.points,
        }
        for p in tbl.players.all()
    ]
    return {
        "number": tbl.number,
        "map": tbl.map,
        "game": tbl.game_id,
        "finished": tbl.finished,
        "players": players,
    }


def _byes(rnd: Round) -> list[str]:
    return [b.entrant.user.get_username() for b in rnd.byes.all()]


def _rounds(t: Tournament, *, tables_of: Collection[int]) -> list[RoundTables]:
    """The rounds with their byes, and the tables of the rounds numbered in ``tables_of`` (the
    others' ``tables`` are empty)."""
    listed = Table.objects.filter(round__number__in=list(tables_of))
    rounds = Round.objects.filter(tournament=t).prefetch_related(
        Prefetch("tables", queryset=listed), f"tables__{TABLE_READS}", "byes__entrant__user"
    )
    return [
        {
            "number": rnd.number,
            "started_at": rnd.started_at,
            "finished_at": rnd.finished_at,
            "tables": [table(x) for x in rnd.tables.all()],
            "byes": _byes(rnd),
        }
        for rnd in rounds
    ]


def _rounds_counted(t: Tournament) -> list[dict[str, Any]]:
    """The rounds in order (``number``, ``started_at``, ``finished_at``), each with its number
    of tables (``table_count``), of those ended (``ended``) and of those being set up
    (``setting_up``: no game yet, ``services.table_make``), counted in one query."""
    return list(
        Round.objects.filter(tournament=t)
        .annotate(
            table_count=Count("tables", distinct=True),
            ended=Count("tables", filter=Q(tables__finished=True), distinct=True),
            setting_up=Count("tables", filter=Q(tables__game__isnull=True), distinct=True),
        )
        .values("number", "started_at", "finished_at", "table_count", "ended", "setting_up")
        .order_by("number")  # Meta.ordering is dropped from a GROUP BY query
    )


def league_of(t: Tournament) -> shapes.TournamentLeague | None:
    d = Division.objects.filter(tournament=t).select_related("season__league").first()
    if d is None:
        return None
    league = d.season.league
    return {"id": league.pk, "name": league.name, "season": d.season.number, "division": d.number}


def _entered(t: Tournament, viewer: Any) -> bool:
    return bool(getattr(viewer, "is_authenticated", False)) and (
        Entrant.objects.filter(tournament=t, user_id=viewer.pk).exists()
    )


def _invite_code(t: Tournament, viewer: Any) -> str | None:
    """The private link's code, for a private tournament's director only: a public one is
    open to all without it (every tournament is given a code when it is made), so showing
    it there would only make its director think it had to be handed out."""
    signed_in = getattr(viewer, "is_authenticated", False)
    mine = signed_in and viewer.pk == t.director_id
    return t.invite_code if t.private and mine else None


def detail(t: Tournament, user: Any) -> shapes.Tournament:
    """The tournament as the API answers it: its rounds counted, not listed (their tables and
    its entrants are paged: ``tables_page``, ``entrants_page``), so the answer's size does not
    grow with the entrants (at most ``ROUNDS_MAX`` rounds)."""
    return {
        **summary(t),
        "league": league_of(t),
        "rounds": [
            {
                "number": r["number"],
                "started_at": r["started_at"],
                "finished_at": r["finished_at"],
                "tables_count": r["table_count"],
            }
            for r in _rounds_counted(t)
        ],
        "entered": _entered(t, user),
        "invite_code": _invite_code(t, user),
    }


def entrants_page(t: Tournament) -> QuerySet[Entrant]:
    """The entrants in the order they entered, to be paged (``entrant``: each's item)."""
    return Entrant.objects.filter(tournament=t).select_related("user__profile")


def entrant(e: Entrant) -> shapes.TournamentEntrant:
    return {
        "username": e.user.get_username(),
        "name": player_name(e.user),
        "dropped": e.dropped_at is not None,
    }


def round_numbered(t: Tournament, number: int) -> Round | None:
    """The tournament's round ``number`` with its byes' names, or None (a number past
    ``ROUNDS_MAX`` is none, unread: the database's column would overflow)."""
    if number > services.ROUNDS_MAX:
        return None
    return (
        Round.objects.filter(tournament=t, number=number)
        .prefetch_related("byes__entrant__user")
        .first()
    )


def round_head(rnd: Round) -> dict[str, Any]:
    """What the round's answer says besides its page of tables (``TournamentRoundTables``;
    ``rnd`` from ``round_numbered``)."""
    return {
        "number": rnd.number,
        "started_at": rnd.started_at,
        "finished_at": rnd.finished_at,
        "byes": _byes(rnd),
    }


def tables_page(rnd: Round) -> QuerySet[Table]:
    """The round's tables by number, with their players, to be paged (``table``: each's
    item)."""
    return Table.objects.filter(round=rnd).prefetch_related(TABLE_READS)


def _users(entrant_ids: Sequence[int]) -> dict[int, Any]:
    return {
        e.pk: e.user
        for e in Entrant.objects.filter(pk__in=entrant_ids).select_related("user__profile")
    }


def _row(r: scoring.Standing, user: Any) -> shapes.StandingRow:
    return {
        "place": r.place,
        "username": user.get_username(),
        "name": player_name(user),
        "points": r.points,
        "powered": r.powered,
        "money": r.money,
        "head_to_head": r.head_to_head,
        "games": r.games,
        "byes": r.byes,
        "dropped": r.dropped,
    }


def standings_ranked(t: Tournament) -> list[scoring.Standing]:
    """The whole standings, best first, to be paged (a place depends on everyone, so all are
    ranked; ``standing_rows`` names a page's rows only)."""
    return list(selectors.standings_of(t))


def standing_rows(rows: list[scoring.Standing]) -> list[shapes.StandingRow]:
    """A page of the standings as the API shows it: its players' names read in one query."""
    users = _users([r.entrant for r in rows])
    return [_row(r, users[r.entrant]) for r in rows]


def standings_head(t: Tournament) -> dict[str, Any]:
    """What the standings' answer says besides its page of rows (``shapes.Standings``)."""
    return {"tournament": t.pk, "final": t.status == Tournament.Status.FINISHED}


@dataclass(frozen=True)
class StandingsPage:
    """A page of the standings: its rows (each a ``StandingRow`` with ``path``, the entrant's
    tables and byes round by round, and ``mine``), where it lies among the pages, and the
    viewer's own place and page (None: not an entrant)."""

    rows: list[dict[str, Any]]
    number: int
    num_pages: int
    count: int
    my_place: int | None
    my_page: int | None


def standings_page(t: Tournament, viewer: Any, page: str | int | None) -> StandingsPage:
    """Page ``page`` of the standings (a page number that is not one gives the first page, one
    out of range the last: ``Paginator.get_page``). The whole standings are ranked (a place
    depends on everyone); names and paths are read for the page's rows only."""
    everyone = selectors.standings_of(t)
    paginator = Paginator(everyone, STANDINGS_PER_PAGE)
    current = paginator.get_page(page)
    shown: list[scoring.Standing] = list(current.object_list)
    ids = [r.entrant for r in shown]
    users = _users(ids)
    paths = selectors.paths_of(t, ids)
    mine = None
    if getattr(viewer, "is_authenticated", False):
        mine = (
            Entrant.objects.filter(tournament=t, user_id=viewer.pk)
            .values_list("pk", flat=True)
            .first()
        )
    at = next((i for i, r in enumerate(everyone) if r.entrant == mine), None)
    return StandingsPage(
        rows=[
            {**_row(r, users[r.entrant]), "path": paths[r.entrant], "mine": r.entrant == mine}
            for r in shown
        ],
        number=current.number,
        num_pages=paginator.num_pages,
        count=paginator.count,
        my_place=everyone[at].place if at is not None else None,
        my_page=at // STANDINGS_PER_PAGE + 1 if at is not None else None,
    )


def rounds_for_page(t: Tournament) -> list[dict[str, Any]]:
    """Every round, newest first, with its number of tables, of those ended and of those being
    set up (``_rounds_counted``), its byes, and its tables when it has at most
    ``TABLES_INLINE`` (else ``tables`` is None: they are listed on the round's page)."""
    counted = _rounds_counted(t)
    small = [r["number"] for r in counted if r["table_count"] <= TABLES_INLINE]
    full = {r["number"]: r for r in _rounds(t, tables_of=small)}
    return [
        {
            "number": r["number"],
            "table_count": r["table_count"],
            "ended": r["ended"],
            "setting_up": r["setting_up"],
            "tables": full[r["number"]]["tables"] if r["number"] in small else None,
            "byes": full[r["number"]]["byes"],
        }
        for r in reversed(counted)
    ]


def round_page(
    t: Tournament, number: int, page: str | int | None
) -> tuple[RoundTables, Page] | None:
    """Round ``number`` with page ``page`` of its tables (``TABLES_PER_PAGE`` a page, by
    number; a page number that is not one gives the first, one out of range the last:
    ``Paginator.get_page``), for the round's page; None: no such round."""
    rnd = round_numbered(t, number)
    if rnd is None:
        return None
    current = Paginator(tables_page(rnd), TABLES_PER_PAGE).get_page(page)
    shown: RoundTables = {
        "number": rnd.number,
        "started_at": rnd.started_at,
        "finished_at": rnd.finished_at,
        "tables": [table(x) for x in current.object_list],
        "byes": _byes(rnd),
    }
    return shown, current


def page_head(t: Tournament, viewer: Any) -> dict[str, Any]:
    """What the tournament's page says above its standings: the summary, its league, the
    private link's code (a private one's director only), and whether the viewer entered."""
    return {
        **summary(t),
        "league": league_of(t),
        "invite_code": _invite_code(t, viewer),
        "entered": _entered(t, viewer),
    }
