"""What an outside reviewer playing by keyboard and screen reader alone found (session 37), each
read from the pages as served, in both languages: a move's or a sheet's confirmation is shown
whichever cards the game's new position draws (a finished game has no sheet card); the game's end
says who won, and what broke a tie (shared/RULES.md), in the move card and in the log line the
live region reads; the result page's charts have their figures as tables; the resource market's
spaces say "price 2: 2 tokens" in their text; a game played move by move has no sheet card."""

from __future__ import annotations

import re
from typing import Any

import pytest
from apihelpers import play_to_end
from django.conf import settings
from django.test import Client
from django.utils import translation

from games.models import Game, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _language_back():
    """A Japanese page activates Japanese in this thread: the next test starts as usual."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


def _client(user: Any, lang: str) -> Client:
    user.profile.language = lang
    user.profile.save(update_fields=["language"])
    c = Client()
    c.force_login(user)
    return c


def _text(fragment: str) -> str:
    """The words a reader hears: tags add no space (Japanese runs a name into its sentence)."""
    return " ".join(re.sub(r"<[^>]+>", "", fragment).split())


def _rows(result: list[tuple[int, int, int, int]]) -> list[dict[str, int]]:
    keys = ("powered", "money", "cities", "rank")
    return [{"seat": i, **dict(zip(keys, r, strict=True))} for i, r in enumerate(result)]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_who_won_and_what_broke_the_tie(lang):
    from games.describe import winners_describe

    names = {0: "Anna", 1: "Ben", 2: "Cho"}
    with translation.override(lang):
        _ = translation.gettext
        alone = winners_describe(_rows([(5, 10, 6, 2), (7, 3, 7, 1), (4, 90, 5, 3)]), names)
        assert alone == _("%(name)s won.") % {"name": "Ben"}
        # A tie on cities powered, broken by money (the ja game's tie on 7 cities).
        money = winners_describe(_rows([(7, 12, 7, 1), (7, 9, 7, 2), (4, 90, 5, 3)]), names)
        assert money == _("%(name)s won: a tie on cities powered, broken by money.") % {
            "name": "Anna"
        }
        cities = winners_describe(_rows([(7, 12, 6, 2), (7, 12, 7, 1), (4, 9, 5, 3)]), names)
        assert cities == _(
            "%(name)s won: a tie on cities powered and money, broken by the cities connected."
        ) % {"name": "Ben"}
        both = winners_describe(_rows([(7, 12, 7, 1), (7, 12, 7, 1), (4, 9, 5, 3)]), names)
        assert both == _("%(names)s won together (a tie the rules do not break).") % {
            "names": _("%(list)s and %(last)s") % {"list": "Anna", "last": "Ben"}
        }
        assert winners_describe(None, names) == ""


def test_the_end_of_a_game_on_its_pages(new_game):
    """One game played to its end, read in both languages (playing one is the slow part)."""
    from games.describe import winners_describe
    from games.results import game_result
    from games.web.common import seat_names

    gid, ps = new_game(players=3)
    play_to_end(gid, ps)
    game = Game.objects.get(pk=gid)
    user = Seat.objects.filter(game=game, seat=0).get().user
    names = seat_names(game)
    from games import selectors

    result = selectors.game_state_for(game, user)["result"]
    charts = game_result(game).charts
    for lang in ("en", "ja"):
        c = _client(user, lang)
        with translation.override(lang):
            won = winners_describe(result, names)
            assert won
            page = c.get(f"/games/{gid}/").content.decode()
            # The "The game is over" card says who won.
            card = page[
                page.index('id="move-h"') : page.index("</section>", page.index('id="move-h"'))
            ]
            assert won in _text(card).replace("&#x27;", "'")
            # So does the log's last line, which the live region reads out.
            last = re.search(
                r'<li data-seq="\d+"[^>]*>.*?<span class="log-text">(.*?)</span>', page, re.S
            )
            assert last is not None
            assert _text(last.group(1)).endswith(_text(won)), last.group(1)

            # A confirmation left by the redirect is shown and focused though the game's new
            # position draws neither the move's form nor the sheet card (the game is over).
            for key, element, text in (
                ("games.sheet_done", "sheet-done", translation.gettext("Your sheet was kept.")),
                ("games.move_done", "move-done", translation.gettext("Your move was recorded.")),
            ):
                s = c.session
                s[key] = {"game": gid, "text": text}
                s.save()
                page = c.get(f"/games/{gid}/").content.decode()
                done = re.search(rf'<p id="{element}"([^>]*)>(.*?)</p>', page, re.S)
                assert done is not None, element
                for attr in ('role="status"', 'tabindex="-1"', "autofocus"):
                    assert attr in done.group(1)
                assert _text(done.group(2)) == text
                assert page.count("autofocus") == 1
                # Before the result, which follows it.
                assert page.index(f'id="{element}"') < page.index('id="move-h"')

            # The result page: each chart's figures as a table, round by round.
            html = c.get(f"/games/{gid}/result/").content.decode()
            tables = re.findall(r'<table class="chart-table">(.*?)</table>', html, re.S)
            assert len(tables) == len(charts) == 3
            for table, series in zip(tables, charts, strict=True):
                heads = re.findall(r'<th scope="col">(.*?)</th>', table, re.S)
                assert heads[0] == translation.gettext("Player")
                assert len(heads) == 1 + len(series.rounds)
                assert heads[1] == translation.gettext("Round %(n)s") % {"n": series.rounds[0]}
                body = re.findall(r"<tr><th scope=\"row\">(.*?)</th>(.*?)</tr>", table, re.S)
                assert len(body) == len(series.values)
                for (who, cells), (seat, values) in zip(
                    body, sorted(series.values.items()), strict=True
                ):
                    assert names[seat] in _text(who)
                    assert [
                        int(v) for v in re.findall(r'<td class="num">(\d+)</td>', cells)
                    ] == values
            assert html.count('<details class="chart-figures">') == 3


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_resource_market_says_its_tokens_in_words(started_game, lang):
    from games import selectors

    game, users = started_game()
    c = _client(users[0], lang)
    page = c.get(f"/games/{game.pk}/").content.decode()
    market = selectors.game_state_for(game, users[0])["resource_market"]
    with translation.override(lang):
        spaces = re.findall(r'<li class="space"([^>]*)>(.*?)</li>', page, re.S)
        assert spaces
        said: dict[int, int] = {}
        for attrs, inner in spaces:
            assert "aria-label" not in attrs  # no name on a thing nobody acts on
            words = re.search(r'<span class="sr-only">(.*?)</span>', inner)
            assert words is not None
            m = re.fullmatch(r"\D*(\d+)\D+(\d+)\D*", words.group(1))
            assert m is not None
            n = int(m.group(2))
            assert words.group(1) == translation.ngettext(
                "price %(p)s: %(n)s token", "price %(p)s: %(n)s tokens", n
            ) % {"p": m.group(1), "n": n}
            said[int(m.group(1))] = said.get(int(m.group(1)), 0) + n
    want: dict[int, int] = {}
    for prices in market.values():
        for p in prices:
            want[p] = want.get(p, 0) + 1
    assert {p: n for p, n in said.items() if n} == want


def test_a_game_played_move_by_move_has_no_sheet_card(started_game):
    game, users = started_game(options={"sheets": False})
    page = _client(users[1], "en").get(f"/games/{game.pk}/").content.decode()
    assert 'id="sheet"' not in page
    assert f'action="/games/{game.pk}/sheet/"' not in page
    game, users = started_game()
    page = _client(users[1], "en").get(f"/games/{game.pk}/").content.decode()
    assert 'id="sheet"' in page


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_smaller_findings(started_game, lang):
    """Flash messages: the status role on a wrapper, the list a list; headings with a second
    phrase hold it as an aside (in parentheses), not run together; the totals one live sentence
    (no ``output``, each a status of a bare number); the log's numbers named as links; the build
    form's cities with their unit."""
    from webhelpers import advance, fresh

    game, users = started_game()
    c = _client(users[0], lang)
    # A result asked before the end: a message on the game page it sends back to.
    page = c.get(f"/games/{game.pk}/result/", follow=True).content.decode()
    assert '<div role="status"><ul class="messages">' in page
    assert '<ul class="messages" role="status">' not in page
    with translation.override(lang):
        aside = "（{}）" if lang == "ja" else "({})"
        for h2 in ("players-h", "market-h"):
            heading = re.search(rf'<h2 id="{h2}">(.*?)</h2>', page, re.S)
            assert heading is not None
            said = _text(heading.group(1))
            second = {
                "players-h": translation.gettext("in player order"),
                "market-h": None,
            }[h2]
            if second:
                assert said.endswith(aside.format(second)), said
            else:
                assert re.search(r"[(（]\D*\d+\D+[)）]$", said), said
    assert "<output" not in page
    totals = re.findall(r'<p class="total"[^>]*>', page)
    assert totals
    for p in totals:
        assert 'aria-atomic="true"' in p
    game = advance(game, users, "build")
    builder = next(u for u in users if fresh(game).to_act[0] == users.index(u))
    page = _client(builder, lang).get(f"/games/{game.pk}/").content.decode()
    with translation.override(lang):
        links = re.findall(r'<li data-seq="(\d+)"[^>]*><a href="[^"]+" aria-label="([^"]+)">', page)
        assert links
        for seq, label in links:
            assert label == translation.gettext("The board after move %(n)s") % {"n": seq}
        cities = re.findall(r'<label class="city-choice">(.*?)</label>', page, re.S)
        assert cities
        for city in cities:
            m = re.search(r'<span class="muted">(.*?)</span>', city)
            assert m is not None
            assert re.fullmatch(
                re.escape(translation.gettext("%(m)s Elektro")).replace(r"%\(m\)s", r"\d+"),
                m.group(1),
            ), m.group(1)
