"""The answers of the leagues' API and pages (shapes in ``tournaments.shapes``), and the reads
they make. A division's players, rounds and standings are its tournament's. The API pages what
grows with the members: the list, a league's members and a season's divisions
(``games.api.base.Paging``); the league itself counts them. The league's page shows a season's
divisions a page at a time too (``season_page``), marked as the API's pages are."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from django.core.paginator import Page, Paginator
from django.db.models import Count, Exists, Max, OuterRef, QuerySet

from games.selectors import player_name
from tournaments import ladder, selectors, shapes
from tournaments.models import Division, Entrant, League, LeagueMember, Season, Tournament

#: Divisions the league's page shows at a time (``?page=``): each is a table of up to
#: ``division_size`` (at most ``leagues.DIVISION_SIZE_MAX``) rows, so a page holds at most
#: 600 rows however many divisions a season has (the API's pages: 5 by default, 20 at most).
DIVISIONS_PER_PAGE = 10


def leagues_listed() -> QuerySet[League]:
    """Every league, newest first, with its member count, last season and whether it runs."""
    running = Season.objects.filter(league=OuterRef("pk"), finished_at__isnull=True)
    return (
        League.objects.select_related("director")
        .annotate(
            member_count=Count("members", distinct=True),
            last_season=Max("seasons__number"),
            running=Exists(running),
        )
        .order_by("-created_at", "-pk")
    )


def listed(league_id: int) -> League | None:
    return leagues_listed().filter(pk=league_id).first()


def summary(league: League) -> shapes.LeagueSummary:
    return {
        "id": league.pk,
        "name": league.name,
        "director": league.director.get_username(),
        "maps": list(league.maps),
        "table_min": league.table_min,
        "table_max": league.table_max,
        "rounds": league.rounds,
        "turn_hours": league.turn_hours,
        "division_size": league.division_size,
        "movers": league.movers,
        "members": int(getattr(league, "member_count", 0) or 0),
        "season": int(getattr(league, "last_season", 0) or 0),
        "season_running": bool(getattr(league, "running", False)),
        "created_at": league.created_at,
    }


def your_divisions(league: League, viewer: Any) -> dict[int, int]:
    """The viewer's division in each season of the league they played in (season number ->
    division number), in one query however many divisions and seasons: the viewer's entries
    only, none for a visitor. An entry, not a membership: a member who left keeps their row in
    that season's standings, and one who joined during a season has none in it."""
    if not getattr(viewer, "is_authenticated", False):
        return {}
    return dict(
        Entrant.objects.filter(
            user_id=viewer.pk, tournament__division__season__league=league
        ).values_list("tournament__division__season__number", "tournament__division__number")
    )


def division_page(number: int) -> int:
    """The page of the league's page (``season_page``) holding division ``number``: a season's
    divisions are numbered 1 to its count, the top first (``leagues._season_start``), and
    paged in that order, so no division need be read to find it."""
    return (number - 1) // DIVISIONS_PER_PAGE + 1


def _seasons(league: League, viewer: Any) -> list[shapes.LeagueSeasonSummary]:
    """Every season in order, each with its number of divisions (counted in one query) and
    the viewer's division in it (``your_divisions``: one more)."""
    rows = (
        Season.objects.filter(league=league)
        .annotate(divisions_count=Count("divisions"))
        .values("number", "started_at", "finished_at", "divisions_count")
        .order_by("number")  # Meta.ordering is dropped from a GROUP BY query
    )
    yours = your_divisions(league, viewer)
    return [
        {
            "number": r["number"],
            "started_at": r["started_at"],
            "finished_at": r["finished_at"],
            "divisions_count": r["divisions_count"],
            "your_division": yours.get(r["number"]),
        }
        for r in rows
    ]


def is_member(league: League, viewer: Any) -> bool:
    return bool(getattr(viewer, "is_authenticated", False)) and (
        LeagueMember.objects.filter(league=league, user_id=viewer.pk).exists()
    )


