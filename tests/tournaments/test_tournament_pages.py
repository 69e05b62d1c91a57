"""The tournaments' pages: reachable from the lobby, rounds, tables linking to games,
standings with each player's path, the forms (no JavaScript), in English and Japanese."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.i18n_helpers import english_words, ensure_compiled

pytestmark = pytest.mark.django_db


def _running(make_user):
    from tournaments import services

    director = make_user("director")
    t = services.tournament_create(
        director=director, name="Cup", maps=["germany"], table_min=3, table_max=4, rounds=2
    )
    users = [make_user() for _ in range(7)]
    for u in users:
        services.tournament_join(tournament_id=t.pk, user=u)
    return t, director, users


def test_list_from_the_lobby_and_forms_without_javascript(make_user):
    from tablehelpers import make_tables

    from tournaments.models import Table

    t, director, _users = _running(make_user)
    c = Client()
    c.force_login(director)
    home = c.get("/").content.decode()
    assert 'href="/tournaments/"' in home
    page = c.get("/tournaments/").content.decode()
    assert f'href="/tournaments/{t.pk}/"' in page
    page = c.get(f"/tournaments/{t.pk}/").content.decode()
    assert f'action="/tournaments/{t.pk}/start/"' in page
    r = c.post(f"/tournaments/{t.pk}/start/")
    assert r.status_code == 302
    page = c.get(f"/tournaments/{t.pk}/").content.decode()
    assert page.count("being set up") == 2 + 7  # two tables, each entrant's path (R1)
    make_tables()  # the tasks queued after the start's commit make the tables' games
    page = c.get(f"/tournaments/{t.pk}/").content.decode()
    assert "being set up" not in page
    for table in Table.objects.filter(round__tournament=t):
        assert f'href="/games/{table.game_id}/"' in page
    assert "Standings" in page
    # a refusal reads as a sentence, changes nothing
    late = make_user()
    c.force_login(late)
    r = c.post(f"/tournaments/{t.pk}/join/", follow=True)
    assert "sign-up is closed" in r.content.decode()


def test_pages_in_japanese(make_user, monkeypatch):
    from tablehelpers import make_tables

    from tournaments import services

    ensure_compiled()
    t, director, users = _running(make_user)
    director.profile.language = "ja"
    director.profile.save()
    services.tournament_start(tournament_id=t.pk, user=director)
    make_tables()
    c = Client()
    c.force_login(director)
    names = {u.username for u in users} | {"Cup", "R1", "R2"}
    for url in ("/tournaments/", f"/tournaments/{t.pk}/"):
        html = c.get(url).content.decode()
        assert 'lang="ja"' in html
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", html)
        assert english_words(html, names) == [], url
    # as a big tournament shows: a page of the standings, your place, a round's own page
    from tournaments import present

    monkeypatch.setattr(present, "STANDINGS_PER_PAGE", 3)
    monkeypatch.setattr(present, "TABLES_INLINE", 1)
    users[0].profile.language = "ja"
    users[0].profile.save()
    c.force_login(users[0])
    for url in (f"/tournaments/{t.pk}/?page=2", f"/tournaments/{t.pk}/rounds/1/"):
        html = c.get(url).content.decode()
        assert english_words(html, names) == [], url


def test_private_page_is_404_without_code(make_user):
    from tournaments import services

    d = make_user()
    t = services.tournament_create(director=d, name="Secret", maps=["germany"], private=True)
    c = Client()
    c.force_login(make_user())
    assert c.get(f"/tournaments/{t.pk}/").status_code == 404
    assert "Secret" not in c.get("/tournaments/").content.decode()
    assert c.get(f"/tournaments/{t.pk}/?code={t.invite_code}").status_code == 200


def test_standings_in_pages_with_your_place_and_paths(make_user, monkeypatch):
    """A big tournament's page shows a page of the standings at a time (3 here, 100 on the
    site), each row's path linking to its table's game, and where the viewer stands."""
    from tablehelpers import make_tables

    from tournaments import present, services
    from tournaments.models import Entrant, TablePlayer

    monkeypatch.setattr(present, "STANDINGS_PER_PAGE", 3)
    t, director, _users = _running(make_user)
    services.tournament_start(tournament_id=t.pk, user=director)
    make_tables()
    c = Client()
    c.force_login(director)  # not an entrant: no place of their own
    page = c.get(f"/tournaments/{t.pk}/").content.decode()
    assert page.count("<tr") == 1 + 3  # the heading's row and three players
    assert "Page 1 of 3" in page
    assert 'href="?page=2#st-h" rel="next"' in page
    assert "Your place" not in page
    assert 'rel="prev"' not in page
    game_of = dict(TablePlayer.objects.values_list("entrant__user__username", "table__game_id"))
    standings = page.split('aria-labelledby="st-h"', 1)[1].split("</section>", 1)[0]
    shown = re.findall(
        r'<tr><td>\d+</td><td><bdi translate="no">(\w+)</bdi>.*?</tr>', standings, re.S
    )
    assert len(shown) == 3
    for name in shown:  # each path's R1 is its table's game
        row = re.search(rf">{name}</bdi>.*?</tr>", standings, re.S)
        assert row is not None
        assert f'<a href="/games/{game_of[name]}/">R1</a>' in row.group(0)
    last = c.get(f"/tournaments/{t.pk}/?page=3").content.decode()
    assert last.count("<tr") == 1 + 1
    assert 'href="?page=2#st-h" rel="prev"' in last
    assert "Page 3 of 3" in c.get(f"/tournaments/{t.pk}/?page=99").content.decode()  # the last
    assert "Page 1 of 3" in c.get(f"/tournaments/{t.pk}/?page=x").content.decode()
    # a player sees their place, linked to the page that holds their row
    me = Entrant.objects.filter(tournament=t).order_by("-pk").first().user  # joined last: 7th
    c.force_login(me)
    page = c.get(f"/tournaments/{t.pk}/").content.decode()
    assert re.search(r'<a href="\?page=3#me">Your place: \d</a>', page)
    assert 'id="me"' not in page
    assert 'id="me"' in c.get(f"/tournaments/{t.pk}/?page=3").content.decode()


def test_a_big_round_lists_its_tables_on_its_own_page(make_user, monkeypatch):
    from tablehelpers import make_tables

    from tournaments import present, services
    from tournaments.models import Table

    monkeypatch.setattr(present, "TABLES_INLINE", 1)
    d = make_user()
    t = services.tournament_create(
        director=d, name="Hidden", maps=["germany"], table_min=3, table_max=4, private=True
    )
    for u in [make_user() for _ in range(7)]:
        services.tournament_join(tournament_id=t.pk, user=u, code=t.invite_code)
    services.tournament_start(tournament_id=t.pk, user=d)
    c = Client()
    c.force_login(d)
    page = c.get(f"/tournaments/{t.pk}/").content.decode()
    assert "2 tables, 0 ended" in page
    assert "2 tables being set up" in page  # their games not made yet (issue 37)
    html = c.get(f"/tournaments/{t.pk}/rounds/1/").content.decode()
    assert html.count("being set up") == 2
    assert not re.search(r'href="/games/\d+/"', html)
    assert make_tables() == 2
    games = list(Table.objects.filter(round__tournament=t).values_list("game_id", flat=True))
    c = Client()
    c.force_login(d)
    page = c.get(f"/tournaments/{t.pk}/").content.decode()
    assert "2 tables, 0 ended" in page
    assert "being set up" not in page
    assert f'href="/tournaments/{t.pk}/rounds/1/"' in page
    assert "Table 1" not in page
    rnd = c.get(f"/tournaments/{t.pk}/rounds/1/")
    assert rnd.status_code == 200
    html = rnd.content.decode()
    for game in games:
        assert f'href="/games/{game}/"' in html
    assert "Table 2" in html
    assert c.get(f"/tournaments/{t.pk}/rounds/2/").status_code == 404
    assert c.get(f"/tournaments/{t.pk}/rounds/99999/").status_code == 404
    # a private tournament's round: as its page, only with its code to a stranger
    c.force_login(make_user())
    assert c.get(f"/tournaments/{t.pk}/rounds/1/").status_code == 404
    r = c.get(f"/tournaments/{t.pk}/rounds/1/?code={t.invite_code}")
    assert r.status_code == 200
    assert f'href="/tournaments/{t.pk}/?code={t.invite_code}"' in r.content.decode()


def _round_part(html: str, number: int) -> str:
    """Round ``number``'s card on the tournament's page."""
    return html.split(f'aria-labelledby="r{number}-h"', 1)[1].split("</section>", 1)[0]


def _table_lines(part: str) -> list[tuple[list[str], list[str]]]:
    """Each table's line in a part of a page: its players' names and their places, in order."""
    return [
        (
            re.findall(r'<bdi translate="no">(\w+)</bdi>', line),
            re.findall(r'<span class="step">(\d+)\.</span>', line),
        )
        for line in re.findall(r"<li>(.*?)</li>", part, re.S)
        if "Table " in line
    ]


def test_an_ended_table_lists_its_players_in_the_order_they_finished(make_user):
    """An ended table's players come rank 1 first, each with their place (ties by seat), on
    the tournament's page and on the round's own; a table still playing keeps its seat order,
    the order of play. Every table size reads as it is: "tables of 3-4", "tables of 5"."""
    from tablehelpers import make_tables

    from tournaments import present, services
    from tournaments.models import Table, TablePlayer

    t, director, _users = _running(make_user)
    services.tournament_start(tournament_id=t.pk, user=director)
    make_tables()
    # ranks against the seats, a tie among them: seat -> rank
    ranks = {4: [3, 1, 4, 1], 3: [2, 2, 1]}
    expected: dict[int, list[str]] = {}
    for table in Table.objects.filter(round__tournament=t, round__number=1):
        seats = list(TablePlayer.objects.filter(table=table).select_related("entrant__user"))
        for p, rank in zip(seats, ranks[len(seats)], strict=True):
            p.rank, p.points, p.powered, p.money = rank, 100 - 10 * rank, 10, 50
        TablePlayer.objects.bulk_update(seats, ["rank", "points", "powered", "money"])
        table.finished = True
        table.save(update_fields=["finished"])
        by_rank = sorted(seats, key=lambda p: (p.rank, p.seat))
        expected[table.number] = [p.entrant.user.username for p in by_rank]
    services.tournament_game_ended(game_id=table.game_id)  # the round's last: round 2 seated
    c = Client()
    c.force_login(director)
    page = c.get(f"/tournaments/{t.pk}/").content.decode()
    own = c.get(f"/tournaments/{t.pk}/rounds/1/").content.decode()
    for part in (_round_part(page, 1), own.split("<h1>", 1)[1]):
        lines = _table_lines(part)
        assert [names for names, _ in lines] == [expected[1], expected[2]]
        assert [places for _, places in lines] == [["1", "1", "3", "4"], ["1", "2", "2"]]
    playing = [
        [p["username"] for p in table["players"]]
        for table in present.round_page(t, 2, 1)[0]["tables"]  # the shapes' order: the seats'
    ]
    assert len(playing) == 2
    assert [names for names, _ in _table_lines(_round_part(page, 2))] == playing
    assert all(places == [] for _, places in _table_lines(_round_part(page, 2)))
    assert "tables of 3-4" in page
    assert "tables of 3-4" in c.get("/tournaments/").content.decode()
    five = services.tournament_create(
        director=director, name="Fives", maps=["germany"], table_min=5, table_max=5
    )
    for html in (c.get(f"/tournaments/{five.pk}/"), c.get("/tournaments/")):
        text = html.content.decode()
        assert re.search(r"tables of 5(?![-\d])", text)
        assert "5-5" not in text


def _tables_shown(html: str) -> list[int]:
    return [int(n) for n in re.findall(r"Table (\d+)", html)]


def test_a_big_rounds_page_and_the_list_link_their_pages(make_user):
    """A round of 51 tables lists 50 on its page and links page 2, which shows table 51 (a
    private tournament's code kept in the links); the list shows 50 tournaments and page 2 the
    51st (the oldest). A page number that is not one opens the first page, one out of range the
    last (``Paginator.get_page``)."""
    from tests.tournaments.test_api_paging import _started
    from tournaments import services
    from tournaments.models import Tournament

    director = make_user()
    t = _started(director, 153, private=True, table_max=3)
    c = Client()
    c.force_login(director)
    base = f"/tournaments/{t.pk}/rounds/1/"
    first = c.get(base).content.decode()
    assert _tables_shown(first) == list(range(1, 51))
    assert 'href="?page=2" rel="next"' in first
    assert 'rel="prev"' not in first
    assert "Page 1 of 2" in first
    second = c.get(f"{base}?page=2").content.decode()
    assert _tables_shown(second) == [51]
    assert 'href="?page=1" rel="prev"' in second
    assert 'rel="next"' not in second
    assert _tables_shown(c.get(f"{base}?page=abc").content.decode())[0] == 1
    for out in ("?page=0", "?page=99"):
        assert _tables_shown(c.get(base + out).content.decode()) == [51]
    stranger = Client()
    stranger.force_login(make_user())
    assert stranger.get(f"{base}?page=2").status_code == 404
    shown = stranger.get(f"{base}?page=2&code={t.invite_code}").content.decode()
    assert _tables_shown(shown) == [51]
    assert f'href="?page=1&amp;code={t.invite_code}" rel="prev"' in shown
    Tournament.objects.filter(pk=t.pk).update(private=False)
    for i in range(50):
        services.tournament_create(director=director, name=f"Cup {i}", maps=["germany"])
    listed = c.get("/tournaments/").content.decode()
    assert f'href="/tournaments/{t.pk}/"' not in listed  # the oldest: the 51st
    assert 'href="?page=2" rel="next"' in listed
    older = c.get("/tournaments/?page=2").content.decode()
    assert f'href="/tournaments/{t.pk}/"' in older
    assert older.count('<li class="facts">') == 1
