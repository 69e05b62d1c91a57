"""A finished game's shuffle and moves can be checked by anyone: ``manage.py verify_game`` and
``python -m powergrid verify`` on its record; a tampered move log or seed fails."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from games import selectors
from games.models import Game, Move
from powergrid import cli
from powergrid.verify import commitment, verify

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_game(new_game):
    from apihelpers import bot_action

    from powergrid.bots import HeuristicBot

    gid, ps = new_game(players=2)
    bot = HeuristicBot()
    from apihelpers import seat_players

    seats = seat_players(gid, ps)
    for _ in range(3000):
        game = Game.objects.get(pk=gid)
        if game.status == Game.Status.FINISHED:
            break
        seat = game.to_act[0]
        r = seats[seat].post(
            f"/api/v1/games/{gid}/moves/",
            {"action": bot_action(gid, seat, bot), "expected_seq": game.seq},
        )
        assert r.status_code == 201, r.json()
    game = Game.objects.get(pk=gid)
    assert game.status == Game.Status.FINISHED
    return game


def test_a_finished_game_verifies_and_a_tampered_one_does_not(finished_game, capsys):
    gid = finished_game.pk
    call_command("verify_game", str(gid))
    assert f"game {gid}: verified" in capsys.readouterr().out

    record = selectors.game_record(finished_game)
    out = io.StringIO()
    path = f"/tmp/record-{gid}.json"
    with open(path, "w", encoding="utf-8") as f:
        json.dump(record, f)
    assert cli.main(["verify", path], out=out) == 0
    assert out.getvalue().startswith("verified")

    # Another seed than the one committed to: refused whatever the moves.
    assert not verify({**record, "seed": record["seed"] + 1}).ok
    assert "commitment" in verify({**record, "seed": record["seed"] + 1}).reason

    # A move changed in the log (the server's own copy): the replay no longer holds.
    move = Move.objects.filter(game_id=gid, action__type="build").exclude(action__cities=[]).first()
    assert move is not None
    # (Moves are append-only for the application; an attacker with the database is not.)
    Move.objects.filter(pk=move.pk).update(action={"type": "build", "cities": []})
    with pytest.raises(CommandError):
        call_command("verify_game", str(gid))


def test_a_running_game_has_no_record_and_no_seed(new_game):
    gid, ps = new_game(players=3)
    game = Game.objects.get(pk=gid)
    detail = ps[0].get(f"/api/v1/games/{gid}/").json()
    assert detail["seed"] is None
    assert detail["seed_commitment"] == commitment(gid, game.seed)
    assert str(game.seed) not in json.dumps(detail)
    r = ps[0].get(f"/api/v1/games/{gid}/record/")
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "game_not_finished"
    with pytest.raises(CommandError):
        call_command("verify_game", str(gid))


def test_the_game_page_shows_the_commitment_and_at_the_end_the_seed(finished_game, client):
    html = client.get(f"/games/{finished_game.pk}/").content.decode()
    assert commitment(finished_game.pk, finished_game.seed) in html
    assert f"the seed is shown: {finished_game.seed}" in html


def test_a_running_games_page_shows_the_commitment_not_the_seed(new_game, client):
    gid, _ = new_game(players=3)
    game = Game.objects.get(pk=gid)
    html = client.get(f"/games/{gid}/").content.decode()
    assert commitment(gid, game.seed) in html
    assert str(game.seed) not in html
