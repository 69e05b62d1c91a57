"""Private means private: a private game answers everyone but its players, invitees and staff
exactly as a game that does not exist (404), on every channel.

The walking test takes every URL pattern of the URL configuration (``get_resolver``) that has a
game id in it and requests each, with every method it takes, as an anonymous visitor and as an
outsider (a token for the API, a session for the pages): 404 each time, the API's body the same
as for a game that does not exist, and nothing of the game in any body. As one of its players
none of them is a 404. A pattern with a game id that ``GAME_SCOPED`` does not cover fails the
test, and so does any other pattern with a parameter that ``NOT_GAME_SCOPED`` does not name: a
new page or endpoint of a game cannot be added without being walked here.

Entry points that name the game elsewhere than in the path (the event stream's ``?game=``, a
webhook's ``game`` field) are walked by ``OTHER_ENTRY_POINTS``; lists (the lobby, the API's
game list, players' pages) by ``test_lists_do_not_show_it``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

ABSENT = 10**9  # a game id nobody has


@dataclass
class Call:
    method: str
    data: dict[str, Any] = field(default_factory=dict)
    query: str = ""


#: Every game-scoped URL pattern (by name): the other parameters of its path, and the requests
#: to make. ``{mid}`` is a chat message of the game; ``{code}`` its invitation link's code for
#: a player, a wrong one for a stranger (who holds no link: test_invitations.py and the removal
#: tests below try the link itself).
GAME_SCOPED: dict[str, tuple[dict[str, Any], list[Call]]] = {
    # The REST API
    "api_game": ({}, [Call("get")]),
    "api_game_join": ({}, [Call("post"), Call("post", {"code": "not-the-code"})]),
    "api_game_invitations": ({}, [Call("post", {"username": "{guest}"})]),
    "api_game_leave": ({}, [Call("post")]),
    "api_game_start": ({}, [Call("post")]),
    "api_game_state": ({}, [Call("get")]),
    "api_game_moves": (
        {},
        [Call("get"), Call("post", {"action": {"type": "pass_auction"}, "expected_seq": 0})],
    ),
    "api_game_record": ({}, [Call("get")]),
    "api_game_result": ({}, [Call("get")]),
    "api_game_state_at": ({"seq": 0}, [Call("get")]),
    "api_game_quote": ({}, [Call("get", query="cities=essen&cities=duisburg")]),
    "api_game_chat": ({}, [Call("get"), Call("post", {"text": "hello"})]),
    "api_game_chat_message": ({"message_id": "{mid}"}, [Call("patch", {"text": "changed"})]),
    "api_game_chat_report": ({"message_id": "{mid}"}, [Call("post")]),
    "api_game_plans": ({}, [Call("get"), Call("post", {"kind": "pass_when_nothing"})]),
    "api_game_plan": ({"kind": "pass_when_nothing"}, [Call("delete")]),
    "api_game_forecast": ({}, [Call("get")]),
    "api_takeback": ({}, [Call("get"), Call("post", {"expected_seq": 0})]),
    "api_takeback_requests": ({}, [Call("post", {"expected_seq": 0})]),
    "api_takeback_request": ({"request_id": "{rid}"}, [Call("get"), Call("delete")]),
    "api_takeback_accept": ({"request_id": "{rid}"}, [Call("post")]),
    "api_takeback_decline": ({"request_id": "{rid}"}, [Call("post")]),
    "api_practice": ({}, [Call("post")]),
    "api_game_sheet": ({}, [Call("get"), Call("put", {"round": 1})]),
    "api_game_seeking": ({}, [Call("post", {"seeking": True})]),
    "api_game_substitute": ({}, [Call("post", {"seat": 0})]),
    # The pages
    "game": ({}, [Call("get")]),
    "game_move": ({}, [Call("post", {"action": "pass_auction", "expected_seq": "0"})]),
    "game_history": ({"seq": 0}, [Call("get")]),
    "game_history_jump": ({}, [Call("get", query="seq=0")]),
    "game_quote": ({}, [Call("get", query="cities=essen")]),
    "game_plans": ({}, [Call("get"), Call("post", {"kind": "pass_when_nothing"})]),
    "game_chat": (
        {},
        [
            Call("post", {"text": "hello"}),
            Call("post", {"op": "edit", "id": "{mid}", "text": "changed"}),
            Call("post", {"op": "report", "id": "{mid}"}),
        ],
    ),
    "game_result": ({}, [Call("get")]),
    "game_takeback": ({}, [Call("post", {"expected_seq": "0", "how": "now"})]),
    "game_takeback_answer": ({"request_id": "{rid}"}, [Call("post", {"answer": "accept"})]),
    "game_practice": ({}, [Call("post")]),
    "game_calendar": ({}, [Call("get")]),
    "game_invite": ({"code": "{code}"}, [Call("get")]),
    **{
        f"game_lobby:{what}": ({"what": what}, [Call("post", {"code": "", "seat": "1"})])
        for what in ("join", "leave", "start", "bot", "remove", "invite")
    },
    "game_sheet": ({}, [Call("get"), Call("post", {"accept": "1"})]),
    "game_note": ({}, [Call("post", {"note": "a note of mine"})]),
    "game_seeking": ({}, [Call("post", {"seeking": "yes"})]),
    "game_substitute": ({}, [Call("post", {"seat": "0"})]),
    # Last: a player who walks these has left the game (the calls above come first).
    "api_game_resign": ({}, [Call("post")]),
    "game_resign": ({}, [Call("post", {"confirm": "yes"})]),
}

#: Patterns with a parameter that is not a game, and why a private game cannot leak through them.
NOT_GAME_SCOPED: dict[str, str] = {
    "admin/": "the admin site: staff only, and staff may see every game",
    "accounts/": "allauth's keys (email confirmation, password reset): no game",
    "^static/": "static files",
    "api_map": "a map's slug",
    "api_webhook": "the caller's own webhook (webhook_not_found for anyone else's)",
    "api_webhook_test": "the caller's own webhook",
    "mail_login_link": "signed for one recipient and game; it opens the game page, whose rule "
    "applies to whoever it logs in",
    "mail_settings": "signed for one user: their notification settings, no game",
    "onetap": "signed for one seat of a running game (its player's email)",
    "dev_mailbox_detail": "the development mailbox (DEBUG only)",
    "dev_mailbox_reply": "the development mailbox (DEBUG only)",
    "calendar_feed": "a user's secret address: their own deadlines only",
    "restored_dismiss": "the caller's own notice of a game lost in a restore (another's: nothing "
    "changes); it names only what the caller played",
    "player": "a player's page: lists games by the same rule (test_lists_do_not_show_it)",
    "api_player": "a player's profile: lists games by the same rule (test_lists_do_not_show_it)",
    "api_me_token": "the caller's own API token (token_not_found for anyone else's)",
    "api_me_block": "a username the caller blocks or unblocks: their own list, no game",
    "api_me_push_device": "the caller's own push device (subscription_not_found for others')",
    "api/v1/tournaments/": "a tournament by its id: its tables' games are as private as it is "
    "(a private one's watched by its director and entrants: tests/tournaments/"
    "test_table_privacy.py); who sits at a table and, once it ended, its result are the "
    "tournament's own facts; the game itself answers by the rule walked here",
    "tournaments/": "a tournament's pages: the same facts as its API (above)",
    "api/v1/leagues/": "a league by its id and a season by its number: the divisions' standings "
    "(their tournaments' facts, above), no game",
    "leagues/": "a league's pages: the same facts as its API (above)",
}


def _patterns(resolver: Any = None, prefix: str = "") -> Iterator[tuple[str, str | None]]:
    """(route, name) of every URL pattern, includes followed."""
    for p in (resolver or get_resolver()).url_patterns:
        if isinstance(p, URLResolver):
            yield from _patterns(p, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern), p.name


def _parameters(route: str) -> set[str]:
    return set(re.findall(r"<(?:\w+:)?(\w+)>", route)) | set(re.findall(r"\(\?P<(\w+)>", route))


def test_every_pattern_with_a_parameter_is_walked_or_explained():
    """The walk's tables against the URL configuration: nothing new goes unwalked."""
    uncovered, unexplained, seen = [], [], set()
    covered = {name.split(":")[0] for name in GAME_SCOPED}
    for route, name in _patterns():
        params = _parameters(route)
        if not params:
            continue
        if "game_id" in params:
            seen.add(name)
            if name not in covered:
                uncovered.append(route)
        elif (
            name not in NOT_GAME_SCOPED
            and not any(
                route.startswith(prefix) for prefix in NOT_GAME_SCOPED if prefix.endswith("/")
            )
            and not route.startswith("^static/")
        ):
            unexplained.append(f"{route} ({name})")
    assert not uncovered, f"game-scoped URLs the walk does not cover: {uncovered}"
    assert not unexplained, f"URLs with a parameter, neither walked nor explained: {unexplained}"
    assert covered <= seen, f"walked names no longer in the URL configuration: {covered - seen}"


