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


def test_the_movers_bounds_declared_are_the_ones_enforced(make_user):
    """``movers``' published minimum and maximum, the create form's and the service's are one
    range, ``leagues.MOVERS_LIMITS`` (each once wrote its own: 1 to 60 // 2 twice, and
    1 to max(1, size // 2)); one past either edge is refused (400 ``invalid_field`` naming
    ``movers``, by the API, the form and the service), making nothing; the edges are taken at
    the largest division; and a league's own most is half its division (``movers_most``)."""
    from tests.api_schema import published_schema
    from tournaments import leagues
    from tournaments.errors import InvalidTournament
    from tournaments.models import League

    low, high = leagues.MOVERS_LIMITS
    assert (low, high) == (1, leagues.DIVISION_SIZE_MAX // 2)
    request_shape = published_schema()["components"]["schemas"]["LeagueCreateRequest"]
    declared = request_shape["properties"]["movers"]
    assert (declared["minimum"], declared["maximum"]) == (low, high), declared
    director = make_user()
    d = _client(director)
    page = Client()
    page.force_login(director)
    form = page.get("/leagues/new/").content.decode()
    tag = re.search(r'<input[^>]*name="movers"[^>]*>', form)
    assert tag is not None
    assert f' min="{low}"' in tag.group(), tag.group()
    assert f' max="{high}"' in tag.group(), tag.group()
    largest = {**BODY, "division_size": leagues.DIVISION_SIZE_MAX}
    typed = {
        "name": "Sunday league",
        "maps": ["germany"],
        "table_min": "3",
        "table_max": "3",
        "rounds": "2",
        "turn_hours": "24",
        "division_size": str(leagues.DIVISION_SIZE_MAX),
    }
    for outside in (low - 1, high + 1):
        r = d.post("/api/v1/leagues/", {**largest, "movers": outside}, format="json")
        assert r.status_code == 400, (outside, r.content)
        error = r.json()["error"]
        assert (error["code"], error["details"]["field"]) == ("invalid_field", "movers"), error
        assert error["message"].strip(), error
        assert (error["details"]["min"], error["details"]["max"]) == (low, high), error
        with pytest.raises(InvalidTournament) as exc:
            leagues.league_create(director=director, **largest, movers=outside)
        assert exc.value.details == {"field": "movers", "min": low, "max": high}
        r = page.post("/leagues/new/", {**typed, "movers": str(outside)})
        assert r.status_code == 400
        assert list(r.context["form"].errors) == ["movers"], r.context["form"].errors
    assert not League.objects.exists()
    for edge in (low, high):
        r = d.post("/api/v1/leagues/", {**largest, "movers": edge}, format="json")
        assert (r.status_code, r.json()["movers"]) == (201, edge), r.content
    # a league of smaller divisions: at most half of one (9: 4)
    assert leagues.movers_most(9) == 4
    r = d.post("/api/v1/leagues/", {**BODY, "division_size": 9, "movers": 5}, format="json")
    assert r.status_code == 400, r.content
    assert r.json()["error"]["details"] == {"field": "movers", "min": low, "max": 4}
    assert League.objects.count() == 2


#: A division on the league's page: its number and its standings' rows.
_DIVISION = re.compile(r'<h2 id="d(\d+)-h">.*?<tbody>(.*?)</tbody>', re.S)
_ROW = re.compile(
    r'<tr(?: class="your-turn")?><td>\d+</td><td><bdi translate="no">([^<]*)</bdi>(.*?)</tr>',
    re.S,
)


def _divisions_on(html: str) -> list[tuple[int, list[tuple[str, str]]]]:
    """Each division the page shows: (number, [(name, move)]) as its reader sees the move
    (▲ up, ▼ down, nothing: stays)."""
    return [
        (
            int(number),
            [
                (name, "up" if "▲" in rest else "down" if "▼" in rest else "stay")
                for name, rest in _ROW.findall(rows)
            ],
        )
        for number, rows in _DIVISION.findall(html)
    ]


def _season_ended_in_order(league):
    """Season 1's every division's table ended 1, 2, 3 by seat (everyone set apart: each
    division's first would go up and its last down, but at the top and bottom)."""
    from tournaments.models import Division

    season = league.seasons.get(number=1)
    for d in Division.objects.filter(season=season).select_related("tournament"):
        _table_ended(d.tournament, [1, 2, 3])
    return season


def test_the_league_page_shows_a_page_of_divisions_marked_as_the_whole_season(make_user):
    """A season of 12 divisions is shown ``DIVISIONS_PER_PAGE`` (10) at a time, not all at
    once: read page by page through the pages' links (which keep the season), every division
    is there once, in order, with the moves the whole season gives it; the 10th's "down" and
    the 11th's "up" depend on the division on the other page (the divisions next to a page
    are read to mark it, as the API's pages are: ``league_present.divisions_shown``)."""
    from html import unescape

    from tests.tournaments.test_api_paging import _league_started
    from tournaments import league_present

    league = _league_started(make_user(), 36)  # 12 divisions of 3
    season = _season_ended_in_order(league)
    whole = [
        (x["number"], [(r["name"], r["move"]) for r in x["rows"]])
        for x in league_present.season(league, season)["divisions"]
    ]
    assert len(whole) == 12 > league_present.DIVISIONS_PER_PAGE == 10
    assert (whole[9][1][-1][1], whole[10][1][0][1]) == ("down", "up")  # across the pages
    c = Client()
    c.force_login(make_user())
    base = f"/leagues/{league.pk}/"
    shown, pages, url = [], [], base
    while url:
        html = c.get(url).content.decode()
        on_page = _divisions_on(html)
        assert 0 < len(on_page) <= 10, url
        shown += on_page
        pages.append(url)
        assert html.count('<nav class="pager small"') == 1, url
        after = re.search(r'href="([^"]*)" rel="next"', html)
        url = base + unescape(after.group(1)) if after else None
    assert shown == whole
    assert pages == [base, f"{base}?page=2&season=1"]
    last = c.get(pages[-1]).content.decode()
    assert 'href="?page=1&amp;season=1" rel="prev"' in last
    assert "Page 2 of 2" in last
    # a page number that is not one is the first page; one out of range, the last
    assert _divisions_on(c.get(f"{base}?page=x").content.decode()) == whole[:10]
    assert _divisions_on(c.get(f"{base}?page=99&season=1").content.decode()) == whole[10:]


def test_the_league_pages_pager_in_japanese(make_user):
    """The divisions' pages' links read in Japanese, on both pages."""
    from tests.tournaments.test_api_paging import _league_started

    ensure_compiled()
    league = _league_started(make_user(), 36, name="Sunday")
    viewer = make_user()
    viewer.profile.language = "ja"
    viewer.profile.save()
    c = Client()
    c.force_login(viewer)
    names = {f"sunday{i:03d}" for i in range(36)} | {"Sunday"}
    for url in (f"/leagues/{league.pk}/", f"/leagues/{league.pk}/?page=2&season=1"):
        html = c.get(url).content.decode()
        assert html.count('<nav class="pager small"') == 1, url
        assert english_words(html, names) == [], url
