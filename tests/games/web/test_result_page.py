"""A finished game's result page: the score table in rank order and three SVG charts (money,
cities, plants) whose last points are the final figures; none for a game under way (money is
secret until the end); in Japanese too."""

from __future__ import annotations

import re

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


def test_the_result_names_who_left_a_seat_and_who_finished_it(new_game, make_player, client):
    """Seat by seat, the holders who stopped before the end, in order: one who resigned and
    was followed by a substitute, one who handed the seat over while playing, and a last holder
    who resigned with nobody after them (the bot played on). A seat played to the end by one
    person names nobody."""
    from games.models import Game, Seat, Tenure
    from games.services.seats import seat_claim, seat_resign, seat_seek

    gid, ps = new_game(players=3)
    seats = {s.seat: s for s in Seat.objects.filter(game_id=gid).select_related("user")}
    leaver, handing = seats[0].user, seats[1].user
    sub_a, sub_b = make_player(), make_player()
    seat_resign(game_id=gid, user=leaver)
    seat_claim(game_id=gid, user=sub_a.user, seat_no=0)
    seat_seek(game_id=gid, user=handing, seeking=True)
    seat_claim(game_id=gid, user=sub_b.user, seat_no=1)
    play_to_end(gid, [*ps, sub_a, sub_b])
    game = Game.objects.get(pk=gid)
    last = seats[2].user  # as resigning near the end writes it (the seat stays theirs)
    Tenure.objects.create(
        game=game, seat=2, user=last, from_seq=0, to_seq=game.seq - 3, ended="resigned"
    )

    client.force_login(sub_a.user)
    page = client.get(f"/games/{gid}/result/").content.decode()
    rows = page.split('<tr><td class="num rank"')[1:]
    by_seat = {int(re.search(r"\((\d)\)</span>", r)[1]) - 1: r for r in rows}
    name = {u: (u.profile.display_name or u.username) for u in (leaver, handing, last)}
    assert f"{name[leaver]} left at move 0; a substitute took the seat." in by_seat[0]
    assert f"{name[handing]} handed the seat to a substitute at move 0." in by_seat[1]
    assert f"Left at move {game.seq - 3}; the bot played the seat to the end." in by_seat[2]
    assert sum(page.count(name[u]) for u in (leaver, handing)) == 2

    # one person to the end: nobody named beside them
    gid2, ps2 = new_game(players=3)
    play_to_end(gid2, ps2)
    assert "seat-history" not in client.get(f"/games/{gid2}/result/").content.decode()
