"""What the pages show, the API answers: players' profiles, a finished game's per-round result,
the state at a past move, a multi-city build quote, the calendar address, vacations and the API
tokens. Each as anonymous, an outsider, a player and the owner; a private game of others stays
hidden; bad input is a 4xx with its code. Every answer here is checked against the published
schema (``tests.api_schema``)."""

from __future__ import annotations

from typing import Any

import pytest
from apihelpers import PASSWORD, seat_players

from tests.api_schema import ValidatingAPIClient, published_schema

pytestmark = pytest.mark.django_db


def _code(r: Any) -> tuple[int, str]:
    return r.status_code, r.json()["error"]["code"]


def _session(user: Any, *, reauthenticated: bool = False) -> ValidatingAPIClient:
    """An API client with the site's session (not a token) for ``user``."""
    c = ValidatingAPIClient()
    c.force_login(user)
    if reauthenticated:
        c.post("/accounts/reauthenticate/", {"password": PASSWORD})
    return c


def _advance(gid: int, ps: list[Any], until: str) -> None:
    """The heuristic bot moves for whoever is awaited (through the services) until the engine's
    phase is ``until`` (``finished``: the end)."""
    from games import selectors, services
    from games.models import Game
    from powergrid.bots import HeuristicBot

    seats = {seat: p.user for seat, p in seat_players(gid, ps).items()}
    bot = HeuristicBot()
    for _ in range(3000):
        game = Game.objects.get(pk=gid)
        state = selectors.game_engine_state(game)
        if state.phase == until:
            return
        seat = game.to_act[0]
        services.move_submit(
            game_id=gid,
            user=seats[seat],
            action=bot.choose(state, seat),
            expected_seq=game.seq,
            source="api",
        )
    raise AssertionError(f"never reached {until}")


def _private_game(make_player, *, finish: bool = False) -> tuple[int, list[Any], Any]:
    """A private 2-player game under way (or finished), and a player invited who did not join."""
    from games import services

    a, b, invitee = make_player(), make_player(), make_player()
    gid = a.post(
        "/api/v1/games/", {"map": "germany", "max_players": 2, "options": {"private": True}}
    ).json()["id"]
    services.game_invite(game_id=gid, user=a.user, username=b.user.username)
    services.game_invite(game_id=gid, user=a.user, username=invitee.user.username)
    services.game_join(game_id=gid, user=b.user)
    if finish:
        _advance(gid, [a, b], "finished")
    return gid, [a, b], invitee


# -- the schema ------------------------------------------------------------------------------


def test_the_schema_declares_a_players_rating():
    """Players who come back look for their rating: the profile's schema carries it."""
    schemas = published_schema()["components"]["schemas"]
    rating = schemas["PlayerProfile"]["properties"]["rating"]
    assert {"$ref": "#/components/schemas/PlayerRating"} in rating["oneOf"]
    assert set(schemas["PlayerRating"]["required"]) >= {"value", "games"}
    paths = published_schema()["paths"]
    for path in (
        "/api/v1/players/{username}/",
        "/api/v1/games/{game_id}/result/",
        "/api/v1/games/{game_id}/states/{seq}/",
        "/api/v1/games/{game_id}/quote/",
        "/api/v1/me/calendar/",
        "/api/v1/me/vacation/",
        "/api/v1/me/tokens/",
        "/api/v1/me/tokens/{prefix}/",
    ):
        assert path in paths, path


# -- players' profiles -----------------------------------------------------------------------


def test_a_profile_for_anyone_with_rating_and_reliability(make_player, new_game):
    from games.models import Rating

    gid, ps = new_game(players=2)
    ann = ps[0]
    anonymous = ValidatingAPIClient()
    r = anonymous.get(f"/api/v1/players/{ann.user.username}/")
    assert r.status_code == 200
    body = r.json()
    assert body["username"] == ann.user.username
    assert body["rating"] is None
    assert body["reliability"]["turns"] == 0
    assert body["reliability"]["percent"] is None
    assert [g["id"] for g in body["current_games"]] == [gid]
    assert body["finished_games"] == {"count": 0, "page": 1, "pages": 1, "results": []}

    Rating.objects.create(user=ann.user, mu=30.0, sigma=2.0, games=3)
    rating = make_player().get(f"/api/v1/players/{ann.user.username}/").json()["rating"]
    assert rating["value"] == 240
    assert rating["games"] == 3
    assert rating["mu"] == 30.0


