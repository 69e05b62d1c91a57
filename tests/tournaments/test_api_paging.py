"""The tournaments' and leagues' API pages what grows with the entrants and members: the lists,
a tournament's entrants (``/players/``), a round's tables (``/rounds/{number}/``) and the
standings, a league's members (``/players/``) and a season's divisions, with the games' list's
reader (``games.api.base.Paging``); a tournament counts its rounds' tables and a league its
seasons' divisions instead of listing them, so their answers are as big at 120 as at 7. Every
answer is validated against the published schema (the ValidatingAPIClient)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.api_schema import ValidatingAPIClient as APIClient

pytestmark = pytest.mark.django_db


def _client(user: Any) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def _started(
    director: Any, entrants: int, *, private: bool = False, name: str = "Cup", table_max: int = 5
) -> Any:
    """A tournament of ``entrants`` players (made in bulk, not one request each), started:
    round 1 seated at tables of 3 to ``table_max`` (their games are made later, by a task)."""
    from django.contrib.auth import get_user_model

    from tournaments import services
    from tournaments.models import Entrant

    User = get_user_model()
    users = User.objects.bulk_create(
        User(username=f"{name.lower()}{i:03d}", email=f"{name.lower()}{i:03d}@example.com")
        for i in range(entrants)
    )
    t = services.tournament_create(
        director=director,
        name=name,
        maps=["germany"],
        table_min=3,
        table_max=table_max,
        private=private,
    )
    Entrant.objects.bulk_create(Entrant(tournament=t, user=u) for u in users)
    return services.tournament_start(tournament_id=t.pk, user=director)


def _league_started(director: Any, members: int, *, name: str = "Sunday", size: int = 3) -> Any:
    """A league of ``members`` (made in bulk), its first season started: divisions of at most
    ``size`` members, tables of 3."""
    from django.contrib.auth import get_user_model

    from tournaments import leagues
    from tournaments.models import LeagueMember

    User = get_user_model()
    users = User.objects.bulk_create(
        User(username=f"{name.lower()}{i:03d}", email=f"{name.lower()}{i:03d}@example.com")
        for i in range(members)
    )
    league = leagues.league_create(
        director=director,
        name=name,
        maps=["germany"],
        table_min=3,
        table_max=3,
        division_size=size,
        movers=1,
    )
    LeagueMember.objects.bulk_create(LeagueMember(league=league, user=u) for u in users)
    leagues.league_start(league_id=league.pk, user=director)
    return league


def _longest_list(body: Any) -> int:
    """The most items any list of the answer holds, however deep."""
    if isinstance(body, list):
        return max([len(body), *(_longest_list(x) for x in body)])
    if isinstance(body, dict):
        return max([0, *(_longest_list(x) for x in body.values())])
    return 0


def test_the_detail_does_not_grow_with_the_entrants(make_user):
    """At 120 entrants (24 tables) the detail lists no entrant and no table: its longest list
    is its maps or rounds, and it is as long as at 7 entrants (only numbers differ)."""
    director = make_user()
    d = _client(director)
    small, big = _started(director, 7, name="Small"), _started(director, 120, name="Large")
    bodies = {}
    for t in (small, big):
        r = d.get(f"/api/v1/tournaments/{t.pk}/")
        assert r.status_code == 200, r.content
        bodies[t.pk] = r.json()
    body = bodies[big.pk]
    assert body["entrants"] == 120
    assert "players" not in body
    assert body["rounds"] == [
        {
            "number": 1,
            "started_at": body["rounds"][0]["started_at"],
            "finished_at": None,
            "tables_count": 24,
        }
    ]
    assert _longest_list(body) <= 1
    sizes = {pk: len(json.dumps(b)) for pk, b in bodies.items()}
    assert sizes[big.pk] - sizes[small.pk] <= 8, sizes  # "entrants": 120, "tables_count": 24
    players = d.get(f"/api/v1/tournaments/{big.pk}/players/").json()
    assert (players["count"], len(players["results"]), players["previous"]) == (120, 50, None)
    assert _longest_list(players) == 50
    tables = d.get(f"/api/v1/tournaments/{big.pk}/rounds/1/?limit=10").json()
    assert (tables["count"], len(tables["results"])) == (24, 10)
    assert _longest_list(tables) == 10


def test_the_players_and_a_rounds_tables_page_through_everything(make_user):
    """Walking ``next`` from the first page reads every entrant once, in the order they entered,
    and every table of the round once, by number, each seat of the round once."""
    from tournaments.models import Entrant, TablePlayer

    director = make_user()
    t = _started(director, 23)
    d = _client(director)
    seen, url = [], f"/api/v1/tournaments/{t.pk}/players/?limit=5"
    while url:
        page = d.get(url).json()
        assert page["count"] == 23
        assert len(page["results"]) <= 5
        seen += page["results"]
        url = page["next"]
    order = Entrant.objects.filter(tournament=t).values_list("user__username", flat=True)
    assert [p["username"] for p in seen] == list(order)
    assert {p["dropped"] for p in seen} == {False}
    tables, url = [], f"/api/v1/tournaments/{t.pk}/rounds/1/?limit=2"
    while url:
        page = d.get(url).json()
        assert (page["number"], page["finished_at"], page["count"]) == (1, None, 5)
        tables += page["results"]
        url = page["next"]
    assert [x["number"] for x in tables] == [1, 2, 3, 4, 5]
    seated = sorted(p["username"] for x in tables for p in x["players"])
    assert seated == sorted(
        TablePlayer.objects.filter(table__round__tournament=t).values_list(
            "entrant__user__username", flat=True
        )
    )
    assert len(seated) == 23


def test_a_rounds_byes_are_on_its_page(make_user):
    """7 entrants at tables of exactly 5: one table, two byes, named with the round's tables."""
    from tournaments import services
    from tournaments.models import Entrant

    director = make_user()
    t = services.tournament_create(
        director=director, name="Byes", maps=["germany"], table_min=5, table_max=5
    )
    users = [make_user() for _ in range(7)]
    Entrant.objects.bulk_create(Entrant(tournament=t, user=u) for u in users)
    services.tournament_start(tournament_id=t.pk, user=director)
    page = _client(users[0]).get(f"/api/v1/tournaments/{t.pk}/rounds/1/").json()
    assert (page["count"], len(page["results"])) == (1, 1)
    assert sorted(page["byes"]) == sorted(u.username for u in users[5:])  # the last to enter


