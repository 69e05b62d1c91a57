"""Who may watch a tournament's tables (issue 37): a table's game is as private as its
tournament. A public tournament's games are public: anyone may open them from its page. A
private one's stay private, its director and every entrant made their watchers
(``games.Watcher``) as each table's game is made; anyone else (a visitor with the tournament's
code among them) sees the table without a link, its game's number as text, and the game answers
404. The whole matrix, on the tournament's page (its tables and the standings' paths), a round's
own page, the game's page and the API's game."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

ROLES = ("director", "here", "elsewhere", "visitor", "stranger", "staff", "anonymous")


def _tournament(make_user, *, private: bool) -> tuple[Any, dict[str, Any], int, int]:
    """A running tournament of 7 entrants (tables of 4 and 3): the tournament, a user per role
    (None: anonymous), the game of table 1 and of table 2."""
    from tablehelpers import make_tables

    from tournaments import services
    from tournaments.models import Table

    director = make_user()
    t = services.tournament_create(
        director=director, name="Cup", maps=["germany"], table_min=3, table_max=4, private=private
    )
    entrants = [make_user() for _ in range(7)]
    for u in entrants:
        services.tournament_join(tournament_id=t.pk, user=u, code=t.invite_code)
    services.tournament_start(tournament_id=t.pk, user=director)
    assert make_tables() == 2
    tables = list(Table.objects.filter(round__tournament=t).order_by("number"))
    seated = {n: [p.entrant.user for p in table.players.all()] for n, table in enumerate(tables)}
    staff = make_user()
    staff.is_staff = True
    staff.save()
    roles = {
        "director": director,
        "here": seated[0][0],
        "elsewhere": seated[1][0],
        "visitor": make_user(),  # a public one's page; a private one's code (its link)
        "stranger": make_user(),
        "staff": staff,
        "anonymous": None,
    }
    return t, roles, tables[0].game_id, tables[1].game_id


def _client(user: Any, api: bool = False) -> Any:
    c = APIClient() if api else Client()
    if user is not None:
        c.force_login(user)
    return c


#: A private tournament's game: whom it answers (the director and every entrant are its
#: watchers or players; staff see every game).
PRIVATE_SEES = {"director", "here", "elsewhere", "staff"}
#: A private tournament's page: who reaches it and how (its code: ``?code=``; staff are not
#: given its page without the code, its director and entrants are).
PRIVATE_PAGE_CODE = {"visitor", "staff", "anonymous"}


@pytest.mark.parametrize("private", [False, True], ids=["public", "private"])
def test_the_matrix_of_who_sees_a_table(make_user, private):
    t, roles, gid, other = _tournament(make_user, private=private)
    problems = []
    for role in ROLES:
        user = roles[role]
        sees = not private or role in PRIVATE_SEES
        for game in (gid, other):
            page = _client(user).get(f"/games/{game}/").status_code
            api = _client(user, api=True).get(f"/api/v1/games/{game}/").status_code
            state = _client(user, api=True).get(f"/api/v1/games/{game}/state/").status_code
            want = 200 if sees else 404
            want_api = 401 if role == "anonymous" and sees else want  # the API asks who first
            if (page, api) != (want, want_api) or (state == 404) == sees:
                problems.append(f"{role} game {game}: page {page}, API {api}, state {state}")
        query = f"?code={t.invite_code}" if private and role in PRIVATE_PAGE_CODE else ""
        for url in (f"/tournaments/{t.pk}/", f"/tournaments/{t.pk}/rounds/1/"):
            r = _client(user).get(url + query)
            if private and role == "stranger":  # no code: no tournament either
                if r.status_code != 404:
                    problems.append(f"{role} {url}: {r.status_code}")
                continue
            body = r.content.decode()
            linked = f'href="/games/{gid}/"' in body and f'href="/games/{other}/"' in body
            if r.status_code != 200 or linked != sees:
                problems.append(f"{role} {url}: {r.status_code}, linked {linked}")
            if not sees and (re.search(r'href="/games/\d', body) or f"game #{gid}" not in body):
                problems.append(f"{role} {url}: a link, or no game number as text")
    assert not problems, "\n".join(problems)


def test_the_standings_path_names_an_unseen_game_by_its_number(make_user):
    """The code holder of a private tournament: every path step is its round and the game's
    number, no link; a watcher's steps link."""
    from tournaments.models import TablePlayer

    t, roles, gid, other = _tournament(make_user, private=True)
    body = _client(roles["visitor"]).get(f"/tournaments/{t.pk}/?code={t.invite_code}")
    text = body.content.decode()
    rows = text.split("<tbody>")[1].split("</tbody>")[0]
    assert "<a " not in rows
    at_gid = TablePlayer.objects.filter(table__game_id=gid).count()
    at_other = TablePlayer.objects.filter(table__game_id=other).count()
    assert (rows.count(f"R1 (game #{gid})"), rows.count(f"R1 (game #{other})")) == (
        at_gid,
        at_other,
    )
    mine = _client(roles["elsewhere"]).get(f"/tournaments/{t.pk}/").content.decode()
    rows = mine.split("<tbody>")[1].split("</tbody>")[0]
    assert rows.count(f'<a href="/games/{gid}/">R1</a>') == at_gid
    assert "game #" not in rows


