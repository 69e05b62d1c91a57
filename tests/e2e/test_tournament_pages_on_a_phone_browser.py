"""The tournament and league pages at a 390 px phone width in Chromium, in English and Japanese
(issue 37): the lists, a running tournament's page (standings with each player's path, its
rounds and tables, a bye; and as a big one shows it: a page of the standings with the pages'
links, a round's tables on the round's own page), a league's page (a season's divisions and
standings, and a page of them with the pages' links), and both create pages, empty and
refused (each refusal beside its field). On each: the page itself never scrolls sideways
(``scrollWidth`` <= 390; a wide table scrolls inside its own ``.table-wrap``), and every
control that is not a link inside a sentence is a target of at least 24 x 24 CSS px (WCAG 2.2,
2.5.8). Players' names are long and unbroken, as a username may be."""

from __future__ import annotations

import re

import pytest
from e2ehelpers import users
from keyboardhelpers import EXPECTED, INSTALL, TARGET

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-phone-cup-12345"
PHONE = {"width": 390, "height": 844}

#: The page's width, and the elements and texts sticking out of it outside a box that scrolls
#: on purpose (a ``.table-wrap``; the box itself must fit).
WIDTH = """() => { const W = document.documentElement.clientWidth; const out = [];
  const inside = n => n.parentElement && n.parentElement.closest('.table-wrap');
  const what = e => e.tagName.toLowerCase() + (typeof e.className === 'string' && e.className
    ? '.' + e.className.trim().split(/\\s+/).join('.') : '');
  document.querySelectorAll('body *').forEach(e => {
    const r = e.getBoundingClientRect();
    if (r.width && r.right > W + 1 && !inside(e)) out.push(what(e) + ' ' + Math.round(r.right));
  });
  const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = texts.nextNode(); t; t = texts.nextNode()) {
    const range = document.createRange(); range.selectNodeContents(t);
    const r = range.getBoundingClientRect();
    if (r.width && r.right > W + 1 && !(t.parentElement.closest('.table-wrap')))
      out.push('text in ' + what(t.parentElement) + ' ' + Math.round(r.right) + ': '
        + t.textContent.trim().slice(0, 30));
  }
  return {page: document.documentElement.scrollWidth, wider: out.slice(0, 8)}; }"""

#: The main content's controls smaller than the target size that are not links in a sentence
#: (``EXPECTED`` marks every keyboard stop with ``data-kb``).
SMALL = f"""() => [...document.querySelectorAll('main [data-kb]')].filter(e => {{
    const r = e.getBoundingClientRect();
    return (r.width < {TARGET} - 0.01 || r.height < {TARGET} - 0.01) && !window.__kbInline(e);
  }}).map(e => window.__kbDescribe(e) + ' ' + Math.round(e.getBoundingClientRect().width)
    + 'x' + Math.round(e.getBoundingClientRect().height))"""


def _tournament(director, players, *, private=False):
    """A running tournament of tables of 5: round 1 ended (results written as a game's end
    writes them, rank 1 in the first seat), round 2 seated; 11 entrants, so each round sits
    one out."""
    from tournaments import scoring, services
    from tournaments.models import Table, TablePlayer

    t = services.tournament_create(
        director=director,
        name="Autumn open of the northern power grid club",
        maps=["germany"],
        table_min=5,
        table_max=5,
        rounds=3,
        private=private,
    )
    for u in players:
        services.tournament_join(tournament_id=t.pk, user=u, code=t.invite_code or "")
    services.tournament_start(tournament_id=t.pk, user=director)
    for table_id in Table.objects.filter(round__tournament=t).values_list("pk", flat=True):
        services.table_make(table_id=table_id)  # as the tasks queued after the start do
    for table in Table.objects.filter(round__tournament=t, round__number=1):
        seats = list(TablePlayer.objects.filter(table=table))
        points = scoring.table_points(list(range(1, len(seats) + 1)))
        for rank, (p, pts) in enumerate(zip(seats, points, strict=True), start=1):
            p.rank, p.points, p.powered, p.money = rank, pts, 18 - rank, 40 + rank
        TablePlayer.objects.bulk_update(seats, ["rank", "points", "powered", "money"])
        table.finished = True
        table.save(update_fields=["finished"])
    services.tournament_game_ended(game_id=table.game_id)  # the round's last: round 2 seated
    for table_id in Table.objects.filter(round__tournament=t, game__isnull=True).values_list(
        "pk", flat=True
    ):
        services.table_make(table_id=table_id)
    return t