# -- the game ---------------------------------------------------------------------------------


@dataclass
class World:
    gid: int
    creator: Any  # a Player (apihelpers): user, token client
    player: Any
    invitee: Any
    outsider: Any
    staff: Any
    mid: int
    code: str
    secrets: list[str]
    rid: int = 0  # a take-back request of the game (running games)


def _private_game(make_player, *, start: bool = True) -> World:
    from django.contrib.auth import get_user_model

    from games import services
    from games.chat.services import chat_post
    from games.models import Game
    from games.plans.services import plan_set

    creator = make_player()
    r = creator.post(
        "/api/v1/games/",
        {
            "map": "germany",
            "max_players": 3,
            "options": {"private": True, "chat_public": True, "takebacks_rated": True},
        },
    )
    gid = r.json()["id"]
    player, other, invitee, outsider = (make_player() for _ in range(4))
    for p in (player, other, invitee):
        services.game_invite(game_id=gid, user=creator.user, username=p.user.username)
    services.game_join(game_id=gid, user=player.user)
    if start:
        services.game_join(game_id=gid, user=other.user)  # the last seat: it starts
    game = Game.objects.get(pk=gid)
    assert game.status == ("running" if start else "open")
    mid = chat_post(game_id=gid, user=creator.user, text="our secret plan").pk
    rid = 0
    if start:
        plan_set(game_id=gid, user=creator.user, body={"kind": "pass_when_nothing"})
        rid = _takeback_request(gid)
    staff = make_player()
    get_user_model().objects.filter(pk=staff.user.pk).update(is_staff=True)
    staff.user.refresh_from_db()
    names = [p.user.username for p in (creator, player, other, invitee)]
    return World(
        gid=gid,
        creator=creator,
        player=player,
        invitee=invitee,
        outsider=outsider,
        staff=staff,
        mid=mid,
        code=game.invite_code,
        secrets=[*names, game.invite_code, "our secret plan"],
        rid=rid,
    )


