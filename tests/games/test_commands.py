"""Management commands: seed_demo (idempotent), check_replays and vapid_keys."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db


def test_seed_demo_links_to_the_port_make_run_serves(settings):
    """``PORT=8001 make run`` prints the demo game's links at that port, not at 8000."""
    from pathlib import Path

    settings.SITE_URL = "http://127.0.0.1:8001"
    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    assert "http://127.0.0.1:8001/games/" in out.getvalue()
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    recipe = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    serve = next(line for line in recipe.splitlines() if "devserver" in line)
    # devserver --seed runs seed_demo in its own process: the SITE_URL it is given, with PORT's.
    assert "--seed" in serve
    assert "SITE_URL=$${SITE_URL:-http://127.0.0.1:$${PORT:-8000}}" in serve
    assert "127.0.0.1:$${PORT:-8000}" in serve.split("devserver", 1)[1]


def test_seed_demo_idempotent():
    from django.contrib.auth import get_user_model

    from games.models import Game

    out = io.StringIO()
    call_command("seed_demo", stdout=out)
    call_command("seed_demo", stdout=out)
    text = out.getvalue()
    assert "alice" in text
    assert "alice-power-grid" in text
    users = get_user_model().objects.filter(username__in=["alice", "bob", "carol", "dave"])
    assert users.count() == 4
    games = Game.objects.filter(creator__username="alice")
    assert games.count() == 1
    game = games.get()
    assert game.status == "running"
    assert game.seq > 0
    assert get_user_model().objects.get(username="bob").check_password("bob-power-grid")


def test_check_replays_ok_then_detects_tampering():
    from games.models import Game

    call_command("seed_demo", "--quiet")
    out = io.StringIO()
    call_command("check_replays", stdout=out)
    assert "0 differ" in out.getvalue()
    game = Game.objects.get()
    first = game.moves.order_by("seq").first()
    # Tamper with the snapshot: the replay no longer matches it.
    Game.objects.filter(pk=game.pk).update(
        state_json=game.state_json.replace('"round": 1', '"round": 2', 1) + " "
    )
    with pytest.raises(CommandError):
        call_command("check_replays", stdout=io.StringIO())
    assert first is not None


def test_a_change_of_a_maps_data_under_a_running_game_is_caught(new_game, monkeypatch):
    """The deploy check: a map's rules changed (here Germany's starting coal) while a game runs on
    it. Its replay no longer gives its snapshot; check_replays names it, per map and variant."""
    import dataclasses

    from games.models import Game
    from powergrid import map_rules, setup

    gid, _ = new_game(players=3)
    finished_other, _ = new_game(players=2)
    Game.objects.filter(pk=finished_other).update(status=Game.Status.FINISHED)
    out = io.StringIO()
    call_command("check_replays", stdout=out)
    assert "germany standard: 1 replayed, 0 differ" in out.getvalue()  # running games only

    base = map_rules.rules_for("germany")
    changed = dataclasses.replace(base, starting_market=(21, 18, 6, 2))
    monkeypatch.setattr(setup, "rules_for", lambda slug: changed if slug == "germany" else base)
    out = io.StringIO()
    with pytest.raises(CommandError) as err:
        call_command("check_replays", stdout=out)
    assert str(gid) in str(err.value)
    assert "germany standard: 1 replayed, 1 differ" in out.getvalue()


def test_a_game_records_the_engine_data_it_started_with(new_game):
    from games.models import Game
    from powergrid.version import data_version

    gid, _ = new_game(players=2)
    assert Game.objects.get(pk=gid).engine_data_version == data_version()


