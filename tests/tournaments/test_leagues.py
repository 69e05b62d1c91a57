"""Leagues: services (create with every field checked, join / leave / start with their codes,
leaving during a season drops out of the division), the API validated against the published
schema, and the pages (list from the lobby, a league's divisions and standings, no JavaScript,
English and Japanese)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.api_schema import ValidatingAPIClient as APIClient
from tests.i18n_helpers import english_words, ensure_compiled

pytestmark = pytest.mark.django_db

BODY = {"name": "Sunday league", "maps": ["germany"], "table_min": 3, "table_max": 3, "rounds": 2}


def _client(user):
    c = APIClient()
    c.force_authenticate(user)
    return c


def _league(make_user, members=6, **kw):
    from tournaments import leagues

    director = make_user()
    fields = {**BODY, "division_size": 3, "movers": 1, **kw}
    league = leagues.league_create(director=director, **fields)
    users = [make_user() for _ in range(members)]
    for u in users:
        leagues.league_join(league_id=league.pk, user=u)
    return league, director, users


def test_create_refuses_bad_fields_naming_them(make_user):
    from tournaments import leagues
    from tournaments.errors import InvalidTournament
    from tournaments.models import League

    d = make_user()
    for bad in (
        {"name": " "},
        {"maps": ["atlantis"]},
        {"table_min": 2},
        {"table_max": 7},
        {"rounds": 0},
        {"division_size": 2},
        {"table_max": 5, "division_size": 4},
        {"division_size": 6, "movers": 4},
        {"movers": 0},
    ):
        with pytest.raises(InvalidTournament) as exc:
            leagues.league_create(director=d, **{**BODY, **bad})
        assert exc.value.status == 400
        assert exc.value.details["field"] in bad, bad
    assert not League.objects.exists()


def test_create_can_make_its_director_the_first_member(make_user):
    from tournaments import leagues
    from tournaments.errors import InvalidTournament
    from tournaments.models import League, LeagueMember

    d = make_user()
    league = leagues.league_create(director=d, join=True, **BODY)
    assert list(LeagueMember.objects.filter(league=league).values_list("user", flat=True)) == [d.pk]
    other = leagues.league_create(director=d, **BODY)
    assert not LeagueMember.objects.filter(league=other).exists()
    with pytest.raises(InvalidTournament):
        leagues.league_create(director=d, join=True, **{**BODY, "rounds": 0})
    assert League.objects.count() == 2
    assert LeagueMember.objects.count() == 1


def test_join_leave_start_refusals(make_user):
    from tournaments import leagues
    from tournaments.errors import (
        AlreadyMember,
        NotLeagueDirector,
        NotMember,
        SeasonRunning,
        TooFewMembers,
    )
    from tournaments.models import Season

    league, director, users = _league(make_user, members=2)
    with pytest.raises(AlreadyMember):
        leagues.league_join(league_id=league.pk, user=users[0])
    with pytest.raises(NotMember):
        leagues.league_leave(league_id=league.pk, user=make_user())
    with pytest.raises(NotLeagueDirector):
        leagues.league_start(league_id=league.pk, user=users[0])
    with pytest.raises(TooFewMembers) as exc:
        leagues.league_start(league_id=league.pk, user=director)
    assert exc.value.code == "too_few_entrants"
    assert exc.value.details == {"entrants": 2, "table_min": 3}
    assert not Season.objects.exists()
    leagues.league_join(league_id=league.pk, user=make_user())
    leagues.league_start(league_id=league.pk, user=director)
    with pytest.raises(SeasonRunning):
        leagues.league_start(league_id=league.pk, user=director)


def test_leaving_during_a_season_drops_out_of_the_division(make_user):
    from tournaments import leagues
    from tournaments.models import Entrant, LeagueMember

    league, director, users = _league(make_user)
    leagues.league_start(league_id=league.pk, user=director)
    leagues.league_leave(league_id=league.pk, user=users[0])
    assert not LeagueMember.objects.filter(league=league, user=users[0]).exists()
    entry = Entrant.objects.get(tournament__division__season__league=league, user=users[0])
    assert entry.dropped_at is not None
    # the sweep with nothing ended changes nothing
    assert leagues.leagues_sweep() == {"seasons_ended": 0, "seasons_started": 0}


def test_api_create_join_start_read_season(make_user):
    d = _client(make_user())
    r = d.post("/api/v1/leagues/", {**BODY, "division_size": 3, "movers": 1}, format="json")
    assert r.status_code == 201, r.content
    lid = r.json()["id"]
    assert r.json()["season"] == 0
    assert r.json()["season_running"] is False
    users = [make_user() for _ in range(6)]
    for u in users:
        r = _client(u).post(f"/api/v1/leagues/{lid}/join/")
        assert r.status_code == 200, r.content
    r = _client(users[0]).post(f"/api/v1/leagues/{lid}/join/")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "already_member")
    r = _client(users[0]).post(f"/api/v1/leagues/{lid}/start/")
    assert (r.status_code, r.json()["error"]["code"]) == (403, "not_director")
    r = d.post(f"/api/v1/leagues/{lid}/start/")
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["season_running"] is True
    assert body["season"] == 1
    assert [s["divisions_count"] for s in body["seasons"]] == [2]
    assert "players" not in body
    assert (body["members"], body["member"]) == (6, False)  # the director did not join
    players = d.get(f"/api/v1/leagues/{lid}/players/").json()
    assert sorted(p["division"] for p in players["results"]) == [1, 1, 1, 2, 2, 2]
    late_user = make_user()
    late = _client(late_user).post(f"/api/v1/leagues/{lid}/join/").json()
    assert (late["members"], late["member"]) == (7, True)
    players = d.get(f"/api/v1/leagues/{lid}/players/").json()["results"]
    assert [(p["username"], p["division"]) for p in players if p["waiting"]] == [
        (late_user.username, None)
    ]
    r = d.get(f"/api/v1/leagues/{lid}/seasons/1/")
    assert r.status_code == 200, r.content
    season = r.json()
    assert season["final"] is False
    assert (season["count"], season["next"]) == (2, None)
    assert [len(x["rows"]) for x in season["results"]] == [3, 3]
    # while the season runs: who would move if it ended now; nobody yet, for everyone shares
    # place 1 with 0 points (test_would_move_marks_only_players_the_standings_set_apart)
    moves = [row["move"] for x in season["results"] for row in x["rows"]]
    assert moves == ["stay"] * 6
    tid = season["results"][0]["tournament"]
    t = d.get(f"/api/v1/tournaments/{tid}/").json()
    assert t["league"] == {"id": lid, "name": "Sunday league", "season": 1, "division": 1}
    assert tid not in [x["id"] for x in d.get("/api/v1/tournaments/").json()["results"]]
    assert [x["id"] for x in d.get("/api/v1/leagues/").json()["results"]] == [lid]
    for url in (f"/api/v1/leagues/{lid}/seasons/2/", "/api/v1/leagues/999999/"):
        assert d.get(url).status_code == 404
    assert d.get(f"/api/v1/leagues/{lid}/seasons/99999999/").status_code == 404


def test_api_bad_bodies_change_nothing(make_user):
    from tournaments.models import League

    d = _client(make_user())
    for bad in (
        {**BODY, "table_min": 2},
        {**BODY, "colour": "red"},
        {**BODY, "movers": "two"},
        {**BODY, "division_size": 61},
        {"maps": ["germany"]},
    ):
        r = d.post("/api/v1/leagues/", bad, format="json")
        assert r.status_code == 400, (bad, r.content)
    assert not League.objects.exists()
    assert APIClient().get("/api/v1/leagues/").status_code == 401


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "x" * 81}, "name"),
        ({"maps": []}, "maps"),
        ({"maps": ["atlantis"]}, "maps"),
        ({"maps": ["germany", "germany"]}, "maps"),
        ({"maps": "germany"}, "maps"),
        ({"table_min": 2}, "table_min"),
        ({"table_min": "3"}, "table_min"),
        ({"table_max": 7}, "table_max"),
        ({"table_min": 5, "table_max": 4}, "table_max"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": 13}, "rounds"),
        ({"rounds": 2.5}, "rounds"),
        ({"turn_hours": 5}, "turn_hours"),
        ({"turn_hours": True}, "turn_hours"),
        ({"division_size": 2}, "division_size"),
        ({"division_size": 61}, "division_size"),
        ({"table_max": 5, "division_size": 4}, "division_size"),
        ({"movers": 0}, "movers"),
        ({"movers": "two"}, "movers"),
        ({"division_size": 6, "movers": 4}, "movers"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_api_create_refuses_each_bad_field_by_name(make_user, change, field):
    """Every field of the create body, refused with 400 ``invalid_field`` naming it and a
    sentence, and nothing made."""
    from tournaments.models import League

    r = _client(make_user()).post("/api/v1/leagues/", {**BODY, **change}, format="json")
    assert r.status_code == 400, r.content
    error = r.json()["error"]
    assert error["code"] == "invalid_field", error
    assert error["details"]["field"] == field, error
    assert error["message"].strip(), error
    assert not League.objects.exists()


def test_pages_from_the_lobby_with_forms_without_javascript(make_user):
    league, director, _users = _league(make_user)
    c = Client()
    c.force_login(director)
    assert 'href="/leagues/"' in c.get("/").content.decode()
    assert f'href="/leagues/{league.pk}/"' in c.get("/leagues/").content.decode()
    page = c.get(f"/leagues/{league.pk}/").content.decode()
    assert f'action="/leagues/{league.pk}/start/"' in page
    assert c.post(f"/leagues/{league.pk}/start/").status_code == 302
    page = c.get(f"/leagues/{league.pk}/").content.decode()
    assert "Season 1, division 1" in page
    assert "Season 1, division 2" in page
    assert page.count('href="/tournaments/') == 2
    late = make_user()
    c.force_login(late)
    c.post(f"/leagues/{league.pk}/join/")
    page = c.get(f"/leagues/{league.pk}/").content.decode()
    assert "Waiting for the next season" in page
    r = c.post(f"/leagues/{league.pk}/join/", follow=True)
    assert "member of this league already" in r.content.decode()
    assert c.get(f"/leagues/{league.pk}/?season=7").status_code == 404
    assert c.get(f"/leagues/{league.pk}/?season=x").status_code == 404


def test_pages_in_japanese(make_user):
    from tournaments import leagues

    ensure_compiled()
    league, director, users = _league(make_user)
    leagues.league_start(league_id=league.pk, user=director)
    director.profile.language = "ja"
    director.profile.save()
    c = Client()
    c.force_login(director)
    names = {u.username for u in users} | {"Sunday", "league"}
    for url in ("/leagues/", f"/leagues/{league.pk}/"):
        html = c.get(url).content.decode()
        assert 'lang="ja"' in html
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", html)
        assert english_words(html, names) == [], url


def test_the_sweep_ends_a_season_the_hook_missed_and_starts_one_that_waited(make_user):
    from tournaments import leagues
    from tournaments.models import Season, Tournament

    league, director, users = _league(make_user, members=4)
    leagues.league_start(league_id=league.pk, user=director)
    leagues.league_leave(league_id=league.pk, user=users[0])
    leagues.league_leave(league_id=league.pk, user=users[1])  # two left: too few for a table
    # the division's tournament ended without its hook (a crash after its commit)
    Tournament.objects.filter(division__season__league=league).update(status="finished")
    assert leagues.leagues_sweep() == {"seasons_ended": 1, "seasons_started": 0}
    assert Season.objects.get(league=league, number=1).finished_at is not None
    assert not Season.objects.filter(league=league, number=2).exists()  # waits for members
    assert leagues.leagues_sweep() == {"seasons_ended": 0, "seasons_started": 0}
    leagues.league_join(league_id=league.pk, user=make_user())
    assert leagues.leagues_sweep() == {"seasons_ended": 0, "seasons_started": 1}
    season2 = Season.objects.get(league=league, number=2)
    assert season2.divisions.count() == 1
    # written when season 2 was seated from it: one division, nobody moved
    assert Season.objects.get(league=league, number=1).moves == {"up": [], "down": []}


def _table_ended(t, ranks: list[int]) -> None:
    """The tournament's round-1 table ended with these ranks by seat (points by the rules;
    cities and money alike, so equal ranks share a place)."""
    from tournaments import scoring
    from tournaments.models import Table, TablePlayer

    table = Table.objects.get(round__tournament=t, round__number=1)
    players = list(table.players.order_by("seat"))
    for p, rank, points in zip(players, ranks, scoring.table_points(ranks), strict=True):
        p.rank, p.points, p.powered, p.money = rank, points, 10, 5
    TablePlayer.objects.bulk_update(players, ["rank", "points", "powered", "money"])
    Table.objects.filter(pk=table.pk).update(finished=True)


def test_would_move_marks_only_players_the_standings_set_apart(make_user):
    """While a season runs, a player is marked as one who would move only when the standings
    put them beyond the line: at the start (all tied at place 1) nobody; a tie across the line
    marks nobody of it; a division that has finished is marked by its final order."""
    from tournaments import league_present, leagues
    from tournaments.models import Division, Season, Tournament

    league, director, _users = _league(make_user)
    leagues.league_start(league_id=league.pk, user=director)
    season = Season.objects.get(league=league, number=1)
    top, bottom = (d.tournament for d in Division.objects.filter(season=season).order_by("number"))

    def marks() -> list[list[str]]:
        report = league_present.season(league, season)
        return [[row["move"] for row in d["rows"]] for d in report["divisions"]]

    assert marks() == [["stay"] * 3, ["stay"] * 3]
    _table_ended(top, [1, 2, 2])  # the last two share place 2: the line runs through them
    assert marks() == [["stay"] * 3, ["stay"] * 3]
    _table_ended(bottom, [2, 1, 3])  # one set apart at the top of the lower division
    assert marks() == [["stay"] * 3, ["up", "stay", "stay"]]
    _table_ended(top, [1, 2, 3])
    assert marks() == [["stay", "stay", "down"], ["up", "stay", "stay"]]
    # a finished division's order is final (its ties in the standings' order): marked as is
    _table_ended(top, [1, 2, 2])
    Tournament.objects.filter(pk=top.pk).update(status=Tournament.Status.FINISHED)
    assert marks() == [["stay", "stay", "down"], ["up", "stay", "stay"]]
