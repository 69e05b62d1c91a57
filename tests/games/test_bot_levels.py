"""Bot levels in the product: chosen for bot seats, practice games and seats taken over (the
creator's choice, the heuristic bot by default), played by the worker, named by level on the
pages and in the API, offered by the forms, refused with a clear 400 when unknown."""

from __future__ import annotations

import pytest

from powergrid.levels import DEFAULT_LEVEL, LEVEL_NAMES, TOP_LEVEL

pytestmark = pytest.mark.django_db


def _started_with_bot(make_player, kind: str, **options):
    from games import services
    from games.models import Game

    p = make_player()
    game = services.game_create(
        creator=p.user, map="germany", max_players=2, options={"auto_start": False, **options}
    )
    services.game_bot_add(game_id=game.pk, user=p.user, kind=kind)
    services.game_start(game_id=game.pk, user=p.user)
    return p, Game.objects.get(pk=game.pk)


def test_options_take_every_level_default_heuristic_and_refuse_others():
    from games.services.errors import InvalidSetup
    from games.services.lobby import options_clean

    assert options_clean({})["bot_level"] == DEFAULT_LEVEL == "heuristic"
    for level in LEVEL_NAMES:
        assert options_clean({"bot_level": level})["bot_level"] == level
    for bad in ("genius", "", None, 3, ["expert"]):
        with pytest.raises(InvalidSetup) as e:
            options_clean({"bot_level": bad})
        assert e.value.details["field"] == "options.bot_level"
        assert e.value.details["choices"] == list(LEVEL_NAMES)


def test_the_api_creates_a_game_with_a_level_and_refuses_an_unknown_one(make_player):
    p = make_player()
    r = p.post("/api/v1/games/", {"map": "germany", "max_players": 3})
    assert r.status_code == 201
    assert r.json()["options"]["bot_level"] == "heuristic"
    r = p.post(
        "/api/v1/games/",
        {"map": "germany", "max_players": 3, "options": {"bot_level": "expert"}},
    )
    assert r.status_code == 201, r.content
    assert r.json()["options"]["bot_level"] == "expert"
    r = p.post(
        "/api/v1/games/",
        {"map": "germany", "max_players": 3, "options": {"bot_level": "genius"}},
    )
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "invalid_field"


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_a_bot_seat_of_each_level_is_named_by_it_and_plays_through_the_worker(
    make_player, level, settings
):
    from django.utils import translation

    import powergrid
    from games import selectors
    from games.deadlines.sweep import game_handle_due
    from games.models import Game, Move, Seat
    from games.services.moves import move_submit

    settings.BOT_BUDGET_SCALE = 0.05
    p, game = _started_with_bot(make_player, level)
    seat = Seat.objects.select_related("user__profile").get(game=game, bot_controlled=True)
    assert seat.user.profile.bot_kind == level
    label = {"beginner": "Beginner", "heuristic": "Heuristic", "advanced": "Advanced"}
    with translation.override("en"):
        name = selectors.seat_name(seat)
    assert name == f"{label.get(level, 'Expert')} bot {seat.seat + 1}"
    detail = p.get(f"/api/v1/games/{game.pk}/").json()
    levels = {s["seat"]: s.get("bot_level") for s in detail["seats"]}
    assert levels == {seat.seat: level, 1 - seat.seat: None}
    for _ in range(10):  # the person plays until the bot is awaited
        game = Game.objects.get(pk=game.pk)
        if seat.seat in game.to_act:
            break
        me = game.to_act[0]
        action = powergrid.default_action(powergrid.from_json(game.state_json), me)
        move_submit(game_id=game.pk, user=p.user, expected_seq=game.seq, source="api",
                    action=action)  # fmt: skip
    assert not Move.objects.filter(game=game, seat=seat.seat).exists()  # never in a request
    game_handle_due(game_id=game.pk, wait=True)
    assert Move.objects.filter(game=game, seat=seat.seat, source="bot").exists()


def test_the_bot_of_a_seat_is_its_level_or_the_games_for_a_seat_taken_over(make_player):
    from games.deadlines.sweep import level_bot_for
    from games.models import Seat

    p, game = _started_with_bot(make_player, "advanced", bot_level="expert")
    state = __import__("games.selectors", fromlist=["x"]).game_engine_state(game)
    bot_seat = Seat.objects.get(game=game, bot_controlled=True)
    person = Seat.objects.get(game=game, user=p.user)
    assert level_bot_for(game, bot_seat, state).level.name == "advanced"
    person.bot_controlled = True  # taken over after missed deadlines
    person.save()
    assert level_bot_for(game, person, state).level.name == "expert"
    detail = p.get(f"/api/v1/games/{game.pk}/").json()
    assert {s["bot_level"] for s in detail["seats"]} == {"advanced", "expert"}


def test_a_practice_game_at_each_level_and_an_unknown_level_refused(make_player):
    from games.models import Seat

    p, game = _started_with_bot(make_player, "heuristic")
    for level in LEVEL_NAMES:
        r = p.post(f"/api/v1/games/{game.pk}/practice/", {"level": level})
        assert r.status_code == 201, r.content
        body = r.json()
        assert body["options"]["bot_level"] == level
        bots = Seat.objects.filter(game_id=body["id"], bot_controlled=True)
        assert {s.user.profile.bot_kind for s in bots} == {level}
    r = p.post(f"/api/v1/games/{game.pk}/practice/", {})
    assert r.status_code == 201
    assert r.json()["options"]["bot_level"] == DEFAULT_LEVEL
    r = p.post(f"/api/v1/games/{game.pk}/practice/", {"level": "genius"})
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "invalid_field"


def test_the_pages_offer_the_levels(make_player, client):
    from games import services
    from games.models import Game, Seat

    p = make_player()
    client.force_login(p.user)
    page = client.get("/games/new/").content.decode()
    assert 'name="bot_level"' in page
    for level in LEVEL_NAMES:
        assert f'value="{level}"' in page
    game = services.game_create(creator=p.user, map="germany", max_players=3)
    page = client.get(f"/games/{game.pk}/").content.decode()
    for level in LEVEL_NAMES:
        assert f'<option value="{level}"' in page
    client.post(f"/games/{game.pk}/bot/", {"kind": TOP_LEVEL})
    assert "Expert bot 2" in client.get(f"/games/{game.pk}/").content.decode()
    services.game_bot_add(game_id=game.pk, user=p.user, kind="beginner")
    game = Game.objects.get(pk=game.pk)
    assert game.status == "running"
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'name="level"' in page  # practise from here: the bots' level
    r = client.post(f"/games/{game.pk}/practice/", {"level": "advanced"})
    assert r.status_code == 302
    practice = Game.objects.filter(practice=True, creator=p.user).latest("pk")
    kinds = {s.user.profile.bot_kind for s in Seat.objects.filter(game=practice)}
    assert "advanced" in kinds


def test_the_create_form_keeps_the_chosen_level(make_player, client):
    from games.models import Game

    p = make_player()
    client.force_login(p.user)
    page = client.get("/games/new/").content.decode()
    assert 'name="bot_level"' in page
    r = client.post(
        "/games/new/",
        {"map": "germany", "max_players": 3, "turn_hours": 24, "area_mode": "random",
         "bot_level": "advanced", "auto_start": "on", "plant_deck": "base"},
    )  # fmt: skip
    assert r.status_code == 302, r.content.decode()[:2000]
    assert Game.objects.filter(creator=p.user).latest("pk").options["bot_level"] == "advanced"
