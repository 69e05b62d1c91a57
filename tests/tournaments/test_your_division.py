"""A league's page shows a player of the season shown a "Your division" link near its top, to
the page of divisions (``?page=``, the season kept) and the heading holding theirs, with their
row marked; a visitor, a signed-in player who is not in the league and a member who waits for
the next season see none. The API's league says the same (``your_division`` on each season),
so a client reads its own division's page of the season without paging through the rest."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.api_schema import ValidatingAPIClient as APIClient
from tests.i18n_helpers import ensure_compiled
from tests.tournaments.test_api_paging import _league_started

pytestmark = pytest.mark.django_db

#: The link: its address (the page and the season kept, then the division's heading) and words.
_LINK = re.compile(r'<p class="small"><a href="(\?page=\d+&amp;season=\d+#d\d+-h)">([^<]+)</a></p>')


def _player_of(league: Any, season: int, division: int) -> Any:
    """The first entrant of ``division`` in ``season`` (a user)."""
    from tournaments.models import Entrant

    return (
        Entrant.objects.filter(
            tournament__division__season__league=league,
            tournament__division__season__number=season,
            tournament__division__number=division,
        )
        .select_related("user")
        .first()
        .user
    )


def _page(user: Any | None, url: str) -> str:
    c = Client()
    if user is not None:
        c.force_login(user)
    r = c.get(url)
    assert r.status_code == 200, url
    return r.content.decode()


def _links(html: str) -> list[tuple[str, str]]:
    return _LINK.findall(html)


@pytest.mark.parametrize(("division", "page"), [(1, 1), (12, 2)])
def test_the_link_opens_the_page_and_heading_of_your_division(make_user, division, page):
    """Twelve divisions of 3, ten a page: a player of division 1 is sent to page 1, one of
    division 12 (the last) to page 2, from either page, and the page opened holds the heading
    the link names, with their row marked (only theirs)."""
    league = _league_started(make_user(), 36)
    player = _player_of(league, 1, division)
    base = f"/leagues/{league.pk}/"
    for url in (base, f"{base}?page=2&season=1"):
        html = _page(player, url)
        assert _links(html) == [
            (f"?page={page}&amp;season=1#d{division}-h", f"Your division: {division}")
        ]
        # near the top: before the first division, not after ten of them
        assert html.index("Your division") < html.index('<section class="card"')
    href = unescape(_links(_page(player, base))[0][0])
    opened = _page(player, base + href.split("#")[0])
    assert f'<h2 id="d{division}-h">' in opened
    marked = re.findall(
        r'<tr class="your-turn" aria-current="true"><td>\d+</td><td><bdi translate="no">'
        r"([^<]*)</bdi> <span class=\"muted\">(.*?)</span>",
        opened,
    )
    # marked in words too, not by colour alone: a screen reader reads "(you)" in the row
    assert marked == [(player.username, "(you)")]
    assert opened.count("(you)") == 1


def test_finding_your_division_reads_no_division(make_user):
    """The division is read with the league (one query for all the player's seasons), not by
    reading divisions: a player of the last division costs the page no more queries than a
    signed-in player who is not in the league."""
    league = _league_started(make_user(), 36)
    counts = {}
    for who, user in (("last", _player_of(league, 1, 12)), ("other", make_user())):
        c = Client()
        c.force_login(user)
        with CaptureQueriesContext(connection) as seen:
            html = c.get(f"/leagues/{league.pk}/").content.decode()
        counts[who] = len(seen.captured_queries)
        assert ("Your division" in html) == (who == "last")
    assert counts["last"] == counts["other"]


def test_no_link_for_a_visitor_a_stranger_or_a_member_who_waits(make_user):
    """Only a player of the season shown has the link: not a visitor, not a signed-in player
    outside the league, not a member who joined during the season (plays from the next)."""
    from tournaments import leagues

    league = _league_started(make_user(), 12)
    waits = make_user()
    leagues.league_join(league_id=league.pk, user=waits)
    base = f"/leagues/{league.pk}/"
    for who in (None, make_user(), waits):
        html = _page(who, base)
        assert "Season 1, division 4" in html  # the season is shown
        assert _links(html) == [], who
        assert "Your division" not in html
        assert 'class="your-turn"' not in html
    assert "Waiting for the next season" in _page(waits, base)


def test_the_link_follows_the_season_shown(make_user):
    """A member who waited through season 1 and plays season 2 has the link on season 2 (the
    last, shown by default) and none on season 1; one who played season 1 has it there too,
    the season kept in its address."""
    from tournaments import leagues
    from tournaments.models import Tournament

    league = _league_started(make_user(), 6)
    waits = make_user()
    leagues.league_join(league_id=league.pk, user=waits)
    played = _player_of(league, 1, 2)
    Tournament.objects.filter(division__season__league=league).update(status="finished")
    leagues.season_check(league_id=league.pk)  # as a division's last table's end does
    assert league.seasons.count() == 2
    base = f"/leagues/{league.pk}/"
    (link,) = _links(_page(waits, base))
    assert link[0].startswith("?page=1&amp;season=2#d")
    assert _links(_page(waits, f"{base}?season=1")) == []
    assert _links(_page(played, f"{base}?season=1")) == [
        ("?page=1&amp;season=1#d2-h", "Your division: 2")
    ]


def test_the_link_in_japanese(make_user):
    from accounts.models import Profile

    ensure_compiled()
    league = _league_started(make_user(), 36)
    player = _player_of(league, 1, 12)
    Profile.objects.update_or_create(user=player, defaults={"language": "ja"})  # made in bulk
    html = _page(player, f"/leagues/{league.pk}/")
    assert 'lang="ja"' in html
    assert _links(html) == [("?page=2&amp;season=1#d12-h", "あなたのディビジョン：12")]


def test_the_api_says_your_division_in_each_season(make_user):
    """``your_division`` on the league's seasons: the player's division, null for a stranger;
    the season's page at ``offset`` = it less 1 opens with that division, the player in it."""
    league = _league_started(make_user(), 36)
    player = _player_of(league, 1, 12)
    stranger = make_user()
    for user, expected in ((player, 12), (stranger, None)):
        c = APIClient()
        c.force_authenticate(user)
        body = c.get(f"/api/v1/leagues/{league.pk}/").json()
        assert [(s["number"], s["your_division"]) for s in body["seasons"]] == [(1, expected)]
    c = APIClient()
    c.force_authenticate(player)
    body = c.get(f"/api/v1/leagues/{league.pk}/seasons/1/?offset=11&limit=1").json()
    (division,) = body["results"]
    assert division["number"] == 12
    assert player.username in [r["username"] for r in division["rows"]]


def test_a_divisions_tournament_links_to_its_division_on_the_league_page(make_user):
    """A division's own tournament page names its league season and division and links to the
    page of the league holding that division, at its heading (page 2 for division 12 of 12),
    and the league page's title says which page it is."""
    from tournaments.models import Division

    league = _league_started(make_user(), 36)
    for number, page in ((3, 1), (12, 2)):
        d = Division.objects.get(season__league=league, season__number=1, number=number)
        html = _page(None, f"/tournaments/{d.tournament_id}/")
        href = f"/leagues/{league.pk}/?page={page}&amp;season=1#d{number}-h"
        assert f'<a href="{href}">League season 1, division {number}</a>' in html
        opened = _page(None, unescape(href).split("#")[0])
        assert f'<h2 id="d{number}-h">' in opened
    title = re.search(
        r"<title>(.*?)</title>", _page(None, f"/leagues/{league.pk}/?page=2&season=1"), re.S
    )
    assert title
    assert "Page 2 of 2" in title.group(1)
    first = re.search(r"<title>(.*?)</title>", _page(None, f"/leagues/{league.pk}/"), re.S)
    assert first
    assert "Page" not in first.group(1)