def _league(director, players):
    from tournaments import leagues, services
    from tournaments.models import Table

    league = leagues.league_create(
        director=director,
        name="Sunday evening league of the northern club",
        maps=["germany"],
        table_min=3,
        table_max=3,
        rounds=2,
        division_size=3,
        movers=1,
    )
    for u in players[:7]:
        leagues.league_join(league_id=league.pk, user=u)
    leagues.league_start(league_id=league.pk, user=director)
    for table_id in Table.objects.filter(game__isnull=True).values_list("pk", flat=True):
        services.table_make(table_id=table_id)  # as the tasks queued after the start do
    leagues.league_join(league_id=league.pk, user=players[7])  # waits for the next season
    return league


def _log_in(page, base, user, lang):
    page.set_default_timeout(15_000)
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", user.username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/$"))
    assert page.locator("html").get_attribute("lang") == lang


def _check(page, what, bad):
    width = page.evaluate(WIDTH)
    if width["page"] > PHONE["width"]:
        bad[f"{what}: wider"] = width
    page.evaluate(INSTALL)
    page.evaluate(EXPECTED)
    small = page.evaluate(SMALL)
    if small:
        bad[f"{what}: small targets"] = small


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_tournament_and_league_pages_fit_a_phone(live_server, browser, lang, monkeypatch):
    from tournaments import league_present, league_web, present, web
    from tournaments.models import Round

    players = users(f"averylongunbrokenusernameofaplayer{lang}", 11, PASSWORD)
    director = players[0]
    for u in players:
        u.profile.language = lang
        u.profile.save()
    t = _tournament(director, players)
    assert Round.objects.filter(tournament=t).count() == 2
    league = _league(director, players)
    base = live_server.url
    page = browser.new_page(viewport=PHONE, locale="en-GB")
    _log_in(page, base, director, lang)
    bad: dict[str, object] = {}
    for path in (
        "/tournaments/",
        f"/tournaments/{t.pk}/",
        "/tournaments/new/",
        "/leagues/",
        f"/leagues/{league.pk}/",
        "/leagues/new/",
    ):
        page.goto(base + path)
        _check(page, path, bad)
    # what the pages were to show is there: tables linking to games, standings, a bye
    page.goto(f"{base}/tournaments/{t.pk}/")
    assert page.locator("main .table-wrap table tbody tr").count() == 11
    assert page.locator("main a[href^='/games/']").count() >= 4
    page.goto(f"{base}/leagues/{league.pk}/")
    assert page.locator("main .table-wrap table").count() == 2
    # the director plays too: their division, a link on a line of its own (checked above)
    assert page.locator("main a[href*='season=1#d']").count() == 1
    # a big tournament's page: the standings in pages, your place, rounds on their own pages
    monkeypatch.setattr(present, "STANDINGS_PER_PAGE", 4)
    monkeypatch.setattr(present, "TABLES_INLINE", 1)
    for path in (f"/tournaments/{t.pk}/?page=2", f"/tournaments/{t.pk}/rounds/1/"):
        page.goto(base + path)
        _check(page, path, bad)
    page.goto(f"{base}/tournaments/{t.pk}/?page=2")
    assert page.locator("main nav.pager a").count() == 2
    # the director plays too: their place, a link on a line of its own (a target checked above)
    assert page.locator("main a[href$='#me']").count() == 1
    assert page.locator(f"main a[href='/tournaments/{t.pk}/rounds/2/']").count() == 1
    # a round's tables and the lists a page at a time: the page links fit at 390 px too
    monkeypatch.setattr(present, "TABLES_PER_PAGE", 1)
    monkeypatch.setattr(web, "TOURNAMENTS_PER_PAGE", 1)
    monkeypatch.setattr(league_web, "LEAGUES_PER_PAGE", 1)
    monkeypatch.setattr(league_present, "DIVISIONS_PER_PAGE", 1)
    for path in (
        f"/tournaments/{t.pk}/rounds/1/?page=2",
        "/tournaments/",
        "/leagues/",
        f"/leagues/{league.pk}/?page=2",
    ):
        page.goto(base + path)
        _check(page, path, bad)
    page.goto(f"{base}/tournaments/{t.pk}/rounds/1/?page=2")
    assert page.locator("main nav.pager a").count() >= 1
    page.goto(f"{base}/leagues/{league.pk}/?page=2")  # a season's divisions a page at a time
    assert page.locator("main .table-wrap table").count() == 1
    assert page.locator("main nav.pager a").count() >= 1
    # the create pages refused: each refusal beside its field, at 390 px too
    page.goto(f"{base}/tournaments/new/")
    page.fill("#id_name", "")
    page.select_option("#id_table_min", "5")
    page.select_option("#id_table_max", "4")
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    assert page.locator("main .error[role=alert]").count() == 1
    _check(page, "/tournaments/new/ refused", bad)
    page.goto(f"{base}/leagues/new/")
    page.fill("#id_name", "Refused league with a long name of many words")
    page.fill("#id_division_size", "4")
    page.fill("#id_movers", "3")
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    assert page.locator("main .error[role=alert]").count() == 1
    assert page.input_value("#id_name") == "Refused league with a long name of many words"
    _check(page, "/leagues/new/ refused", bad)
    assert bad == {}