def detail(league: League, viewer: Any) -> shapes.League:
    """The league as the API answers it (``league``: from ``leagues_listed``, its counts
    annotated): its seasons' divisions counted, not listed, and its members counted (both paged:
    ``LeagueSeasonView``, ``members_page``), so the answer does not grow with the members; each
    season says the viewer's division in it, so a client knows which page of it to read."""
    return {
        **summary(league),
        "seasons": _seasons(league, viewer),
        "member": is_member(league, viewer),
    }


def members_page(league: League) -> QuerySet[LeagueMember]:
    """The members in the order they joined, to be paged (``members_shown``: a page's items)."""
    return LeagueMember.objects.filter(league=league).select_related("user__profile")


def _last_season(league: League) -> Season | None:
    return Season.objects.filter(league=league).order_by("-number").first()


def members_shown(league: League) -> Callable[[list[LeagueMember]], list[shapes.LeagueMember]]:
    """How a page of members is shown: each's division in the running or last season (read
    for the page's members only) and whether they wait for the next season."""

    def shown(page: list[LeagueMember]) -> list[shapes.LeagueMember]:
        last = _last_season(league)
        division_of: dict[int, int] = {}
        if last is not None:
            division_of = dict(
                Entrant.objects.filter(
                    tournament__division__season=last, user_id__in=[m.user_id for m in page]
                ).values_list("user_id", "tournament__division__number")
            )
        running = last is not None and last.finished_at is None
        return [
            {
                "username": m.user.get_username(),
                "name": player_name(m.user),
                "division": division_of.get(m.user_id),
                "waiting": running and m.user_id not in division_of,
            }
            for m in page
        ]

    return shown


def waiting(league: League) -> list[LeagueMember]:
    """The members who joined during the running season (they play from the next one)."""
    last = _last_season(league)
    if last is None or last.finished_at is not None:
        return []
    playing = Entrant.objects.filter(tournament__division__season=last).values("user_id")
    return list(members_page(league).exclude(user_id__in=playing))


def _moves(
    season: Season, finishes: list[list[int]], movers: int, places: dict[int, int | None]
) -> dict[int, str]:
    """Who went (or, while no next season is seated, would go) up and down. Would go, in a
    division still playing: only a player its standings set apart from those who would stay,
    so one who shares a place with one on the other side of the line is not marked (at a
    season's start everyone shares place 1 with 0 points: nobody would move yet). ``places``:
    each user's place, None in a division that has finished, whose order is final (the ladder
    takes it as it is, ties in the standings' order: its "final standings" email told them)."""
    if season.moves is not None:
        up, down = season.moves.get("up", []), season.moves.get("down", [])
        return {**dict.fromkeys(down, "down"), **dict.fromkeys(up, "up")}
    staying = set(
        LeagueMember.objects.filter(
            league_id=season.league_id, user_id__in=[u for f in finishes for u in f]
        ).values_list("user_id", flat=True)
    )
    ranked = [[u for u in f if u in staying] for f in finishes]
    marks: dict[int, str] = {}
    for f, m in zip(ranked, ladder.moves(ranked, movers), strict=True):
        if m.down:  # the last who would stay: f[-k-1] (at most half of a division moves)
            line = places[f[len(f) - len(m.down) - 1]]
            marks.update((u, "down") for u in m.down if _apart(places[u], line, 1))
        if m.up:  # the first who would stay: f[k]
            line = places[f[len(m.up)]]
            marks.update((u, "up") for u in m.up if _apart(places[u], line, -1))
    return marks


def _apart(place: int | None, line: int | None, side: int) -> bool:
    """Whether ``place`` lies beyond ``line`` on ``side`` (1: below, -1: above); a finished
    division's (None) always does."""
    return place is None or line is None or (place - line) * side > 0


def divisions_of(s: Season) -> QuerySet[Division]:
    """The season's divisions, the top first, to be paged (``divisions_shown``)."""
    return Division.objects.filter(season=s).select_related("tournament").order_by("number")


