"""The tournaments' API: every answer validated against the published schema (the
ValidatingAPIClient), refusals with their codes changing nothing, private ones hidden."""

from __future__ import annotations

import pytest

from tests.api_schema import ValidatingAPIClient as APIClient

pytestmark = pytest.mark.django_db


def _client(user):
    c = APIClient()
    c.force_authenticate(user)
    return c


BODY = {"name": "Autumn cup", "maps": ["germany"], "table_min": 3, "table_max": 4, "rounds": 2}


def test_create_join_start_read_standings(make_user):
    from tablehelpers import make_tables

    director = make_user()
    d = _client(director)
    r = d.post("/api/v1/tournaments/", BODY, format="json")
    assert r.status_code == 201, r.content
    tid = r.json()["id"]
    assert r.json()["invite_code"] is None  # public: no code to hand out, even to the director
    users = [make_user() for _ in range(7)]
    for u in users:
        r = _client(u).post(f"/api/v1/tournaments/{tid}/join/", {}, format="json")
        assert r.status_code == 200, r.content
        assert r.json()["invite_code"] is None
    r = _client(users[0]).post(f"/api/v1/tournaments/{tid}/join/", {}, format="json")
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "already_entered"
    r = _client(users[0]).post(f"/api/v1/tournaments/{tid}/start/", format="json")
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "not_director"
    r = d.post(f"/api/v1/tournaments/{tid}/start/", format="json")
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["status"] == "running"
    assert [(x["number"], x["tables_count"]) for x in body["rounds"]] == [(1, 2)]
    assert body["entrants"] == 7
    tables = d.get(f"/api/v1/tournaments/{tid}/rounds/1/").json()["results"]
    assert sorted(len(t["players"]) for t in tables) == [3, 4]
    assert [t["game"] for t in tables] == [None, None]  # being set up: made after the commit
    assert make_tables() == 2
    tables = d.get(f"/api/v1/tournaments/{tid}/rounds/1/").json()["results"]
    assert all(isinstance(t["game"], int) for t in tables)
    game = tables[0]["game"]
    seated = (
        _client(users[0])
        if any(p["username"] == users[0].username for p in tables[0]["players"])
        else None
    )
    if seated is not None:
        assert seated.get(f"/api/v1/games/{game}/").status_code == 200
    listed = d.get("/api/v1/tournaments/").json()
    assert [t["id"] for t in listed["results"]] == [tid]
    assert (listed["count"], listed["next"], listed["previous"]) == (1, None, None)
    st = d.get(f"/api/v1/tournaments/{tid}/standings/")
    assert st.status_code == 200
    assert (st.json()["count"], len(st.json()["results"])) == (7, 7)
    assert st.json()["final"] is False


def test_bad_bodies_are_400_and_change_nothing(make_user):
    from tournaments.models import Tournament

    d = _client(make_user())
    for bad in (
        {**BODY, "table_min": 2},
        {**BODY, "maps": ["atlantis"]},
        {**BODY, "rounds": "three"},
        {**BODY, "colour": "red"},
        {"maps": ["germany"]},
        {**BODY, "table_min": 5, "table_max": 4},
    ):
        r = d.post("/api/v1/tournaments/", bad, format="json")
        assert r.status_code == 400, (bad, r.content)
        assert r.json()["error"]["code"] in ("invalid_field", "invalid")
    assert not Tournament.objects.exists()
    r = d.post("/api/v1/tournaments/999999/join/", {}, format="json")
    assert r.status_code == 404
    r = d.post("/api/v1/tournaments/", {**BODY}, format="json")
    tid = r.json()["id"]
    r = d.post(f"/api/v1/tournaments/{tid}/start/", {"now": True}, format="json")
    assert r.status_code == 400
    r = d.post(f"/api/v1/tournaments/{tid}/start/", format="json")
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "too_few_entrants"
    assert Tournament.objects.get(pk=tid).status == "open"


def test_private_is_hidden_without_its_code(make_user):
    d = _client(make_user())
    tid = d.post("/api/v1/tournaments/", {**BODY, "private": True}, format="json").json()["id"]
    code = d.get(f"/api/v1/tournaments/{tid}/").json()["invite_code"]
    other = _client(make_user())
    assert other.get("/api/v1/tournaments/").json()["results"] == []
    assert other.get(f"/api/v1/tournaments/{tid}/").status_code == 404
    assert other.get(f"/api/v1/tournaments/{tid}/?code={code}").json()["invite_code"] is None
    nowhere = other.post("/api/v1/tournaments/999999/join/", {}, format="json")
    assert (nowhere.status_code, nowhere.json()["error"]["code"]) == (404, "not_found")
    for body in ({}, {"code": "wrong"}, {"code": ""}):  # as if it did not exist (join was 403)
        r = other.post(f"/api/v1/tournaments/{tid}/join/", body, format="json")
        assert (r.status_code, r.json()) == (404, nowhere.json()), (body, r.content)
    r = other.post(f"/api/v1/tournaments/{tid}/join/", {"code": code}, format="json")
    assert r.status_code == 200


def test_the_invite_code_is_a_private_tournaments_and_only_its_directors(make_user):
    """``invite_code`` is the private link's code: its director reads it, from the API and on
    the tournament's page; a public tournament's (every tournament is made with one) means
    nothing, so it is null in the API and not on the page, for its director too."""
    from django.test import Client

    from tournaments.models import Tournament

    director = make_user()
    d = _client(director)
    page = Client()
    page.force_login(director)
    for private in (False, True):
        tid = d.post("/api/v1/tournaments/", {**BODY, "private": private}, format="json").json()
        code = Tournament.objects.get(pk=tid["id"]).invite_code
        assert code  # made with one either way
        shown = d.get(f"/api/v1/tournaments/{tid['id']}/").json()["invite_code"]
        assert shown == (code if private else None), private
        html = page.get(f"/tournaments/{tid['id']}/").content.decode()
        assert (code in html, "Private link code" in html) == (private, private), private
        entrant = _client(make_user())
        body = {"code": code} if private else {}
        r = entrant.post(f"/api/v1/tournaments/{tid['id']}/join/", body, format="json")
        assert (r.status_code, r.json()["invite_code"]) == (200, None), r.content


def test_anonymous_is_401():
    assert APIClient().get("/api/v1/tournaments/").status_code == 401


def test_the_rating_bounds_declared_are_the_ones_enforced(make_user):
    """Each rating bound's published minimum and maximum are the service's RATING_LIMITS (the
    schema once declared rating_min without a maximum and rating_max without a minimum), and a
    value one past either edge is refused for each field, creating nothing."""
    from tests.api_schema import published_schema
    from tournaments.models import Tournament
    from tournaments.services import RATING_LIMITS

    low, high = RATING_LIMITS
    request_shape = published_schema()["components"]["schemas"]["TournamentCreateRequest"]
    d = _client(make_user())
    for field in ("rating_min", "rating_max"):
        declared = request_shape["properties"][field]
        assert (declared["minimum"], declared["maximum"]) == (low, high), (field, declared)
        for outside in (low - 1, high + 1):
            r = d.post("/api/v1/tournaments/", {**BODY, field: outside}, format="json")
            assert r.status_code == 400, (field, outside, r.content)
            assert r.json()["error"]["details"]["field"] == field
        for edge in (low, high):
            other = {"rating_min": low} if field == "rating_max" else {"rating_max": high}
            r = d.post("/api/v1/tournaments/", {**BODY, field: edge, **other}, format="json")
            assert r.status_code == 201, (field, edge, r.content)
    assert Tournament.objects.count() == 4