@pytest.mark.parametrize(
    "path",
    [
        "tournaments/",
        "tournaments/{t}/players/",
        "tournaments/{t}/rounds/1/",
        "tournaments/{t}/standings/",
        "leagues/",
        "leagues/{league}/players/",
        "leagues/{league}/seasons/1/",
    ],
)
def test_paging_edges(make_user, path):
    """``limit`` 1 to 200 (more counts as 200; a season's divisions: 1 to 20), ``offset`` from
    0 (past the end: no results), ASCII digits only; anything else is 400 ``invalid_field``
    naming the parameter, as the games' list answers it."""
    director = make_user()
    t = _started(director, 7)
    league = _league_started(director, 9) if "league" in path else None
    d = _client(director)
    url = f"/api/v1/{path.format(t=t.pk, league=getattr(league, 'pk', 0))}"
    count = d.get(url).json()["count"]
    assert count >= 1
    for query, field in (
        ("limit=0", "limit"),
        ("limit=abc", "limit"),
        ("limit=-1", "limit"),
        ("limit=", "limit"),
        ("limit=%EF%BC%92", "limit"),  # a full-width 2
        ("offset=-1", "offset"),
        ("offset=null", "offset"),
        ("offset=1.5", "offset"),
    ):
        r = d.get(f"{url}?{query}")
        assert r.status_code == 400, (query, r.content)
        assert r.json()["error"]["code"] == "invalid_field", query
        assert r.json()["error"]["details"]["field"] == field, query
    for query, shown in (("limit=1", 1), ("limit=200", count), ("limit=201", count)):
        page = d.get(f"{url}?{query}").json()
        assert (page["count"], len(page["results"])) == (count, shown), query
    past = d.get(f"{url}?offset={count}").json()
    assert (past["count"], past["results"], past["next"]) == (count, [], None)
    assert d.get(f"{url}?offset=99999").json()["results"] == []