#: How the page and its boxes scroll sideways (none should: the standings are rows of lines on
#: a phone), and the steps of a path, table places and game numbers broken across lines.
SIDEWAYS = """() => ({
  page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
  boxes: [...document.querySelectorAll('main .table-wrap')]
    .filter(w => w.scrollWidth > w.clientWidth).map(w => w.scrollWidth + '>' + w.clientWidth),
  broken: [...document.querySelectorAll('main .step')].filter(s => {
    const range = document.createRange(); range.selectNodeContents(s);
    const tops = [...range.getClientRects()].filter(r => r.width).map(r => r.top);
    return Math.max(...tops) - Math.min(...tops) > parseFloat(getComputedStyle(s).fontSize) / 2;
  }).map(s => s.textContent),
  steps: document.querySelectorAll('main .step').length })"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_standings_never_scroll_sideways_on_a_phone(live_server, browser, lang):
    """A tournament's page with a round ended and one playing, as its player sees it (its
    games linked) and as a visitor with the private link's code (its games by number,
    "R1 (game #12) 2/5"), and a league's page: at 390 px neither the page nor its tables scroll
    sideways (``scrollWidth`` <= ``clientWidth``: the standings' path made the table 618 px
    wide), no step of a path breaks inside, and the ended table lists its players in the order
    they finished."""
    from django.contrib.auth import get_user_model

    players = users(f"averylongunbrokenusernameofaplayer{lang}", 11, PASSWORD)
    visitor = get_user_model().objects.create_user(f"visitor{lang}", "v@example.com", PASSWORD)
    for u in [*players, visitor]:
        u.profile.language = lang
        u.profile.save()
    t = _tournament(players[0], players, private=True)
    league = _league(players[0], players)
    base = live_server.url
    seen: dict[str, object] = {}
    for who, path in (
        (players[0], f"/tournaments/{t.pk}/"),
        (players[0], f"/leagues/{league.pk}/"),
        (visitor, f"/tournaments/{t.pk}/?code={t.invite_code}"),
    ):
        page = browser.new_page(viewport=PHONE, locale="en-GB")
        _log_in(page, base, who, lang)
        page.goto(base + path)
        seen[path] = found = page.evaluate(SIDEWAYS)
        assert found["page"][0] <= found["page"][1] == PHONE["width"], (path, found)
        assert found["boxes"] == [], (path, found)
        assert found["broken"] == [], (path, found)
        if path.startswith("/tournaments/"):  # each row's path, each ended table's places
            assert found["steps"] >= 11 + 10, (path, found)
            ended = page.locator("main section[aria-labelledby=r1-h] li").first
            places = ended.locator(".step").all_inner_texts()
            assert [p.rstrip(".位") for p in places[-5:]] == ["1", "2", "3", "4", "5"]
    assert "#" in page.locator("main table.standings").inner_text()  # the visitor's "game #"
