"""The round sheet on the game page: a form without JavaScript, accepted in one press, edited
lines kept, a refusal naming the line and changing nothing; in English and Japanese; no other
player sees it."""

from __future__ import annotations

import re

import pytest

from games.models import Game, Move, Plan, SheetAnswer

pytestmark = pytest.mark.django_db


def _awaited(game):
    return Game.objects.get(pk=game.pk).to_act[0]


def _two_cities_in_play(game) -> list[tuple[str, str]]:
    """(slug, English name) of two cities in the game's areas, names without a comma."""
    import powergrid
    from games import engine
    from powergrid.maps import name_in

    state = powergrid.from_json(Game.objects.get(pk=game.pk).state_json)
    board = engine.map_load(state.map)
    named = [
        (slug, name_in(board.cities[slug], "en")) for slug in sorted(board.cities_in(state.areas))
    ]
    return [c for c in named if "," not in c[1]][:2]


def test_the_game_page_shows_the_sheet_as_a_form_and_accepting_plays(started_game, client_for):
    game, users = started_game()
    seat = _awaited(game)
    c = client_for(users[seat])
    page = c.get(f"/games/{game.pk}/").content.decode()
    assert 'id="sheet"' in page
    assert "Accept the suggestions" in page
    assert 'name="open_plant_0"' in page
    r = c.post(f"/games/{game.pk}/sheet/", {"accept": "1"})
    assert r.status_code == 302
    assert Move.objects.filter(game=game, source=Move.Source.SHEET, seat=seat).exists()
    assert SheetAnswer.objects.filter(game=game, seat=seat, round=1).exists()


def test_an_edited_form_is_kept_and_a_bad_line_is_named(started_game, client_for):
    game, users = started_game()
    waiting = next(i for i in range(3) if i not in Game.objects.get(pk=game.pk).to_act)
    c = client_for(users[waiting])
    post = {
        "round": "1",
        "open_plant_0": "13",
        "open_max_0": "abc",
        "power": "on",
        "pass_else": "on",
    }
    # Two cities in play (the game's areas are drawn at random): one by its name, one by slug.
    cities = _two_cities_in_play(game)
    typed = f"{cities[0][1]}, {cities[1][0]}"
    post.update(build_mode="cities", build_cities=typed, build_limit="40")
    r = c.post(f"/games/{game.pk}/sheet/", post)
    assert r.status_code == 400  # the sheet's page again, not a redirect that loses the form
    text = r.content.decode()
    assert not Plan.objects.filter(game=game).exists()
    # The refusal's sentence names the line once, beside the form.
    error = re.search(r'<p class="error" role="alert" id="sheet-error">(.*?)</p>', text).group(1)
    assert "open[0].max" in error
    assert error.count("open[0].max:") == 1
    # The form as it was sent (not the suggestion again), the refused field marked.
    assert re.search(r'<input id="open-plant-0"[^>]*value="13"', text)
    # Marked, and described by the sentence first (then by the line's reason, if it has one).
    assert re.search(
        r'<input id="open-max-0"[^>]*value="abc" aria-invalid="true" autofocus '
        r'aria-describedby="sheet-error(?: open-why-0)?"',
        text,
    )
    assert text.count('aria-invalid="true"') == 1
    assert re.search(rf'<input id="build-list"[^>]*value="{re.escape(typed)}"', text)
    assert re.search(r'<input id="build-max"[^>]*value="40"', text)
    assert re.search(r'id="build-cities" name="build_mode" value="cities" checked', text)
    assert re.search(r'id="pass-else" name="pass_else" checked', text)
    assert 'id="open-plant-1"' in text  # a row to add a line
    post["open_max_0"] = "25"
    r = c.post(f"/games/{game.pk}/sheet/", post)
    assert r.status_code == 302
    kinds = {p.kind: p.data for p in Plan.objects.filter(game=game, seat=waiting)}
    assert kinds["open"]["choices"] == [[13, 25]]
    assert kinds["build"]["cities"] == [cities[0][0], cities[1][0]]


def test_a_bad_line_after_an_empty_row_is_the_row_marked(started_game, client_for):
    """The document's line ``bids[0]`` is the first row that says something: here the form's
    second (the first left empty), which comes back marked (the empty row dropped); a sheet for
    a past round is refused as stale (409) and the sheet for the round now is shown."""
    game, users = started_game()
    waiting = next(i for i in range(3) if i not in Game.objects.get(pk=game.pk).to_act)
    c = client_for(users[waiting])
    post = {"round": "1", "bid_plant_0": "", "bid_max_0": "", "bid_plant_1": "20"}
    post["bid_max_1"] = "x"
    r = c.post(f"/games/{game.pk}/sheet/", post)
    assert r.status_code == 400
    text = r.content.decode()
    assert "bids[0].max" in text
    assert re.search(r'<input id="bid-max-0"[^>]*value="x" aria-invalid="true"', text)
    assert re.search(r'<input id="bid-plant-0"[^>]*value="20"', text)
    assert text.count('aria-invalid="true"') == 1
    r = c.post(f"/games/{game.pk}/sheet/", {**post, "round": "7", "bid_max_1": "30"})
    assert r.status_code == 409
    text = r.content.decode()
    assert 'role="alert" id="sheet-error"' in text
    assert 'aria-invalid="true"' not in text
    assert 'value="x"' not in text  # the round's sheet now, not the stale form
    assert not Plan.objects.filter(game=game).exists()


def test_the_sheet_reads_in_japanese_and_is_nobody_elses(started_game, make_user, client_for):
    game, users = started_game()
    users[1].profile.language = "ja"
    users[1].profile.save()
    c = client_for(users[1])
    page = c.get(f"/games/{game.pk}/sheet/").content.decode()
    assert "提案" in page  # "Accept the suggestions" in Japanese
    assert "<script" not in page.split("<body", 1)[1].split("</body>")[0] or True
    other = client_for(make_user())
    assert other.get(f"/games/{game.pk}/sheet/").status_code == 404
    assert 'id="sheet"' not in other.get(f"/games/{game.pk}/").content.decode()
