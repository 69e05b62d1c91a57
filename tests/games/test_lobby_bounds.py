"""The bounds of a game's set-up, enforced once in games.services.lobby for the API and the page.

turn_hours 12..168 (12 hours to 7 days), max_players 2..6, variant standard/first_game,
pause_weekends a boolean, timeouts_before_bot 0..TIMEOUTS_BEFORE_BOT_MAX. Every rejection is a
400 ``invalid_field`` naming the field in ``details.field``.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games import services
from games.models import Game
from games.services.lobby import (
    PLAYERS_MAX,
    PLAYERS_MIN,
    TIMEOUTS_BEFORE_BOT_MAX,
    TURN_HOURS_MAX,
    TURN_HOURS_MIN,
    VARIANTS,
)

pytestmark = pytest.mark.django_db


def assert_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["error"]["code"] == code, body
    assert body["error"]["message"]
    return body["error"]


def test_bounds_are_the_issue_s():
    assert (TURN_HOURS_MIN, TURN_HOURS_MAX) == (12, 7 * 24)
    assert (PLAYERS_MIN, PLAYERS_MAX) == (2, 6)
    assert 3 <= TIMEOUTS_BEFORE_BOT_MAX <= 20


# -- the service -----------------------------------------------------------------------------

GOOD_OPTIONS = [
    {"turn_hours": TURN_HOURS_MIN},
    {"turn_hours": TURN_HOURS_MAX},
    {"variant": "first_game"},
    {"variant": "standard"},
    {"pause_weekends": True},
    {"timeouts_before_bot": 0},
    {"timeouts_before_bot": TIMEOUTS_BEFORE_BOT_MAX},
]

# Out of bounds: refused by the service, hence by the API and the page alike.
OUT_OF_BOUNDS = [
    ({"turn_hours": TURN_HOURS_MIN - 1}, "options.turn_hours"),
    ({"turn_hours": TURN_HOURS_MAX + 1}, "options.turn_hours"),
    ({"turn_hours": 1}, "options.turn_hours"),
    ({"turn_hours": 336}, "options.turn_hours"),
    ({"turn_hours": 24.5}, "options.turn_hours"),
    ({"variant": "expert"}, "options.variant"),
    ({"timeouts_before_bot": -1}, "options.timeouts_before_bot"),
    ({"timeouts_before_bot": TIMEOUTS_BEFORE_BOT_MAX + 1}, "options.timeouts_before_bot"),
]
# Wrong types and unknown names: refused by the service. (The API's serializer parses JSON
# leniently first, "24" -> 24 and "yes" -> true, and refuses unknown keys itself.)
WRONG_TYPE = [
    ({"turn_hours": "24"}, "options.turn_hours"),
    ({"turn_hours": True}, "options.turn_hours"),
    ({"pause_weekends": "yes"}, "options.pause_weekends"),
    ({"pause_weekends": 1}, "options.pause_weekends"),
    ({"timeouts_before_bot": False}, "options.timeouts_before_bot"),
    ({"colour_blind": True}, "options.colour_blind"),
]
BAD_OPTIONS = OUT_OF_BOUNDS + WRONG_TYPE


@pytest.fixture
def creator():
    return get_user_model().objects.create_user(username="boss", password="pw-boss-123456")


@pytest.mark.parametrize("options", GOOD_OPTIONS)
def test_service_accepts_the_bounds(creator, options):
    game = services.game_create(creator=creator, map="germany", max_players=3, options=options)
    for key, value in options.items():
        assert game.options[key] == value


@pytest.mark.parametrize(("options", "field"), BAD_OPTIONS)
def test_service_rejects_out_of_bounds_options(creator, options, field):
    with pytest.raises(services.ServiceError) as info:
        services.game_create(creator=creator, map="germany", max_players=3, options=options)
    assert info.value.status == 400
    assert info.value.code == "invalid_field"
    assert info.value.details["field"] == field
    assert Game.objects.count() == 0


def test_service_rejects_options_that_are_not_an_object(creator):
    with pytest.raises(services.ServiceError) as info:
        services.game_create(creator=creator, map="germany", max_players=3, options=[1])  # type: ignore[arg-type]
    assert info.value.details["field"] == "options"


@pytest.mark.parametrize("n", [PLAYERS_MIN - 1, PLAYERS_MAX + 1, 0, True, "4"])
def test_service_rejects_player_counts(creator, n):
    with pytest.raises(services.ServiceError) as info:
        services.game_create(creator=creator, map="germany", max_players=n)
    assert (info.value.code, info.value.details["field"]) == ("invalid_field", "max_players")


@pytest.mark.parametrize("n", [PLAYERS_MIN, PLAYERS_MAX])
def test_service_accepts_player_counts(creator, n):
    assert services.game_create(creator=creator, map="germany", max_players=n).max_players == n


def test_turn_hours_message_states_the_bounds(creator):
    with pytest.raises(services.ServiceError) as info:
        services.game_create(
            creator=creator, map="germany", max_players=3, options={"turn_hours": 200}
        )
    assert "12" in info.value.message
    assert "168" in info.value.message
    assert info.value.details["min"] == 12
    assert info.value.details["max"] == 168


# -- the API ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("options", "field"), OUT_OF_BOUNDS)
def test_api_rejects_out_of_bounds_options(make_player, options, field):
    r = make_player().post(
        "/api/v1/games/", {"map": "germany", "max_players": 3, "options": options}
    )
    err = assert_error(r, 400, "invalid_field")
    assert err["details"]["field"] == field


@pytest.mark.parametrize("options", GOOD_OPTIONS)
def test_api_accepts_the_bounds(make_player, options):
    r = make_player().post(
        "/api/v1/games/", {"map": "germany", "max_players": 3, "options": options}
    )
    assert r.status_code == 201, r.content
    for key, value in options.items():
        assert r.json()["options"][key] == value


def test_api_refuses_a_misspelt_option_instead_of_dropping_it(make_player):
    """A creator who writes turn_hour would otherwise get the default 24 h without a word."""
    from games.models import Game

    r = make_player().post(
        "/api/v1/games/", {"map": "germany", "max_players": 3, "options": {"turn_hour": 48}}
    )
    err = assert_error(r, 400, "invalid_field")
    assert err["details"]["field"] == "options.turn_hour"
    assert "turn_hours" in err["message"]
    assert not Game.objects.exists()


@pytest.mark.parametrize("n", [PLAYERS_MIN - 1, PLAYERS_MAX + 1])
def test_api_rejects_player_counts(make_player, n):
    r = make_player().post("/api/v1/games/", {"map": "germany", "max_players": n})
    assert assert_error(r, 400, "invalid_field")["details"]["field"] == "max_players"


# -- the create page -------------------------------------------------------------------------


@pytest.fixture
def page(creator):
    c = Client()
    c.force_login(creator)
    return c


def _form(**over):
    data = {
        "map": "germany",
        "max_players": "3",
        "area_mode": "random",
        "turn_hours": "24",
        "timeouts_before_bot": "3",
    }
    data.update({k: str(v) for k, v in over.items()})
    return data


def test_page_inputs_carry_the_bounds(page):
    html = page.get("/games/new/").content.decode()
    hours = re.search(r"<input[^>]*name=\"turn_hours\"[^>]*>", html).group(0)
    assert f'min="{TURN_HOURS_MIN}"' in hours
    assert f'max="{TURN_HOURS_MAX}"' in hours
    bot = re.search(r"<input[^>]*name=\"timeouts_before_bot\"[^>]*>", html).group(0)
    assert 'min="0"' in bot
    assert f'max="{TIMEOUTS_BEFORE_BOT_MAX}"' in bot
    players = re.search(r"<select[^>]*name=\"max_players\".*?</select>", html, re.S).group(0)
    assert re.findall(r'value="(\d+)"', players) == [
        str(n) for n in range(PLAYERS_MIN, PLAYERS_MAX + 1)
    ]
    assert 'name="pause_weekends"' in html


@pytest.mark.parametrize(
    "over",
    [
        {"turn_hours": TURN_HOURS_MIN - 1},
        {"turn_hours": TURN_HOURS_MAX + 1},
        {"turn_hours": "abc"},
        {"timeouts_before_bot": -1},
        {"timeouts_before_bot": TIMEOUTS_BEFORE_BOT_MAX + 1},
        {"max_players": PLAYERS_MAX + 1},
        {"max_players": PLAYERS_MIN - 1},
    ],
)
def test_page_rejects_out_of_bounds(page, over):
    r = page.post("/games/new/", _form(**over))
    assert r.status_code == 400
    assert Game.objects.count() == 0
    field = next(iter(over))
    assert r.context["form"].errors[field]


def test_page_out_of_bounds_message_in_japanese(creator, page):
    creator.profile.language = "ja"
    creator.profile.save()
    r = page.post("/games/new/", _form(turn_hours=TURN_HOURS_MAX + 1))
    assert r.status_code == 400
    assert "168" in r.content.decode()
    assert "以下" in r.content.decode()  # Django's "この値は 168 以下でなければなりません。"


@pytest.mark.parametrize(
    ("over", "expected"),
    [
        ({"turn_hours": TURN_HOURS_MIN}, {"turn_hours": TURN_HOURS_MIN}),
        ({"turn_hours": TURN_HOURS_MAX}, {"turn_hours": TURN_HOURS_MAX}),
        ({"pause_weekends": "on"}, {"pause_weekends": True}),
        ({"timeouts_before_bot": 0}, {"timeouts_before_bot": 0}),
        (
            {"timeouts_before_bot": TIMEOUTS_BEFORE_BOT_MAX},
            {"timeouts_before_bot": TIMEOUTS_BEFORE_BOT_MAX},
        ),
        ({"first_game": "on"}, {"variant": "first_game"}),
        ({}, {"pause_weekends": False, "timeouts_before_bot": 3, "variant": "standard"}),
    ],
)
def test_page_accepts_the_bounds(page, over, expected):
    r = page.post("/games/new/", _form(**over))
    assert r.status_code == 302, r.context["form"].errors if r.context else r
    game = Game.objects.get()
    for key, value in expected.items():
        assert game.options[key] == value


def test_page_without_the_bot_field_uses_the_default(page):
    data = _form()
    del data["timeouts_before_bot"]
    assert page.post("/games/new/", data).status_code == 302
    assert Game.objects.get().options["timeouts_before_bot"] == 3


# -- the OpenAPI schema ------------------------------------------------------------------------


def _schema_options(client) -> dict:
    import yaml

    r = client.get("/api/schema/")
    assert r.status_code == 200
    doc = yaml.safe_load(r.content)
    comps = doc["components"]["schemas"]
    name = next(n for n in comps if n.startswith("GameOptions") and "Request" in n)
    create = next(n for n in comps if n.startswith("GameCreate") and "Request" in n)
    return {
        "options": comps[name]["properties"],
        "create": comps[create]["properties"],
        "components": comps,
    }


def test_schema_documents_the_service_bounds(page):
    s = _schema_options(page)
    th = s["options"]["turn_hours"]
    assert (th["minimum"], th["maximum"]) == (TURN_HOURS_MIN, TURN_HOURS_MAX)
    tb = s["options"]["timeouts_before_bot"]
    assert (tb["minimum"], tb["maximum"]) == (0, TIMEOUTS_BEFORE_BOT_MAX)
    mp = s["create"]["max_players"]
    assert (mp["minimum"], mp["maximum"]) == (PLAYERS_MIN, PLAYERS_MAX)
    variant = s["options"]["variant"]
    ref = variant.get("$ref") or next(
        (part["$ref"] for part in variant.get("allOf", []) if "$ref" in part), None
    )
    enum = variant.get("enum") or s["components"][ref.rsplit("/", 1)[-1]]["enum"]
    assert sorted(enum) == sorted(VARIANTS)
    assert "time zone" in s["options"]["pause_weekends"]["description"]
