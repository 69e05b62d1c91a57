"""League services: each public function owns one transaction (the league's row locked first;
a division's tournament is locked after its league, never before).

A season is a set of divisions, each an ordinary tournament of the league's settings
(``Division.tournament``): its entrants are the division's members, its rounds seat each of
them once per round (``tournaments.seating``), its standings rank them
(``tournaments.scoring``). The ladder between seasons (promotion, relegation, newcomers, sizes)
is ``tournaments.ladder``. A season ends when its divisions' tournaments have
(``tournaments.receivers``, and the periodic sweep); the next one starts then, if the league
has at least ``table_min`` members.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.db.models import Count, F
from django.utils import timezone

from games.models import Rating
from games.services import lobby
from tournaments import ladder, services
from tournaments.errors import (
    AlreadyMember,
    LeagueNotFound,
    NotLeagueDirector,
    NotMember,
    SeasonRunning,
    TooFewMembers,
)
from tournaments.models import Division, Entrant, League, LeagueMember, Season, Tournament
from tournaments.selectors import standings_of

DIVISION_SIZE_MAX = 60
#: How many players a league moves up and down at each division's boundary (``movers``): the
#: range its create form, the API's request schema and ``league_create`` all take, as
#: ``services.RATING_LIMITS`` for the rating bounds. A league's own most is half its divisions
#: (``movers_most``), so the widest range is half the largest division.
MOVERS_LIMITS = (1, DIVISION_SIZE_MAX // 2)
#: The largest season number a path may name (the column's range).
SEASON_MAX = 32767


def movers_most(division_size: int) -> int:
    """The most ``movers`` a league of divisions of ``division_size`` may take: half a division
    (more would not fit: ``ladder.boundary`` moves at most half of either division), within
    ``MOVERS_LIMITS``."""
    low, high = MOVERS_LIMITS
    return max(low, min(high, division_size // 2))


def _lock(league_id: int) -> League:
    try:
        return League.objects.select_for_update().get(pk=league_id)
    except League.DoesNotExist:
        raise LeagueNotFound() from None


def running_season(league: League) -> Season | None:
    return Season.objects.filter(league=league, finished_at__isnull=True).first()


def league_create(
    *,
    director: Any,
    name: object,
    maps: object,
    table_min: object = 3,
    table_max: object = 5,
    rounds: object = 3,
    turn_hours: object = 24,
    division_size: object = 9,
    movers: object = 2,
    join: bool = False,
) -> League:
    """A league open to members; its first season starts when its director starts it. Every
    field is checked here (400 ``invalid_field`` naming it). ``join``: the director becomes
    its first member too (the create page's "I play in it too"), in the same transaction."""
    clean = services.clean_name(name)
    map_list = services.clean_maps(maps)
    low = services.whole_number(table_min, "table_min", 3, 6)
    high = services.whole_number(table_max, "table_max", low, 6)
    n_rounds = services.whole_number(rounds, "rounds", 1, services.ROUNDS_MAX)
    hours = services.whole_number(
        turn_hours, "turn_hours", lobby.TURN_HOURS_MIN, lobby.TURN_HOURS_MAX
    )
    size = services.whole_number(division_size, "division_size", high, DIVISION_SIZE_MAX)
    n_movers = services.whole_number(movers, "movers", MOVERS_LIMITS[0], movers_most(size))
    with transaction.atomic():
        league = League.objects.create(
            name=clean,
            director=director,
            maps=map_list,
            table_min=low,
            table_max=high,
            rounds=n_rounds,
            turn_hours=hours,
            division_size=size,
            movers=n_movers,
        )
        if join:
            LeagueMember.objects.create(league=league, user=director)
        return league


def league_join(*, league_id: int, user: Any) -> LeagueMember:
    """Become a member. During a season the new member waits for the next one (a division's
    tables are seated from its members when the season starts)."""
    with transaction.atomic():
        league = _lock(league_id)
        if LeagueMember.objects.filter(league=league, user=user).exists():
            raise AlreadyMember()
        return LeagueMember.objects.create(league=league, user=user)


def league_leave(*, league_id: int, user: Any) -> League:
    """Leave the league. A member playing in the running season drops out of their division
    (keeps the points so far, not seated again; a running game's seat goes to the bot through
    its timeouts, as in any tournament) and is in no later season."""
    with transaction.atomic():
        league = _lock(league_id)
        member = LeagueMember.objects.filter(league=league, user=user).first()
        if member is None:
            raise NotMember()
        member.delete()
        season = running_season(league)
        if season is not None:
            playing = Division.objects.filter(
                season=season,
                tournament__status=Tournament.Status.RUNNING,
                tournament__entrants__user=user,
                tournament__entrants__dropped_at__isnull=True,
            ).first()
            if playing is not None:
                services.tournament_leave(tournament_id=playing.tournament_id, user=user)
        return league


def league_start(*, league_id: int, user: Any | None) -> Season:
    """Start the next season (the first one: the director's; later ones start by themselves
    when the last ends, ``user`` None). 409 ``season_running`` while one runs, 409
    ``too_few_entrants`` with fewer members than ``table_min``."""
    with transaction.atomic():
        league = _lock(league_id)
        if user is not None and league.director_id != user.pk:
            raise NotLeagueDirector()
        if running_season(league) is not None:
            raise SeasonRunning()
        last = Season.objects.filter(league=league).order_by("-number").first()
        return _season_start(league, last)


def _finishes(season: Season, staying: set[int]) -> tuple[list[list[int]], set[int]]:
    """Each division's members (user ids) in final standings order, without those who left
    the league; and everyone who played the season."""
    out: list[list[int]] = []
    played: set[int] = set()
    for division in Division.objects.filter(season=season).select_related("tournament"):
        users = dict(
            Entrant.objects.filter(tournament=division.tournament).values_list("pk", "user_id")
        )
        order = [users[row.entrant] for row in standings_of(division.tournament)]
        played.update(order)
        out.append([u for u in order if u in staying])
    return out, played


def _ratings(user_ids: list[int]) -> dict[int, int]:
    return {r.user_id: r.display for r in Rating.objects.filter(user_id__in=user_ids)}


def _season_start(league: League, last: Season | None) -> Season:
    """Seat the divisions of the season after ``last`` and start their tournaments (the
    league's row locked by the caller)."""
    members = list(LeagueMember.objects.filter(league=league).values_list("user_id", flat=True))
    if len(members) < league.table_min:
        raise TooFewMembers(details={"entrants": len(members), "table_min": league.table_min})
    finishes, played = _finishes(last, set(members)) if last is not None else ([], set())
    ratings = _ratings(members)
    newcomers = sorted(
        (u for u in members if u not in played), key=lambda u: -ratings.get(u, 0)
    )  # stable: equal ratings keep the join order
    if last is not None:
        mv = ladder.moves(finishes, league.movers)
        last.moves = {
            "up": [u for m in mv for u in m.up],
            "down": [u for m in mv for u in m.down],
        }
        last.save(update_fields=["moves"])
    plan = ladder.next_divisions(
        finishes,
        newcomers,
        movers=league.movers,
        division_size=league.division_size,
        table_min=league.table_min,
    )
    season = Season.objects.create(league=league, number=(last.number if last else 0) + 1)
    for number, users in enumerate(plan, start=1):
        t = Tournament.objects.create(
            name=league.name,
            director=league.director,
            maps=list(league.maps),
            table_min=league.table_min,
            table_max=league.table_max,
            rounds=league.rounds,
            turn_hours=league.turn_hours,
            invite_code=secrets.token_urlsafe(12),
            bot_level=league.bot_level,
            seed=secrets.randbits(62),
        )
        Division.objects.create(season=season, number=number, tournament=t)
        Entrant.objects.bulk_create(Entrant(tournament=t, user_id=u) for u in users)
        services.tournament_start(tournament_id=t.pk, user=None)
    return season


def season_check(*, league_id: int) -> Season | None:
    """A division's tournament ended (``tournaments.receivers``, after its commit, and the
    sweep): once every division of the running season has, the season ends and the next one
    starts (a league with too few members then waits: the sweep starts it once enough have
    joined). Idempotent; the season checked, or None when none was running."""
    with transaction.atomic():
        league = _lock(league_id)
        season = running_season(league)
        if season is None:
            return None
        if (
            Division.objects.filter(season=season)
            .exclude(tournament__status=Tournament.Status.FINISHED)
            .exists()
        ):
            return season
        season.finished_at = timezone.now()
        season.save(update_fields=["finished_at"])
        try:
            with transaction.atomic():
                _season_start(league, season)
        except TooFewMembers:
            pass
        return season


def leagues_sweep() -> dict[str, int]:
    """The periodic sweep: end the seasons whose divisions have all ended (the hook missed
    them), and start the next season of a league that waited for members and has enough."""
    ended = started = 0
    running = Season.objects.filter(finished_at__isnull=True).values_list("league_id", flat=True)
    for league_id in list(running):
        season = season_check(league_id=league_id)
        if season is not None and season.finished_at is not None:
            ended += 1
    idle = (
        League.objects.filter(seasons__isnull=False)
        .exclude(seasons__finished_at__isnull=True)
        .annotate(n=Count("members", distinct=True))
        .filter(n__gte=F("table_min"))
    )
    for league_id in idle.distinct().values_list("pk", flat=True):
        try:
            league_start(league_id=league_id, user=None)
            started += 1
        except (TooFewMembers, SeasonRunning):
            continue
    return {"seasons_ended": ended, "seasons_started": started}
