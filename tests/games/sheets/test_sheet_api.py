"""The round sheet over the API: four clients that only GET their sheet and PUT it back
unchanged finish a 4-player game; refusals name the line and change nothing; a sheet is its
owner's alone."""

from __future__ import annotations

import json

import pytest
from apihelpers import leaf_values, seat_players

from games.models import Game, Move, Plan, SheetAnswer

pytestmark = pytest.mark.django_db


def _sheet(p, gid):
    r = p.get(f"/api/v1/games/{gid}/sheet/")
    assert r.status_code == 200, r.content
    return r.json()


def _put(p, gid, body):
    return p.client.put(f"/api/v1/games/{gid}/sheet/", body, format="json")


def test_four_clients_that_only_get_and_put_back_finish_a_game(new_game):
    gid, ps = new_game(players=4)
    seats = seat_players(gid, ps)
    puts = 0
    for _ in range(400):
        if Game.objects.get(pk=gid).status == Game.Status.FINISHED:
            break
        for p in seats.values():
            doc = _sheet(p, gid)
            if doc["due"]:
                r = _put(p, gid, doc)
                assert r.status_code == 200, r.content
                puts += 1
                if Game.objects.get(pk=gid).status == Game.Status.FINISHED:
                    break
    game = Game.objects.get(pk=gid)
    assert game.status == Game.Status.FINISHED
    sources = set(Move.objects.filter(game=game).values_list("source", flat=True))
    assert sources == {Move.Source.SHEET}
    rounds = powergrid_rounds(game)
    # One answer per seat per round, and a few more where a sheet could not decide.
    assert puts <= 4 * rounds + 8


def test_what_get_returns_is_a_valid_put_body_in_the_schema(new_game):
    """A strict client validates its request against ``SheetRequest`` before it sends it: the
    body GET returned (its read-only keys included) must pass, as the server takes it."""
    from api_schema import shape_errors

    gid, ps = new_game(players=3)
    for p in seat_players(gid, ps).values():
        doc = _sheet(p, gid)
        assert any("reason" in line for line in doc["open"]), doc  # the suggestion's reasons
        assert shape_errors("SheetRequest", doc) == []
    assert shape_errors("SheetRequest", {**doc, "unknown": 1}) != []  # still a closed body


def powergrid_rounds(game: Game) -> int:
    return json.loads(game.state_json)["round"]


def test_a_sheet_put_as_got_plays_what_it_can_before_the_answer(new_game):
    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    first = Game.objects.get(pk=gid).to_act[0]
    doc = _sheet(seats[first], gid)
    assert doc["due"] is True
    assert doc["round"] == 1
    assert doc["open"]
    assert doc["open"][0]["reason"]["text"]
    r = _put(seats[first], gid, doc)
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["moves_made"] >= 1
    assert body["acted"]
    assert body["sheet"]["answered"] is True
    assert Move.objects.filter(game_id=gid, source=Move.Source.SHEET).count() == body["moves_made"]


@pytest.mark.parametrize(
    ("change", "line"),
    [
        (lambda d: d["open"][0].__setitem__("max", "20"), "open[0].max"),
        (lambda d: d["open"][0].__setitem__("plant", 999), "open[0].plant"),
        (lambda d: d.__setitem__("resources", {"mode": "pour", "max_price": 3}), "resources.mode"),
        (lambda d: d.__setitem__("build", {"mode": "cities", "max_total": 9, "cities": ["x"]}),
         "build.cities[0]"),
        (lambda d: d["discard"].__setitem__("plant", 42), "discard.plant"),
        (lambda d: d.__setitem__("extra", 1), "extra"),
        (lambda d: d["power"].__setitem__("value", "yes"), "power.value"),
    ],
)  # fmt: skip
def test_a_refusal_names_the_line_and_changes_nothing(new_game, change, line):
    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    first = Game.objects.get(pk=gid).to_act[0]
    doc = _sheet(seats[first], gid)
    change(doc)
    seq = Game.objects.get(pk=gid).seq
    r = _put(seats[first], gid, doc)
    assert r.status_code == 400, r.content
    assert r.json()["error"]["code"] == "invalid_sheet"
    assert r.json()["error"]["details"]["line"] == line
    assert Game.objects.get(pk=gid).seq == seq
    assert not Plan.objects.filter(game_id=gid).exists()
    assert not SheetAnswer.objects.filter(game_id=gid).exists()


def test_a_sheet_for_another_round_is_refused(new_game):
    gid, ps = new_game(players=3)
    p = seat_players(gid, ps)[0]
    doc = _sheet(p, gid)
    doc["round"] = 2
    r = _put(p, gid, doc)
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "sheet_stale"
    assert r.json()["error"]["details"]["line"] == "round"


def test_a_sheet_is_its_owners_alone(new_game, make_player):
    gid, ps = new_game(players=3)
    seats = seat_players(gid, ps)
    game = Game.objects.get(pk=gid)
    waiting = next(s for s in seats if s not in game.to_act)
    doc = _sheet(seats[waiting], gid)
    doc["bids"] = [{"plant": 13, "max": 7777}]
    assert _put(seats[waiting], gid, doc).status_code == 200
    for seat, p in seats.items():
        if seat == waiting:
            continue
        for path in (f"/api/v1/games/{gid}/", f"/api/v1/games/{gid}/moves/",
                     f"/api/v1/games/{gid}/sheet/", f"/api/v1/games/{gid}/plans/"):  # fmt: skip
            r = p.get(path)
            if r.status_code == 200:
                assert 7777 not in set(leaf_values(r.json())), path
    outsider = make_player()
    assert outsider.get(f"/api/v1/games/{gid}/sheet/").status_code == 403
