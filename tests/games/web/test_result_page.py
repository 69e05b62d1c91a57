"""A finished game's result page: the score table in rank order and three SVG charts (money,
cities, plants) whose last points are the final figures; none for a game under way (money is
secret until the end); in Japanese too."""

from __future__ import annotations

import pytest
from apihelpers import play_to_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(new_game):
    gid, ps = new_game(players=3)
    play_to_end(gid, ps)
    return gid, ps


def test_a_running_game_has_no_result_yet(new_game, client):
    gid, _ps = new_game(players=3)
    r = client.get(f"/games/{gid}/result/")
    assert r.status_code == 302
    assert r["Location"] == f"/games/{gid}/"


def test_the_result_shows_scores_in_rank_order_and_three_charts(finished, client):
    gid, _ps = finished
    from games.models import Game
    from games.results import game_result

    result = game_result(Game.objects.get(pk=gid))
    assert [r["rank"] for r in result.rows] == sorted(r["rank"] for r in result.rows)
    assert [c.key for c in result.charts] == ["money", "cities", "plants"]
    money, cities, _plants = result.charts
    for row in result.rows:
        # The charts end where the score table ends.
        assert money.values[row["seat"]][-1] == row["money"]
        assert cities.values[row["seat"]][-1] == row["cities"]
        assert money.values[row["seat"]][0] == 50  # every player starts with 50
    assert len(money.rounds) == len(money.values[0]) >= 3
    page = client.get(f"/games/{gid}/result/").content.decode()
    assert page.count("<svg") - page.count('class="board') >= 3
    assert page.count('class="line c-') == 9  # three charts, three players
    table = page[page.index("<tbody>") : page.index("</tbody>")]
    positions = [table.index(f'href="/players/{r["username"]}/"') for r in result.rows]
    assert positions == sorted(positions)  # winner first
    assert f"/games/{gid}/result/" in client.get(f"/games/{gid}/").content.decode()


def test_the_result_page_in_japanese(finished, client):
    from i18n_helpers import english_words

    gid, _ps = finished
    client.cookies["django_language"] = "ja"
    page = client.get(f"/games/{gid}/result/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "最終" in page or "順位" in page
    assert english_words(page, {"bdi"}) == []