def test_a_profile_of_nobody_and_a_bad_page(make_player):
    p = make_player()
    assert _code(p.get("/api/v1/players/no-such-player/")) == (404, "not_found")
    for bad in ("abc", "0", "-1", "null", "1.5"):
        r = p.get(f"/api/v1/players/{p.user.username}/?page={bad}")
        assert _code(r) == (400, "invalid_field"), bad
    # A page past the last is the last (as the page's links kept from earlier still open).
    assert (
        p.get(f"/api/v1/players/{p.user.username}/?page=99").json()["finished_games"]["page"] == 1
    )


def test_a_profile_lists_a_private_game_only_to_those_who_may_see_it(make_player):
    gid, (a, b), invitee = _private_game(make_player, finish=True)
    outsider, staff = make_player(), make_player()
    from django.contrib.auth import get_user_model

    get_user_model().objects.filter(pk=staff.user.pk).update(is_staff=True)

    def listed(client: Any) -> list[int]:
        body = client.get(f"/api/v1/players/{a.user.username}/").json()
        return [g["id"] for g in body["current_games"] + body["finished_games"]["results"]]

    for who in (a, b, invitee):
        assert gid in listed(who)
    for who in (outsider, staff, ValidatingAPIClient()):  # staff: lists show what all see
        assert gid not in listed(who)
        body = who.get(f"/api/v1/players/{a.user.username}/").json()
        assert body["finished_games"]["count"] == 0  # not even counted
    mine = a.get(f"/api/v1/players/{a.user.username}/").json()["finished_games"]["results"]
    assert mine[0]["place"] in (1, 2)
    assert mine[0]["status"] == "finished"


# -- a finished game's result ----------------------------------------------------------------


def test_the_result_is_the_pages_and_comes_at_the_end(make_player, new_game):
    from games.models import Game
    from games.results import game_result

    gid, ps = new_game(players=2)
    outsider = make_player()
    for who in (ps[0], outsider, ValidatingAPIClient()):
        assert _code(who.get(f"/api/v1/games/{gid}/result/")) == (409, "game_not_finished")
    _advance(gid, ps, "finished")
    result = game_result(Game.objects.get(pk=gid))
    assert result is not None
    for who in (ps[0], outsider, ValidatingAPIClient()):
        r = who.get(f"/api/v1/games/{gid}/result/")
        assert r.status_code == 200
        body = r.json()
        assert body["game"] == gid
        assert [row["seat"] for row in body["rows"]] == [row["seat"] for row in result.rows]
        money = {s.key: s for s in result.charts}["money"]
        assert [x["round"] for x in body["rounds"]] == money.rounds
        assert [x["end"] for x in body["rounds"]] == [False] * (len(money.rounds) - 1) + [True]
        assert all(s["money"] == 50 for s in body["rounds"][0]["seats"])
        final = {s["seat"]: s for s in body["rounds"][-1]["seats"]}
        for row in body["rows"]:  # the charts end where the score table ends
            assert final[row["seat"]]["money"] == row["money"]
            assert final[row["seat"]]["cities"] == row["cities"]
    assert _code(outsider.get("/api/v1/games/999999999/result/")) == (404, "not_found")


def test_a_private_games_result_is_its_players_only(make_player):
    gid, (a, _b), invitee = _private_game(make_player, finish=True)
    assert a.get(f"/api/v1/games/{gid}/result/").status_code == 200
    assert invitee.get(f"/api/v1/games/{gid}/result/").status_code == 200
    for who in (make_player(), ValidatingAPIClient()):
        assert _code(who.get(f"/api/v1/games/{gid}/result/")) == (404, "not_found")


# -- the state at a past move ----------------------------------------------------------------