def test_the_game_follows_the_tournaments_privacy_and_bot_level(make_user):
    from games.models import Game, Watcher
    from tournaments.models import Entrant

    for private in (False, True):
        t, roles, gid, other = _tournament(make_user, private=private)
        for game in Game.objects.filter(pk__in=[gid, other]):
            assert game.options["private"] is private
            assert game.options["bot_level"] == "beginner"  # the tournament's, not the default
        watchers = set(Watcher.objects.filter(game_id=gid).values_list("user_id", flat=True))
        if private:
            entrants = Entrant.objects.filter(tournament=t).values_list("user_id", flat=True)
            assert watchers == {roles["director"].pk, *entrants}
            assert Watcher.objects.filter(game_id=other).count() == len(watchers)
        else:
            assert watchers == set()


def test_a_watcher_of_a_table_sees_no_hidden_facts_and_cannot_move(make_user):
    """The director and an entrant of another table, watching: no legal move, nobody's money;
    a move is refused as from anyone without a seat."""
    from games.models import Game

    _t, roles, gid, _other = _tournament(make_user, private=True)
    seq = Game.objects.get(pk=gid).seq
    for role in ("director", "elsewhere"):
        c = _client(roles[role], api=True)
        state = c.get(f"/api/v1/games/{gid}/state/").json()
        assert state["legal"] == []
        assert {p["money"] for p in state["players"]} == {None}
        r = c.post(
            f"/api/v1/games/{gid}/moves/",
            {"action": {"type": "pass_auction"}, "expected_seq": seq},
            format="json",
        )
        assert (r.status_code, r.json()["error"]["code"]) == (403, "not_a_player")
    assert Game.objects.get(pk=gid).seq == seq
    own = _client(roles["here"], api=True).get(f"/api/v1/games/{gid}/state/").json()
    assert [p["money"] is not None for p in own["players"]].count(True) == 1


def test_the_migration_brings_tables_made_before_under_the_rule(make_user):
    """Tables made when every table's game was private (tournaments migration 0004): a public
    tournament's games become public, a private one's get its director and entrants as
    watchers, and no table takes substitutes; run twice, it changes nothing more."""
    import importlib

    from django.apps import apps

    from games.models import Game, Watcher
    from tournaments.models import Entrant

    migration = importlib.import_module("tournaments.migrations.0004_table_games_follow_privacy")
    _public, _roles, pub_gid, pub_other = _tournament(make_user, private=False)
    private, roles, gid, other = _tournament(make_user, private=True)
    for game in Game.objects.filter(pk__in=[pub_gid, pub_other, gid, other]):
        # as the old rule made them: private, substitutes by default, made as any game
        game.options = {**game.options, "private": True}
        game.options.pop("substitutes", None)
        game.made_for = ""
        game.save(update_fields=["options", "made_for"])
    Watcher.objects.all().delete()
    for _ in range(2):
        migration.forward(apps, None)
        assert not any(Game.objects.get(pk=g).options["private"] for g in (pub_gid, pub_other))
        assert all(Game.objects.get(pk=g).options["private"] for g in (gid, other))
        tables = (pub_gid, pub_other, gid, other)
        assert [Game.objects.get(pk=g).options["substitutes"] for g in tables] == [False] * 4
        assert {Game.objects.get(pk=g).made_for for g in tables} == {"tournaments"}
        everyone = {roles["director"].pk}
        everyone |= set(
            Entrant.objects.filter(tournament=private).values_list("user_id", flat=True)
        )
        for g in (gid, other):
            assert set(Watcher.objects.filter(game_id=g).values_list("user_id", flat=True)) == (
                everyone
            )
        assert Watcher.objects.count() == 2 * len(everyone)
    assert _client(roles["elsewhere"]).get(f"/games/{gid}/").status_code == 200
    assert _client(roles["stranger"]).get(f"/games/{pub_gid}/").status_code == 200