def divisions_shown(
    league: League, s: Season
) -> Callable[[list[Division]], list[shapes.LeagueDivision]]:
    """How a page of the season's divisions is shown: each with its standings and who moves.
    A division's moves depend on the divisions next to it (``ladder.moves``: how many cross a
    boundary depends on both sizes), so the page's neighbours are read too, and not shown."""

    def shown(page: list[Division]) -> list[shapes.LeagueDivision]:
        if not page:
            return []
        above = divisions_of(s).filter(number__lt=page[0].number).last()
        below = divisions_of(s).filter(number__gt=page[-1].number).first()
        window = [d for d in (above, *page, below) if d is not None]
        numbers = {d.number for d in page}
        return [d for d in _divisions(league, s, window) if d["number"] in numbers]

    return shown


def season_head(s: Season) -> dict[str, Any]:
    """What the season's answer says besides its page of divisions (``shapes.LeagueSeason``)."""
    return {
        "league": s.league_id,
        "number": s.number,
        "started_at": s.started_at,
        "finished_at": s.finished_at,
        "final": s.finished_at is not None,
    }


def season(league: League, s: Season) -> dict[str, Any]:
    """The season with every division (the tests of the moves: what a page must agree with)."""
    return {**season_head(s), "divisions": _divisions(league, s, list(divisions_of(s)))}


def season_page(league: League, s: Season, page: str | int | None) -> tuple[dict[str, Any], Page]:
    """The season with page ``page`` of its divisions (``DIVISIONS_PER_PAGE``, the top first;
    a page number that is not one gives the first page, one out of range the last:
    ``Paginator.get_page``), for the league's page. Marked by ``divisions_shown``, as the API's
    pages are, so a division's moves are the same on every page as on the whole season."""
    current = Paginator(divisions_of(s), DIVISIONS_PER_PAGE).get_page(page)
    shown = divisions_shown(league, s)(list(current.object_list))
    return {**season_head(s), "divisions": shown}, current


def _divisions(league: League, s: Season, divisions: list[Division]) -> list[shapes.LeagueDivision]:
    """``divisions`` (consecutive, the top first) with their standings and moves; the first's
    moves up and the last's down are right only when no division lies beyond them (a page's
    neighbours are read for this: ``divisions_shown``)."""
    tables = []
    for d in divisions:
        entrants = {
            e.pk: e.user
            for e in Entrant.objects.filter(tournament=d.tournament).select_related("user__profile")
        }
        tables.append((d, entrants, selectors.standings_of(d.tournament)))
    finishes = [[entrants[r.entrant].pk for r in rows] for _d, entrants, rows in tables]
    places = {
        entrants[r.entrant].pk: None
        if d.tournament.status == Tournament.Status.FINISHED
        else r.place
        for d, entrants, rows in tables
        for r in rows
    }
    moves = _moves(s, finishes, league.movers, places)
    out: list[shapes.LeagueDivision] = []
    for d, entrants, rows in tables:
        t = d.tournament
        out.append(
            {
                "number": d.number,
                "tournament": t.pk,
                "status": t.status,  # type: ignore[typeddict-item]
                "current_round": t.current_round,
                "round_count": t.rounds,
                "rows": [
                    {
                        "place": r.place,
                        "username": entrants[r.entrant].get_username(),
                        "name": player_name(entrants[r.entrant]),
                        "points": r.points,
                        "powered": r.powered,
                        "money": r.money,
                        "head_to_head": r.head_to_head,
                        "games": r.games,
                        "byes": r.byes,
                        "dropped": r.dropped,
                        "move": _move(moves.get(entrants[r.entrant].pk)),
                    }
                    for r in rows
                ],
            }
        )
    return out


def _move(value: str | None) -> Literal["up", "down", "stay"]:
    if value == "up":
        return "up"
    if value == "down":
        return "down"
    return "stay"