def _takeback_request(gid: int) -> int:
    """The first player opens an auction and asks the others to let them take it back."""
    from games import selectors, services
    from games.services.takeback import takeback_ask

    game = selectors.game_get_with_seats(game_id=gid)
    assert game is not None
    seat = next(s for s in selectors.game_seats(game) if s.seat == game.to_act[0])
    plant = selectors.game_engine_state(game).market[0]
    action = {"type": "choose_plant", "plant": plant, "bid": plant}
    services.move_submit(
        game_id=gid, user=seat.user, action=action, expected_seq=game.seq, source="api"
    )
    return takeback_ask(
        game_id=gid, user=seat.user, expected_seq=game.seq + 1, source="api"
    ).request.pk


def _url(name: str, w: World, gid: int, extra: dict[str, Any], query: str, code: str) -> str:
    kwargs = {"game_id": gid}
    for k, v in extra.items():
        subs = {"{mid}": w.mid, "{code}": code, "{rid}": w.rid}
        kwargs[k] = subs.get(v, v) if isinstance(v, str) else v
    url = reverse(name.split(":")[0], kwargs=kwargs)
    return f"{url}?{query}" if query else url


def _data(call: Call, w: World) -> dict[str, Any]:
    subs = {"{mid}": str(w.mid), "{guest}": w.outsider.user.username}
    return {k: subs.get(v, v) if isinstance(v, str) else v for k, v in call.data.items()}