def test_moves_are_append_only(new_game):
    from games.models import Move

    gid, ps = new_game(players=2)
    from apihelpers import seat_players

    seats = seat_players(gid, ps)
    actor = ps[0].get(f"/api/v1/games/{gid}/").json()["to_act"][0]
    legal = seats[actor].get(f"/api/v1/games/{gid}/state/").json()["legal"]
    plant = next(e for e in legal if e["type"] == "choose_plant")["plants"][0]
    seats[actor].post(
        f"/api/v1/games/{gid}/moves/",
        {
            "action": {"type": "choose_plant", "plant": plant["number"], "bid": plant["min_bid"]},
            "expected_seq": 0,
        },
    )
    move = Move.objects.get(game_id=gid)
    move.source = "bot"
    with pytest.raises(RuntimeError):
        move.save()


@pytest.mark.django_db(transaction=True)
def test_check_replays_on_a_live_server_sees_each_game_in_one_snapshot(new_game, monkeypatch):
    """A move committed while check_replays reads a game (after its row, before its log) is not a
    difference: the row, the log and the count are read in one snapshot. Found by scripts/season,
    where the deadline sweeps and bots keep moving while the check runs."""
    import threading

    import powergrid
    from games.management.commands import check_replays
    from games.models import Game, Seat
    from games.services.moves import move_submit

    gid, _ = new_game(players=3)
    real = check_replays.game_replay
    moved: list[int] = []

    def replay_while_someone_moves(game):
        def move() -> None:
            g = Game.objects.get(pk=gid)
            seat = Seat.objects.select_related("user").get(game=g, seat=g.to_act[0])
            action = powergrid.default_action(powergrid.from_json(g.state_json), seat.seat)
            move_submit(
                game_id=gid, user=seat.user, action=action, expected_seq=g.seq, source="api"
            )
            moved.append(1)

        if not moved:  # another connection commits a move now
            t = threading.Thread(target=move)
            t.start()
            t.join()
        return real(game)

    monkeypatch.setattr(check_replays, "game_replay", replay_while_someone_moves)
    out = io.StringIO()
    call_command("check_replays", stdout=out)
    assert moved
    assert "1 games replayed, 0 differ" in out.getvalue()
    assert Game.objects.get(pk=gid).seq == 1


def test_vapid_keys_made_once_and_never_again_without_force(settings, tmp_path):
    """Issue 42: the VAPID key pair is configuration, never regenerated by a deploy (a new key
    orphans every device's subscription). ``vapid_keys --write`` makes the key file once (mode
    0600), the public key it prints is the one the site serves; run again (as a careless deploy
    would) it refuses and the key stays; a configured environment key refuses it too."""
    from accounts import push

    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    settings.WEBPUSH_VAPID_KEY_FILE = str(tmp_path / "var" / "vapid_private.pem")
    push.forget()
    try:
        assert push.public_key() == ""
        out = io.StringIO()
        call_command("vapid_keys", "--write", stdout=out)
        pem = (tmp_path / "var" / "vapid_private.pem").read_bytes()
        assert (tmp_path / "var" / "vapid_private.pem").stat().st_mode & 0o777 == 0o600
        served = push.public_key()
        assert served
        assert f"# public key (applicationServerKey): {served}" in out.getvalue()
        with pytest.raises(CommandError, match="orphan"):
            call_command("vapid_keys", "--write", stdout=io.StringIO())
        assert (tmp_path / "var" / "vapid_private.pem").read_bytes() == pem
        assert push.public_key() == served
        call_command("vapid_keys", "--write", "--force", stdout=io.StringIO())
        assert push.public_key() != served  # a lost or leaked key, replaced on purpose
        settings.WEBPUSH_VAPID_KEY_FILE = ""
        push.forget()
        printed = io.StringIO()
        call_command("vapid_keys", stdout=printed)  # the environment file's line, printed
        line = printed.getvalue().splitlines()[0]
        assert line.startswith("WEBPUSH_VAPID_PRIVATE_KEY=")
        settings.WEBPUSH_VAPID_PRIVATE_KEY = line.split("=", 1)[1]
        push.forget()
        with pytest.raises(CommandError):
            call_command("vapid_keys", stdout=io.StringIO())
    finally:
        push.forget()