@pytest.mark.parametrize("private", [False, True])
def test_a_seat_left_at_a_table_is_nobodys_to_take(make_user, private):
    """A table's seats are its entrants' (``options.substitutes`` false): an entrant who leaves
    leaves the seat to the bot to the end. Nobody may take it, whoever may watch the game, nor
    offer a seat; the game is listed among no seats offered, and its page offers none."""
    from games.models import Game, Seat
    from games.services.seats import seat_resign

    _t, roles, gid, _other = _tournament(make_user, private=private)
    assert Game.objects.get(pk=gid).options["substitutes"] is False
    here = _client(roles["here"], api=True)
    r = here.post(f"/api/v1/games/{gid}/seeking/", {"seeking": True}, format="json")
    assert (r.status_code, r.json()["error"]["code"]) == (409, "no_substitutes")
    seat_resign(game_id=gid, user=roles["here"])
    seat = Seat.objects.get(game_id=gid, user=roles["here"])
    for role in ("director", "elsewhere", "visitor", "stranger", "staff"):
        c = _client(roles[role], api=True)
        listed = c.get("/api/v1/games/?seeking_substitute=true").json()["results"]
        assert gid not in [g["id"] for g in listed], role
        r = c.post(f"/api/v1/games/{gid}/substitute/", {"seat": seat.seat}, format="json")
        want = 409 if role in ("director", "elsewhere", "staff") or not private else 404
        assert r.status_code == want, (role, r.status_code, r.content[:200])
        if want == 409:
            assert r.json()["error"]["code"] == "no_substitutes", role
        page = _client(roles[role]).get(f"/games/{gid}/")
        assert "Take this seat" not in page.content.decode(), role
    seat.refresh_from_db()
    assert seat.user_id == roles["here"].pk
    assert seat.bot_controlled
    own = _client(roles["here"]).get(f"/games/{gid}/").content.decode()
    assert "The bot plays your seat to the end" in own
    assert "until a substitute takes it" not in own


def test_a_tables_player_is_offered_no_empty_seeking_form(make_user):
    """No seat is offered at a table: its player's seat card has the leave form only, not a
    seeking form left without a button (it answered "The form is not valid")."""
    _t, roles, gid, _other = _tournament(make_user, private=False)
    page = _client(roles["here"]).get(f"/games/{gid}/").content.decode()
    assert f"/games/{gid}/resign/" in page
    assert f"/games/{gid}/seeking/" not in page


@pytest.mark.parametrize("private", [False, True])
def test_a_tables_game_page_links_back_to_its_tournament(make_user, private):
    """The game's head names the round and table and links the tournament, for whoever may
    see the tournament (a private one's: its director and entrants); a game that is no table
    names nothing."""
    from games import services as lobby

    t, roles, gid, _other = _tournament(make_user, private=private)
    link = f'href="/tournaments/{t.pk}/"'
    for role in ROLES:
        page = _client(roles[role]).get(f"/games/{gid}/")
        if page.status_code != 200:
            continue  # a private table's game: 404 to them (walked above)
        html = page.content.decode()
        sees = not private or role in ("director", "here", "elsewhere")
        assert (link in html) is sees, role
        if sees:
            assert "Round 1, table 1 of Cup" in html, role
    plain = lobby.game_create(creator=roles["stranger"], map="germany", max_players=3)
    assert "part-of" not in _client(roles["stranger"]).get(f"/games/{plain.pk}/").content.decode()