def test_the_state_at_a_past_move_is_the_seats_view_then(make_player, new_game):
    import powergrid
    from games import selectors
    from games.models import Game

    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    _advance(gid, ps, "resources")
    game = Game.objects.get(pk=gid)
    outsider = make_player()
    for seq in (0, 1, game.seq // 2, game.seq):
        replayed = selectors.game_engine_state_at(game, seq)
        for seat, p in [*seats.items(), (None, outsider)]:
            r = p.get(f"/api/v1/games/{gid}/states/{seq}/")
            assert r.status_code == 200, r.content
            body = r.json()
            assert (body["seq"], body["seat"], body["legal"], body["deadline"]) == (
                seq,
                seat,
                [],
                None,
            )
            view = powergrid.view(replayed, seat)
            for key in ("round", "phase", "to_act", "plant_market", "resource_market", "cities"):
                assert body[key] == view[key], key
            for player in body["players"]:  # only one's own money, as then
                own = player["seat"] == seat
                assert (player["money"] is not None) == own
                if own:
                    assert player["money"] == replayed.players[seat].money


def test_the_state_at_a_move_not_made_yet_or_of_an_open_game(make_player, new_game):
    gid, ps = new_game(players=2)
    seq = ps[0].get(f"/api/v1/games/{gid}/").json()["seq"]
    r = ps[0].get(f"/api/v1/games/{gid}/states/{seq + 1}/")
    assert _code(r) == (404, "not_found")
    assert r.json()["error"]["details"] == {"seq": seq}
    assert ps[0].get(f"/api/v1/games/{gid}/states/99999999999999999999/").status_code == 404
    assert ps[0].get(f"/api/v1/games/{gid}/states/-1/").status_code == 404  # not a seq
    assert _code(ValidatingAPIClient().get(f"/api/v1/games/{gid}/states/0/")) == (
        401,
        "not_authenticated",
    )
    open_gid, open_ps = new_game(players=2, start=False)
    r = open_ps[0].get(f"/api/v1/games/{open_gid}/states/0/")
    assert _code(r) == (409, "game_not_started")


def test_a_private_games_past_states_are_its_players_only(make_player):
    gid, (a, _b), invitee = _private_game(make_player)
    assert a.get(f"/api/v1/games/{gid}/states/0/").status_code == 200
    assert invitee.get(f"/api/v1/games/{gid}/states/0/").status_code == 200
    assert _code(make_player().get(f"/api/v1/games/{gid}/states/0/")) == (404, "not_found")


# -- the build quote -------------------------------------------------------------------------


def test_a_token_and_a_session_get_the_same_quote(make_player, new_game, client):
    """The page's quote answered a token 400 not_a_player: the API's answers both alike, and
    the page gives the same code as the API for the same question."""
    from games import selectors
    from games.models import Game

    gid, ps = new_game(players=3)
    _advance(gid, ps, "build")
    game = Game.objects.get(pk=gid)
    seats = seat_players(gid, ps)
    me = seats[game.to_act[0]]
    state = selectors.game_state_for(game, me.user)
    build = next(e for e in state["legal"] if e["type"] == "build")
    cheapest = sorted(build["cities"], key=lambda c: (build["cities"][c], c))[:2]
    query = "&".join(f"cities={c}" for c in cheapest)
    url = f"/api/v1/games/{gid}/quote/"
    session = _session(me.user)
    token = me.get(f"{url}?{query}")
    assert token.status_code == 200, token.content
    assert token.json() == session.get(f"{url}?{query}").json()
    body = token.json()
    assert body["cities"] == cheapest
    money = selectors.game_engine_state(game).players[game.to_act[0]].money
    assert body["money_left"] == money - body["cost"]
    assert body["cost"] >= sum(build["cities"][c] for c in cheapest[:1])
    # Several at once cost what the engine's cheapest order says, not the sum of each alone.
    import powergrid

    assert body["cost"] == powergrid.quote_build(
        selectors.game_engine_state(game), game.to_act[0], cheapest
    )
    assert me.get(url).json()["cost"] == 0
    # The same refusals by token and by session, and on the page.
    outsider = make_player()
    cases = [
        (outsider, "?cities=essen", (403, "not_a_player")),
        (me, "?cities=nowhere", (400, "city_not_in_play")),
        (me, "?" + "&".join(f"cities=c{i}" for i in range(31)), (400, "invalid_field")),
    ]
    for who, q, expected in cases:
        assert _code(who.get(url + q)) == expected
        assert _code(_session(who.user).get(url + q)) == expected
    client.force_login(outsider.user)
    page = client.get(f"/games/{gid}/quote/?cities=essen")
    assert (page.status_code, page.json()["error"]["code"]) == (403, "not_a_player")
    client.logout()
    # The page's quote takes the API's token too: the same answer as the API's to the same
    # token, and a bad token is refused (401), not read as a visitor.
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {me.token}"}
    page = client.get(f"/games/{gid}/quote/?{query}", **bearer)
    assert page.status_code == 200, page.content
    assert page.json() == me.get(f"{url}?{query}").json()
    page = client.get(f"/games/{gid}/quote/?cities=nowhere", **bearer)
    assert (page.status_code, page.json()["error"]["code"]) == (400, "city_not_in_play")
    # The same body, not only the same code: an error with its details (no page-only keys), no
    # city (cost 0 and the money left), and more than 30 refused rather than cut to 30.
    many = "&".join(f"cities=c{i}" for i in range(31))
    for q in ["cities=nowhere", "", many]:
        page = client.get(f"/games/{gid}/quote/?{q}", **bearer)
        api = me.get(f"{url}?{q}")
        assert (page.status_code, page.json()) == (api.status_code, api.json()), q
    assert _code(me.get(f"{url}?{many}")) == (400, "invalid_field")
    page = client.get(f"/games/{gid}/quote/?cities=essen", HTTP_AUTHORIZATION="Bearer 00ff")
    assert (page.status_code, page.json()["error"]["code"]) == (401, "authentication_failed")
    # The same 401 as the API's, which names the scheme to use.
    api = ValidatingAPIClient().get(url + "?cities=essen", HTTP_AUTHORIZATION="Bearer 00ff")
    assert api.status_code == 401
    assert page["WWW-Authenticate"] == api["WWW-Authenticate"] == 'Bearer realm="api"'
    page = client.get(f"/games/{gid}/quote/?cities=essen", HTTP_AUTHORIZATION="Basic eDp5")
    assert page.status_code == 401
    assert page["WWW-Authenticate"] == 'Bearer realm="api"'
    assert _code(ValidatingAPIClient().get(url + "?cities=essen")) == (401, "not_authenticated")


def test_no_quote_outside_a_game_under_way(new_game):
    gid, ps = new_game(players=2, start=False)
    assert _code(ps[0].get(f"/api/v1/games/{gid}/quote/?cities=essen")) == (
        409,
        "game_not_running",
    )


# -- the calendar address --------------------------------------------------------------------


def test_the_calendar_address_read_renewed_and_turned_off(make_player, client):
    p = make_player()
    url = "/api/v1/me/calendar/"
    assert _code(ValidatingAPIClient().get(url)) == (401, "not_authenticated")
    assert p.get(url).json() == {"url": None}
    first = p.post(url).json()["url"]
    assert first
    assert first.endswith(".ics")
    assert p.get(url).json()["url"] == first
    second = p.post(url).json()["url"]
    assert second != first
    path = lambda u: u[u.index("/calendar/") :]  # noqa: E731
    assert client.get(path(first)).status_code == 404  # the old address stops at once
    assert client.get(path(second)).status_code == 200
    # A session must confirm its password before a new address, not to turn it off.
    session = _session(p.user)
    r = session.post(url)
    assert _code(r) == (403, "reauthentication_required")
    assert session.get(url).json()["url"] == second
    assert session.delete(url).json() == {"url": None}
    assert client.get(path(second)).status_code == 404
    assert _session(p.user, reauthenticated=True).post(url).json()["url"]
    # Another player's address is never shown.
    assert make_player().get(url).json() == {"url": None}


# -- vacation --------------------------------------------------------------------------------


def test_a_vacation_started_refused_and_ended(make_player):
    from accounts.models import Profile

    p = make_player()
    url = "/api/v1/me/vacation/"
    assert _code(ValidatingAPIClient().get(url)) == (401, "not_authenticated")
    before = p.get(url).json()
    assert before["on"] is False
    assert before["until"] is None
    allowance = before["days_per_year"]
    assert before["days_left"] == allowance
    for bad in ({"days": 0}, {"days": "abc"}, {}, {"days": None}, {"days": 1.5}):
        assert _code(p.post(url, bad)) == (400, "invalid_field"), bad
    r = p.post(url, {"days": allowance + 1})
    assert _code(r) == (400, "not_enough_days")
    assert r.json()["error"]["details"] == {"days_left": allowance}
    assert _code(p.client.delete(url)) == (409, "not_on_vacation")
    assert Profile.objects.get(user=p.user).vacation_until is None  # nothing changed
    on = p.post(url, {"days": 3}).json()
    assert on["on"] is True
    assert on["until"]
    assert on["days_left"] == allowance - 3
    assert _code(p.post(url, {"days": 1})) == (409, "already_on_vacation")
    off = p.client.delete(url).json()
    assert off["on"] is False
    assert off["days_left"] == allowance
    # One's own only: another player's vacation is not touched.
    assert make_player().get(url).json()["on"] is False


# -- API tokens ------------------------------------------------------------------------------


def test_tokens_are_listed_without_their_secret_and_revoked(make_player):
    from knox.models import AuthToken

    from accounts.tokens import token_create

    p, other = make_player(), make_player()
    _row, second = token_create(p.user, name="laptop")
    url = "/api/v1/me/tokens/"
    assert _code(ValidatingAPIClient().get(url)) == (401, "not_authenticated")
    r = p.get(url)
    listed = r.json()
    assert {t["prefix"] for t in listed} == {p.token[:15], second[:15]}
    assert [t["current"] for t in listed if t["prefix"] == p.token[:15]] == [True]
    by_prefix = {t["prefix"]: t for t in listed}
    assert by_prefix[second[:15]]["name"] == "laptop"
    assert by_prefix[second[:15]]["last_used"] is None  # not used yet
    assert by_prefix[p.token[:15]]["last_used"] is not None  # this request
    text = r.content.decode()
    for secret in (p.token, second, *AuthToken.objects.values_list("digest", flat=True)):
        assert secret not in text
    # Someone else's token is nobody's to revoke: the same answer as no token at all.
    assert _code(p.client.delete(f"{url}{other.token[:15]}/")) == (404, "token_not_found")
    assert _code(p.client.delete(f"{url}nothing/")) == (404, "token_not_found")
    assert other.get(url).status_code == 200
    # A session confirms its password first, as on the page.
    assert _code(_session(p.user).delete(f"{url}{second[:15]}/")) == (
        403,
        "reauthentication_required",
    )
    assert p.client.delete(f"{url}{second[:15]}/").status_code == 204
    assert [t["prefix"] for t in p.get(url).json()] == [p.token[:15]]
    revoked = ValidatingAPIClient()
    revoked.credentials(HTTP_AUTHORIZATION=f"Bearer {second}")
    assert _code(revoked.get(url)) == (401, "authentication_failed")
    # Revoking the token in hand works too; it is then refused.
    assert p.client.delete(f"{url}{p.token[:15]}/").status_code == 204
    assert p.get(url).status_code == 401


def test_a_token_made_by_the_api_carries_its_name(make_player):
    p = make_player()
    r = ValidatingAPIClient().post(
        "/api/v1/auth/token/",
        {"username": p.user.username, "password": PASSWORD, "name": "tournament bot"},
        format="json",
    )
    assert r.status_code == 200
    token = r.json()["token"]
    bot = ValidatingAPIClient()
    bot.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    mine = {t["prefix"]: t for t in bot.get("/api/v1/me/tokens/").json()}[token[:15]]
    assert mine["name"] == "tournament bot"
    assert mine["current"] is True
    assert mine["last_used"] is not None
    r = ValidatingAPIClient().post(
        "/api/v1/auth/token/",
        {"username": p.user.username, "password": PASSWORD, "name": "x" * 61},
        format="json",
    )
    assert (r.status_code, r.json()["error"]["code"]) == (400, "invalid_field")


def test_a_token_from_before_names_were_kept_is_listed(make_player):
    """A token without its TokenInfo row (made before it existed): no name, and its first use
    writes one."""
    from accounts.models import TokenInfo

    p = make_player()
    TokenInfo.objects.filter(token__user=p.user).delete()
    from accounts import tokens

    tokens._noted.clear()
    listed = p.get("/api/v1/me/tokens/").json()
    assert listed[0]["name"] == ""
    assert TokenInfo.objects.filter(token__user=p.user).exists()


def test_the_page_quote_answers_no_credentials_as_the_api(new_game, client):
    """No session and no token: the page's quote said 403 not_a_player where the API says 401
    not_authenticated (after the 404 of a game the caller may not see, as the API)."""
    gid, _ps = new_game(players=2)
    page = client.get(f"/games/{gid}/quote/?cities=essen")
    api = ValidatingAPIClient().get(f"/api/v1/games/{gid}/quote/?cities=essen")
    assert (page.status_code, api.status_code) == (401, 401)
    assert {**page.json()["error"], "text": None} == {**api.json()["error"], "text": None}
    assert page.json()["error"]["code"] == "not_authenticated"
    assert page["WWW-Authenticate"] == api["WWW-Authenticate"]
    assert client.get(f"/games/{2**40}/quote/").status_code == 404