def test_a_round_that_does_not_exist_is_404(make_user):
    director = make_user()
    t = _started(director, 7)
    d = _client(director)
    for number in (0, 2, 12, 13, 999999999999999999):
        r = d.get(f"/api/v1/tournaments/{t.pk}/rounds/{number}/")
        assert r.status_code == 404, (number, r.content)
        assert r.json()["error"]["code"] == "not_found", number
    assert d.get(f"/api/v1/tournaments/{t.pk}/rounds/1/").status_code == 200


def test_a_private_tournament_is_hidden_on_every_endpoint_like_its_detail(make_user):
    """A stranger without the code gets the same 404 from the detail, the entrants, a round and
    the standings (a bad page asked of them too: it is not read); with the code, or as an
    entrant, all four answer. The rule is one (``selectors.may_see``), asked by each."""
    director = make_user()
    t = _started(director, 7, private=True)
    base = f"/api/v1/tournaments/{t.pk}/"
    paths = [
        "",
        "players/",
        "rounds/1/",
        "standings/",
        "players/?limit=abc",
        "rounds/1/?offset=x",
        "standings/?limit=0",
    ]
    stranger = _client(make_user())
    missing = stranger.get("/api/v1/tournaments/999999/")
    assert missing.status_code == 404
    for path in paths:
        r = stranger.get(base + path)
        assert (r.status_code, r.json()) == (404, missing.json()), path
    entrant = _client(t.entrants.first().user)
    allowed = ((stranger, f"?code={t.invite_code}"), (entrant, ""), (_client(director), ""))
    for who, query in allowed:
        for path in ("", "players/", "rounds/1/", "standings/"):
            r = who.get(base + path + query)
            assert r.status_code == 200, (path, query, r.content)
    page = stranger.get(f"{base}players/?limit=3&code={t.invite_code}").json()
    assert f"code={t.invite_code}" in page["next"]  # the next page stays visible
    assert t.pk not in [x["id"] for x in stranger.get("/api/v1/tournaments/").json()["results"]]
    assert stranger.get(f"{base}?code=wrong").status_code == 404
    # The code given twice is refused in either order, on a hidden id as on a missing one (the
    # last one used to win: ?code=wrong&code=<right> read the tournament).
    for tid in (t.pk, 999999):
        for query in (f"code=wrong&code={t.invite_code}", f"code={t.invite_code}&code=wrong"):
            for path in ("", "players/", "rounds/1/", "standings/"):
                r = stranger.get(f"/api/v1/tournaments/{tid}/{path}?{query}")
                assert r.status_code == 400, (tid, path, query, r.content)
                assert r.json()["error"]["details"] == {"field": "code"}


def test_the_list_pages_newest_first(make_user):
    from tournaments import services

    director = make_user()
    ids = [
        services.tournament_create(director=director, name=f"Cup {i}", maps=["germany"]).pk
        for i in range(5)
    ]
    newest = ids[::-1]
    d = _client(director)
    first = d.get("/api/v1/tournaments/?limit=2").json()
    assert (first["count"], [x["id"] for x in first["results"]]) == (5, newest[:2])
    rest = d.get(first["next"]).json()
    assert [x["id"] for x in rest["results"]] == newest[2:4]
    last = d.get("/api/v1/tournaments/?limit=2&offset=4").json()
    assert ([x["id"] for x in last["results"]], last["next"]) == (newest[4:], None)
    assert d.get("/api/v1/tournaments/?status=running").json()["count"] == 0


def test_the_standings_page_in_place_order(make_user):
    """Walking ``next`` reads every entrant's row once, in the standings' order with their
    places; ``tournament`` and ``final`` are said on every page."""
    from tournaments import scoring, selectors
    from tournaments.models import Entrant, Table, TablePlayer

    director = make_user()
    t = _started(director, 23)
    tables = Table.objects.filter(round__tournament=t, round__number=1)
    for table in tables:  # each table ended, seat 0 first
        players = list(table.players.order_by("seat"))
        ranks = list(range(1, len(players) + 1))
        for p, rank, points in zip(players, ranks, scoring.table_points(ranks), strict=True):
            p.rank, p.points, p.powered, p.money = rank, points, 10 - rank, 5
        TablePlayer.objects.bulk_update(players, ["rank", "points", "powered", "money"])
    tables.update(finished=True)
    d = _client(director)
    rows, url = [], f"/api/v1/tournaments/{t.pk}/standings/?limit=5"
    while url:
        page = d.get(url).json()
        assert (page["tournament"], page["final"], page["count"]) == (t.pk, False, 23)
        assert len(page["results"]) <= 5
        rows += page["results"]
        url = page["next"]
    names = dict(Entrant.objects.filter(tournament=t).values_list("pk", "user__username"))
    expected = [(r.place, names[r.entrant], r.points) for r in selectors.standings_of(t)]
    assert [(r["place"], r["username"], r["points"]) for r in rows] == expected
    assert [r["place"] for r in rows] == sorted(r["place"] for r in rows)
    assert len({r["points"] for r in rows}) > 1  # the order is the points', not the entry's


