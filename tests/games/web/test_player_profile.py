"""The public player page (/players/<username>/): private games are shown only to the player
and to the players seated in them; finished games are listed with their map, the player's place
among how many, the day they ended and a link to their result, twenty a page, in a bounded
number of queries; a page number out of range or not a number never breaks the page."""

from __future__ import annotations

import datetime as dt
import functools
import re
from typing import Any

import pytest

pytestmark = pytest.mark.django_db


@functools.cache
def _final_state(players: int) -> Any:
    """A finished engine state for ``players`` on Germany (played by the heuristic bot once)."""
    import powergrid
    from powergrid.heuristic import HeuristicBot

    bot = HeuristicBot()
    state = powergrid.new_game(map="germany", players=players, seed=4242)
    while powergrid.to_act(state):
        seat = powergrid.to_act(state)[0]
        state = powergrid.apply(state, seat, bot.choose(state, seat))
    return state


def _finished_game(users: list[Any], *, private: bool = False, ended: Any = None) -> Any:
    """A finished game of ``users`` (in seat order), written as the move service leaves one
    (the final state cached on the row); its moves are not needed by the player page."""
    from django.utils import timezone

    import powergrid
    from games.models import Game, Seat, default_options
    from powergrid.tables import COLOURS

    state = _final_state(len(users))
    now = ended or timezone.now()
    game = Game.objects.create(
        creator=users[0],
        map="germany",
        max_players=len(users),
        options={**default_options(), "private": private},
        status=Game.Status.FINISHED,
        seed=4242,
        areas=list(state.areas),
        state_json=powergrid.to_json(state),
        seq=1,
        started_at=now - dt.timedelta(days=20),
        finished_at=now,
    )
    for i, u in enumerate(users):
        Seat.objects.create(game=game, seat=i, user=u, colour=COLOURS[i])
    return game


def _ranks(players: int) -> list[int]:
    return [int(row[3]) for row in _final_state(players).result]


def _links(page: str, game_id: int) -> bool:
    return f'href="/games/{game_id}/' in page


# -- 1. private games --------------------------------------------------------------------------


def test_private_games_are_shown_only_to_the_player_and_their_table(make_user, client_for, client):
    from games import services

    owner, mate, stranger = make_user(), make_user(), make_user()
    public = _finished_game([owner, stranger])
    hidden_done = _finished_game([owner, mate], private=True)
    # A private game under way, with another player (``mate`` is not in it).
    running = services.game_create(
        creator=owner, map="germany", max_players=2, options={"private": True}
    )
    services.game_join(game_id=running.pk, user=make_user(), code=running.invite_code)
    running.refresh_from_db()
    assert running.status == "running"
    hidden_open = services.game_create(
        creator=owner, map="germany", max_players=3, options={"private": True}
    )
    url = f"/players/{owner.username}/"

    for viewer in (client, client_for(stranger)):  # a visitor, another player not in them
        page = viewer.get(url).content.decode()
        assert _links(page, public.pk)
        for g in (hidden_done, running, hidden_open):
            assert not _links(page, g.pk), g.pk
            assert f"#{g.pk}<" not in page
            assert f"#{g.pk} " not in page
        assert "private" not in page.lower()  # not even a count of them

    mine = client_for(owner).get(url).content.decode()
    for g in (public, hidden_done, running, hidden_open):
        assert _links(mine, g.pk), g.pk

    # A player seated in a private game sees it on the others' pages; not the ones they are
    # not in.
    theirs = client_for(mate).get(url).content.decode()
    assert _links(theirs, hidden_done.pk)
    assert not _links(theirs, running.pk)
    assert not _links(theirs, hidden_open.pk)


# -- 2. finished games: what each row says, and pages ------------------------------------------


def test_a_finished_game_shows_map_place_date_and_result_link(make_user, client):
    a, b, c = make_user(), make_user(), make_user()
    ended = dt.datetime(2026, 3, 4, 12, 0, tzinfo=dt.UTC)
    game = _finished_game([a, b, c], ended=ended)
    ranks = _ranks(3)
    ordinals = {1: "1st", 2: "2nd", 3: "3rd"}
    for seat, user in enumerate((a, b, c)):
        page = client.get(f"/players/{user.username}/").content.decode()
        assert f'href="/games/{game.pk}/result/"' in page
        assert "Germany" in page
        assert f"{ordinals[ranks[seat]]} of 3 players" in page
        assert 'datetime="2026-03-04' in page


def test_the_finished_games_come_twenty_a_page(make_user, client):
    a, b = make_user(), make_user()
    start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    games = [_finished_game([a, b], ended=start + dt.timedelta(days=i)) for i in range(25)]
    newest_first = [g.pk for g in reversed(games)]
    url = f"/players/{a.username}/"

    def shown(page: str) -> list[int]:
        return [int(x) for x in re.findall(r'href="/games/(\d+)/result/"', page)]

    first = client.get(url).content.decode()
    assert shown(first) == newest_first[:20]
    assert 'href="?page=2#finished"' in first
    second = client.get(url, {"page": 2}).content.decode()
    assert shown(second) == newest_first[20:]
    assert 'href="?page=1#finished"' in second
    assert 'href="?page=3' not in second
    # Out of range: the last page; not a number: the first. Never an error.
    for page, expected in (("99", 20), ("0", 20), ("-1", 20), ("abc", 0), ("", 0), ("1e9", 0)):
        r = client.get(url, {"page": page})
        assert r.status_code == 200, page
        got = shown(r.content.decode())
        assert got == (newest_first[20:] if expected == 20 else newest_first[:20]), page


def test_the_player_page_reads_a_bounded_number_of_queries(make_user, client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    a, b = make_user(), make_user()
    _finished_game([a, b])
    url = f"/players/{a.username}/"
    client.get(url)  # warm the session and the caches of the first request
    with CaptureQueriesContext(connection) as few:
        assert client.get(url).status_code == 200
    for _ in range(24):
        _finished_game([a, b])
    with CaptureQueriesContext(connection) as many:
        assert client.get(url).status_code == 200
    assert len(many.captured_queries) <= len(few.captured_queries), [
        q["sql"] for q in many.captured_queries
    ]
    assert len(many.captured_queries) <= 12


def test_the_player_page_in_japanese(make_user, client):
    from i18n_helpers import english_words

    a, b = make_user(), make_user()
    for i in range(22):
        _finished_game([a, b], ended=dt.datetime(2026, 3, 1, tzinfo=dt.UTC) + dt.timedelta(i))
    client.cookies["django_language"] = "ja"
    page = client.get(f"/players/{a.username}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert 'lang="ja"' in page
    assert "ドイツ" in page
    rank = _ranks(2)[0]
    assert f"2人中{rank}位" in page
    assert english_words(page, {a.username, "Webuser", "bdi"}) == []


def test_a_game_whose_options_predate_the_private_option_is_public(make_user, client):
    from games.models import Game

    a, b = make_user(), make_user()
    old = _finished_game([a, b])
    Game.objects.filter(pk=old.pk).update(options={"turn_hours": 24})  # no "private" key
    assert _links(client.get(f"/players/{a.username}/").content.decode(), old.pk)