def _client(who: Any, api: bool) -> Any:
    """A client as ``who`` (None: anonymous): a token for the API, a session for pages."""
    if api:
        c = APIClient()
        if who is not None:
            c.credentials(HTTP_AUTHORIZATION=f"Token {who.token}")
        return c
    c = Client()
    if who is not None:
        c.force_login(who.user)
    return c


def _request(client: Any, call: Call, url: str, data: dict[str, Any], api: bool) -> Any:
    fn = getattr(client, call.method)
    if call.method == "get":
        return fn(url)
    if api:
        return fn(url, data, format="json")
    return fn(url, data)


def _walk(w: World, who: Any) -> Iterator[tuple[str, str, Any, Any]]:
    """(name, url, response for the game, response for a game that does not exist)."""
    code = w.code if who is w.creator else "not-the-code"
    for name, (extra, calls) in GAME_SCOPED.items():
        api = name.startswith("api_")
        for call in calls:
            url = _url(name, w, w.gid, extra, call.query, code)
            absent_url = _url(name, w, ABSENT, extra, call.query, code)
            data = _data(call, w)
            got = _request(_client(who, api), call, url, data, api)
            absent = _request(_client(who, api), call, absent_url, data, api)
            yield f"{call.method.upper()} {name}", url, got, absent


def _body(response: Any) -> str:
    """The body as text, without what differs between any two answers (CSRF tokens, nonces)."""
    if getattr(response, "streaming", False):
        return ""
    text = response.content.decode(errors="replace")
    text = re.sub(r'(name="csrfmiddlewaretoken" value=")[^"]*"', r'\1"', text)
    return re.sub(r'nonce="[^"]*"', 'nonce=""', text)


@pytest.mark.parametrize("state", ["open", "running", "finished"])
@pytest.mark.parametrize("who", ["anonymous", "outsider"])
def test_every_game_url_is_not_found_for_a_stranger(make_player, state, who):
    from games.models import Game

    w = _private_game(make_player, start=state != "open")
    if state == "finished":
        Game.objects.filter(pk=w.gid).update(status="finished")
    stranger = None if who == "anonymous" else w.outsider
    problems = []
    for label, url, got, absent in _walk(w, stranger):
        body = _body(got)
        if got.status_code != 404:
            problems.append(f"{label} {url}: {got.status_code}")
            continue
        if url.startswith("/api/") and got.json() != absent.json():
            problems.append(f"{label}: {got.json()} differs from a missing game's {absent.json()}")
        leaked = [s for s in w.secrets if s in body]
        if leaked:
            problems.append(f"{label}: the answer names {leaked}")
    assert not problems, "\n".join(problems)