def test_the_league_detail_does_not_grow_with_the_members(make_user):
    """At 120 members (20 divisions) the league lists no member and no division: its longest
    list is its maps or seasons, and it is as long as at 6 members (only numbers differ); the
    members and the divisions are read from their pages."""
    director = make_user()
    d = _client(director)
    small = _league_started(director, 6, name="Small", size=6)
    big = _league_started(director, 120, name="Large", size=6)
    bodies = {}
    for league in (small, big):
        r = d.get(f"/api/v1/leagues/{league.pk}/")
        assert r.status_code == 200, r.content
        bodies[league.pk] = r.json()
    body = bodies[big.pk]
    assert (body["members"], body["member"]) == (120, False)
    assert "players" not in body
    assert [(s["number"], s["divisions_count"]) for s in body["seasons"]] == [(1, 20)]
    assert _longest_list(body) <= 1
    sizes = {pk: len(json.dumps(b)) for pk, b in bodies.items()}
    assert sizes[big.pk] - sizes[small.pk] <= 8, sizes  # "members": 120, "divisions_count": 20
    players = d.get(f"/api/v1/leagues/{big.pk}/players/").json()
    assert (players["count"], len(players["results"]), players["previous"]) == (120, 50, None)
    assert {p["division"] for p in players["results"]} <= set(range(1, 21))
    season = d.get(f"/api/v1/leagues/{big.pk}/seasons/1/").json()
    assert (season["count"], len(season["results"])) == (20, 5)  # 5 divisions a page at most
    assert [x["number"] for x in season["results"]] == [1, 2, 3, 4, 5]
    assert (
        d.get(f"/api/v1/leagues/{big.pk}/seasons/1/?limit=21").json()["results"][-1]["number"] == 20
    )
    assert len(d.get(f"/api/v1/leagues/{big.pk}/seasons/1/?limit=999").json()["results"]) == 20
    listed = d.get("/api/v1/leagues/?limit=1").json()
    assert (listed["count"], [x["id"] for x in listed["results"]]) == (2, [big.pk])


def test_a_seasons_divisions_page_through_with_the_whole_seasons_moves(make_user):
    """A division's ``move`` depends on the divisions next to it: read one division a page,
    every division is marked as the whole season marks it, and the members' pages name each
    member once, in the order they joined, with their division."""
    from tests.tournaments.test_leagues import _table_ended
    from tournaments import league_present
    from tournaments.models import Division, LeagueMember

    director = make_user()
    league = _league_started(director, 9)
    season = league.seasons.get(number=1)
    for d in Division.objects.filter(season=season).select_related("tournament"):
        _table_ended(d.tournament, [1, 2, 3])
    whole = league_present.season(league, season)["divisions"]
    assert [[r["move"] for r in x["rows"]] for x in whole] == [
        ["stay", "stay", "down"],
        ["up", "stay", "down"],
        ["up", "stay", "stay"],
    ]
    c = _client(make_user())
    paged, url = [], f"/api/v1/leagues/{league.pk}/seasons/1/?limit=1"
    while url:
        page = c.get(url).json()
        assert (page["league"], page["number"], page["count"]) == (league.pk, 1, 3)
        paged += page["results"]
        url = page["next"]
    assert paged == whole
    members, url = [], f"/api/v1/leagues/{league.pk}/players/?limit=4"
    while url:
        page = c.get(url).json()
        members += page["results"]
        url = page["next"]
    joined = LeagueMember.objects.filter(league=league).values_list("user__username", flat=True)
    assert [m["username"] for m in members] == list(joined)
    by_division = {r["username"]: x["number"] for x in whole for r in x["rows"]}
    assert {m["username"]: m["division"] for m in members} == by_division
    assert {m["waiting"] for m in members} == {False}