def test_every_game_url_answers_its_players(make_player):
    w = _private_game(make_player)
    found = [
        f"{label} {url}: {got.content[:200]!r}"
        for label, url, got, _absent in _walk(w, w.creator)
        if got.status_code == 404
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("who", ["invitee", "staff"])
def test_invitees_and_staff_see_it(make_player, who):
    w = _private_game(make_player)
    viewer = getattr(w, who)
    assert _client(viewer, True).get(f"/api/v1/games/{w.gid}/").status_code == 200
    assert _client(viewer, True).get(f"/api/v1/games/{w.gid}/state/").status_code == 200
    assert _client(viewer, False).get(f"/games/{w.gid}/").status_code == 200
    # Seeing is not playing: the game's own errors, not a 404.
    r = _client(viewer, True).post(
        f"/api/v1/games/{w.gid}/moves/",
        {"action": {"type": "pass_auction"}, "expected_seq": 0},
        format="json",
    )
    assert (r.status_code, r.json()["error"]["code"]) == (403, "not_a_player")


# -- entry points that name the game outside the path -----------------------------------------


def _stream(client: Any, gid: int) -> Any:
    r = client.get(f"/api/v1/stream/?game={gid}")
    if getattr(r, "streaming", False):
        r.close()
    return r


#: A receiver address the webhook check accepts here (WEBHOOK_ALLOW_PRIVATE): the game's check
#: comes after the address's, so the address must pass for the game to be asked about.
HOOK_URL = "http://127.0.0.1:65000/hook"  # a port no game id equals (ids are replaced below)


def _webhook_api(client: Any, gid: int) -> Any:
    return client.post(
        "/api/v1/webhooks/",
        {"url": HOOK_URL, "format": "generic", "game": gid},
        format="json",
    )


def _webhook_page(client: Any, gid: int) -> Any:
    return client.post("/webhooks/", {"url": HOOK_URL, "game": str(gid)})


OTHER_ENTRY_POINTS = {
    "GET /api/v1/stream/?game=": (_stream, True),
    "POST /api/v1/webhooks/ {game}": (_webhook_api, True),
    "POST /webhooks/ game=": (_webhook_page, False),
}


@pytest.mark.parametrize("entry", sorted(OTHER_ENTRY_POINTS))
def test_other_entry_points_tell_a_stranger_nothing(make_player, entry, settings):
    from apihelpers import PASSWORD

    settings.STREAM_FALLBACK_SECONDS = 0.01
    settings.STREAM_REDIS_URL = ""
    settings.WEBHOOK_ALLOW_PRIVATE = True
    fn, api = OTHER_ENTRY_POINTS[entry]
    w = _private_game(make_player)
    for who in (None, w.outsider):
        client = _client(who, api)
        if who is not None and not api:  # adding a webhook asks for the password first
            client.post("/accounts/reauthenticate/", {"password": PASSWORD})
        got, absent = fn(client, w.gid), fn(client, ABSENT)
        body, absent_body = _body(got), _body(absent)
        assert got.status_code == absent.status_code, (entry, who, got.status_code)
        mine = re.sub(rf"\b{w.gid}\b", "ID", body)
        assert mine == re.sub(rf"\b{ABSENT}\b", "ID", absent_body), entry
        assert not [s for s in w.secrets if s in body]
    # Its players are answered.
    client = _client(w.creator, api)
    if not api:
        client.post("/accounts/reauthenticate/", {"password": PASSWORD})
    got = fn(client, w.gid)
    assert got.status_code != 404
    assert "No such game" not in _body(got)


def test_lists_do_not_show_it(make_player):
    w = _private_game(make_player)
    outsider = _client(w.outsider, False)
    pages = [
        outsider.get("/").content.decode(),
        Client().get("/").content.decode(),
        outsider.get(f"/players/{w.creator.user.username}/").content.decode(),
        Client().get(f"/players/{w.player.user.username}/").content.decode(),
    ]
    for body in pages:
        assert f"/games/{w.gid}/" not in body
    # The API's profiles, by the same rule: not listed, not counted.
    for client, name in (
        (_client(w.outsider, True), w.creator.user.username),
        (APIClient(), w.player.user.username),
    ):
        profile = client.get(f"/api/v1/players/{name}/").json()
        games = profile["current_games"] + profile["finished_games"]["results"]
        assert w.gid not in [g["id"] for g in games]
        assert not [s for s in w.secrets if s in str(games)]
    mine = _client(w.invitee, True).get(f"/api/v1/players/{w.creator.user.username}/").json()
    assert w.gid in [g["id"] for g in mine["current_games"]]
    for status in ("open", "running", "finished"):
        listed = w.outsider.get(f"/api/v1/games/?status={status}").json()["results"]
        assert w.gid not in [g["id"] for g in listed]
    assert w.gid in [g["id"] for g in w.invitee.get("/api/v1/games/").json()["results"]]


# -- a removed player -------------------------------------------------------------------------


def _removed(make_player, *, private: bool = True) -> tuple[int, Any, Any, str]:
    """An open game (3 seats, 2 taken) whose creator removed the second player through the
    lobby page: (game id, creator, the removed player, the link's code they had)."""
    from games import services
    from games.models import Game

    creator, friend = make_player(), make_player()
    r = creator.post(
        "/api/v1/games/", {"map": "germany", "max_players": 3, "options": {"private": private}}
    )
    gid = r.json()["id"]
    old = Game.objects.get(pk=gid).invite_code
    services.game_join(game_id=gid, user=friend.user, code=old)
    page = Client()
    page.force_login(creator.user)
    page.post(f"/games/{gid}/remove/", {"seat": "1"})
    return gid, creator, friend, old


def test_a_removed_player_cannot_come_back_with_the_old_link(make_player):
    from games.models import Game, Seat

    gid, _creator, friend, old = _removed(make_player)
    assert not Seat.objects.filter(game_id=gid, user=friend.user).exists()
    assert Game.objects.get(pk=gid).invite_code != old  # a new link for the others
    page = _client(friend, False)
    assert page.get(f"/games/{gid}/invite/{old}/").status_code == 404
    assert page.get(f"/games/{gid}/").status_code == 404
    r = friend.post(f"/api/v1/games/{gid}/join/", {"code": old})
    assert (r.status_code, r.json()["error"]["code"]) == (404, "not_found")
    assert friend.get(f"/api/v1/games/{gid}/").status_code == 404
    page.post(f"/games/{gid}/join/", {"code": old})
    assert not Seat.objects.filter(game_id=gid, user=friend.user).exists()


def test_a_removed_player_stays_out_even_with_the_new_link_until_invited(make_player):
    from games.models import Game, Seat

    gid, creator, friend, _old = _removed(make_player)
    new = Game.objects.get(pk=gid).invite_code
    r = friend.post(f"/api/v1/games/{gid}/join/", {"code": new})
    assert (r.status_code, r.json()["error"]["code"]) == (403, "removed_by_creator")
    creator.post(f"/api/v1/games/{gid}/invitations/", {"username": friend.user.username})
    assert friend.post(f"/api/v1/games/{gid}/join/").status_code == 200
    assert Seat.objects.filter(game_id=gid, user=friend.user).exists()


def test_a_player_removed_from_a_public_game_stays_out_too(make_player):
    gid, _creator, friend, _old = _removed(make_player, private=False)
    assert friend.get(f"/api/v1/games/{gid}/").status_code == 200  # public: seen by all
    r = friend.post(f"/api/v1/games/{gid}/join/")
    assert (r.status_code, r.json()["error"]["code"]) == (403, "removed_by_creator")


def test_a_removed_players_invitation_email_is_not_sent(make_player):
    """An invitation still waiting in the outbox when its player is removed says nothing."""
    from games import services
    from games.models import Notification
    from games.notifications.emails import email_build

    creator, guest = make_player(), make_player()
    gid = creator.post(
        "/api/v1/games/", {"map": "germany", "max_players": 3, "options": {"private": True}}
    ).json()["id"]
    services.game_invite(game_id=gid, user=creator.user, username=guest.user.username)
    services.game_join(game_id=gid, user=guest.user)
    services.game_seat_remove(game_id=gid, user=creator.user, seat_no=1)
    note = Notification.objects.get(kind="invited", recipient=guest.user)
    assert email_build(note) is None


def test_a_watcher_who_loses_the_game_is_cut_off(make_player, settings):
    """A private game's stream stops at the next keepalive once its watcher may not see it."""
    from games.models import Invitation

    settings.STREAM_FALLBACK_SECONDS = 0.01
    settings.STREAM_KEEPALIVE_SECONDS = 0.02
    settings.STREAM_REDIS_URL = ""
    w = _private_game(make_player)
    r = _client(w.invitee, True).get(f"/api/v1/stream/?game={w.gid}")
    chunks = iter(r.streaming_content)
    assert next(chunks).startswith(b"retry:")
    Invitation.objects.filter(game_id=w.gid, user=w.invitee.user).delete()
    rest = []
    for chunk in chunks:  # ends by itself at the next keepalive
        rest.append(chunk)
        if len(rest) > 50:
            break
    r.close()
    assert len(rest) <= 50, "the stream went on after its watcher lost the game"


def test_the_link_shows_only_an_open_games_lobby(make_player):
    """Its code shows a stranger the lobby while the game is open; once it runs, nothing."""
    w = _private_game(make_player, start=False)
    page = _client(w.outsider, False)
    assert page.get(f"/games/{w.gid}/invite/{w.code}/").status_code == 200
    w = _private_game(make_player)
    page = _client(w.outsider, False)
    assert page.get(f"/games/{w.gid}/invite/{w.code}/").status_code == 404
    r = w.outsider.post(f"/api/v1/games/{w.gid}/join/", {"code": w.code})
    assert (r.status_code, r.json()["error"]["code"]) == (404, "not_found")
